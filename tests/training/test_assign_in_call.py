"""A layer that assigns its own weight in `call` (PixelCNN's masked convolution) trains."""

import numpy as np
import pytest

import tripod as keras
from tripod import layers
from tripod.backends import config

pytestmark = pytest.mark.skipif(
    config.backend() == "numpy", reason="the numpy backend is inference-only"
)


class MaskedConv(layers.Layer):
    """A 1x1 convolution whose kernel is masked (lower triangle kept) at every call."""

    def __init__(self, filters, **kwargs):
        super().__init__(**kwargs)
        self.conv = layers.Conv2D(filters, 1)

    def build(self, input_shape):
        self.conv.build(input_shape)
        self.mask = np.tril(np.ones(self.conv.kernel.shape, "float32"), k=0)

    def call(self, x):
        self.conv.kernel.assign(self.conv.kernel * self.mask)
        return self.conv(x)


def test_sibling_layers_assigning_their_kernels_in_call_train():
    # On torch the optimizer fuses the kernels into one buffer: assigning one must not
    # invalidate what autograd saved of the other (it raised "modified by an inplace operation").
    keras.utils.set_random_seed(0)
    inputs = keras.Input((6, 6, 4))
    x = MaskedConv(4)(inputs)
    x = MaskedConv(4)(x)
    model = keras.Model(inputs, layers.Conv2D(1, 1)(x))
    model.compile(keras.optimizers.Adam(0.01), "mse")
    data = np.random.default_rng(0).random((16, 6, 6, 4)).astype("float32")
    target = data[..., :1] * 2.0
    losses = model.fit(data, target, batch_size=8, epochs=4, verbose=0).history["loss"]
    assert losses[-1] < losses[0]
    model.predict(data, verbose=0)  # each call masks the kernels again
    for layer in model.layers[1:3]:
        kernel = np.asarray(layer.conv.kernel.numpy())
        assert np.all(kernel[np.asarray(layer.mask) == 0] == 0)
