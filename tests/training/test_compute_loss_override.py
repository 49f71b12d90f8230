"""`compute_loss` overrides in Keras's older form, without `training`, still train."""

import numpy as np
import pytest

import tripod as keras
from tripod import layers, ops
from tripod.backends import config

pytestmark = pytest.mark.skipif(
    config.backend() == "numpy", reason="the numpy backend is inference-only"
)


class HalvedLoss(keras.Model):
    """Half the compiled loss, written as Keras 3's knowledge-distillation example writes it."""

    def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None, allow_empty=False):
        return ops.multiply(super().compute_loss(x, y, y_pred, sample_weight), 0.5)


def test_a_compute_loss_without_training_argument_is_called_without_it():
    keras.utils.set_random_seed(0)
    inputs = keras.Input((3,))
    model = HalvedLoss(inputs, layers.Dense(1, kernel_initializer="zeros")(inputs))
    model.compile(keras.optimizers.SGD(0.1), "mse")
    x = np.ones((4, 3), "float32")
    y = np.full((4, 1), 2.0, "float32")
    # Zero weights: the prediction is 0, so the halved MSE is 0.5 * 4 = 2.
    assert model.evaluate(x, y, verbose=0) == pytest.approx(2.0)
    history = model.fit(x, y, epochs=3, verbose=0).history["loss"]
    assert history[0] == pytest.approx(2.0) and history[-1] < history[0]
