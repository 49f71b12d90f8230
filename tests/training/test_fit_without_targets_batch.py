"""fit(x) with no targets hands a custom `train_step` the x batch itself, as Keras 3 does (the
keras.io VAE example reads `data` as the images), not a one-element tuple."""

import numpy as np
import pytest

import tripod as keras
from tripod.backends import config

needs_training = pytest.mark.skipif(
    config.backend() == "numpy", reason="the numpy backend is inference-only"
)

X = np.arange(24, dtype="float32").reshape(6, 4)


class RecordsBatchShape(keras.Model):
    """A `train_step` that notes the structure and shape of the `data` it receives."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.dense = keras.layers.Dense(1)
        self.seen = []

    def call(self, x):
        return self.dense(x)

    def train_step(self, data):
        self.seen.append((type(data).__name__, tuple(keras.ops.shape(data))))
        return {}


def test_pack_x_y_sample_weight_leaves_a_lone_x_unwrapped():
    assert keras.utils.pack_x_y_sample_weight(X) is X
    packed = keras.utils.pack_x_y_sample_weight({"a": X})
    assert isinstance(packed, dict) and packed["a"] is X
    assert keras.utils.pack_x_y_sample_weight([X, X]) == ([X, X],)
    assert keras.utils.pack_x_y_sample_weight((X,)) == ((X,),)
    assert keras.utils.unpack_x_y_sample_weight(keras.utils.pack_x_y_sample_weight(X))[0] is X


@needs_training
def test_custom_train_step_gets_the_x_batch_itself_when_fit_has_no_y():
    model = RecordsBatchShape()
    model(X[:1])
    model.compile(optimizer="sgd")
    model.fit(X, epochs=1, batch_size=3, verbose=0)
    assert model.seen and all(shape == (3, 4) for _, shape in model.seen), model.seen
    assert all(kind != "tuple" for kind, _ in model.seen), model.seen
