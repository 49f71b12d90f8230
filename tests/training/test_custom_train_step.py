"""Custom training steps across backends: what each backend-specific form does elsewhere, and
training that has nothing to differentiate (the guides themselves: tests/backends/<name>/)."""

import numpy as np
import pytest

import tripod as keras
from tripod.backends import config

BACKEND = config.backend()
needs_training = pytest.mark.skipif(
    BACKEND == "numpy", reason="the numpy backend is inference-only"
)


class AddsLoss(keras.layers.Layer):
    """No weights: adds the mean square of its inputs as a loss and passes them on."""

    def call(self, x):
        self.add_loss(keras.ops.mean(keras.ops.square(x)))
        return x


class StateStepModel(keras.Model):
    """A train step in Keras's JAX form, `train_step(self, state, data)`."""

    def train_step(self, state, data):
        return {}, state


def _linear_model(cls=keras.Model):
    inputs = keras.Input((3,))
    return cls(inputs, keras.layers.Dense(1)(inputs))


X = np.arange(12, dtype="float32").reshape(4, 3)


@needs_training
def test_fit_trains_a_model_with_only_an_added_loss_and_no_weights():
    inputs = keras.Input((3,))
    model = keras.Model(inputs, AddsLoss()(inputs))
    model.compile(optimizer="sgd")
    history = model.fit(X, epochs=2, batch_size=4, verbose=0)
    np.testing.assert_allclose(history.history["loss"], [np.mean(X**2)] * 2, rtol=1e-6)
    np.testing.assert_allclose(model.evaluate(X, verbose=0), np.mean(X**2), rtol=1e-6)


@needs_training
def test_value_and_grad_gives_zeros_for_variables_the_value_does_not_depend_on():
    unused = keras.Variable(np.ones((2,), "float32"))

    def constant():
        return keras.ops.sum(keras.ops.ones((3,)))

    (value, aux), grads = keras.value_and_grad(lambda: (constant(), 7), [unused], has_aux=True)()
    assert float(value) == 3.0 and aux == 7
    np.testing.assert_array_equal(keras.ops.convert_to_numpy(grads[0]), [0.0, 0.0])
    value, grads = keras.value_and_grad(constant, [])()
    assert float(value) == 3.0 and list(grads) == []


@pytest.mark.skipif(BACKEND == "torch", reason="torch clears gradients (tests/backends/torch)")
def test_zero_grad_is_a_clear_error_where_backward_does_not_exist():
    with pytest.raises(NotImplementedError, match="only the torch backend"):
        _linear_model().zero_grad()


@pytest.mark.skipif(BACKEND in ("jax", "numpy"), reason="jax runs state steps (tests/backends/jax)")
def test_a_jax_state_step_is_a_clear_error_on_other_backends():
    model = _linear_model(StateStepModel)
    model.compile(optimizer="sgd", loss="mse")
    message = r"StateStepModel.train_step\(self, state, data\) is the JAX"
    with pytest.raises(TypeError, match=message):
        model.fit(X, np.ones((4, 1), "float32"), verbose=0)


class _LossOnlyStep(keras.Model):
    """A custom step written once for every backend that returns its loss alone, not a dict."""

    def train_step(self, data):
        x, y = data

        def loss():
            return self.compute_loss(x=x, y=y, y_pred=self(x, training=True))

        value, grads = keras.value_and_grad(loss, self.trainable_variables)()
        self.optimizer.apply(grads, self.trainable_variables)
        return value


@needs_training
def test_a_step_returning_its_loss_alone_logs_it_as_the_loss():
    """Keras's JAX guide variant `return loss, state` failed in fit's progress bar ('ArrayImpl'
    object has no attribute 'items'): a bare value is logged as "loss"."""
    inputs = keras.Input((2,))
    model = _LossOnlyStep(inputs, keras.layers.Dense(1)(inputs))
    model.compile(optimizer="sgd", loss="mse")
    x, y = np.ones((8, 2), "float32"), np.zeros((8, 1), "float32")
    history = model.fit(x, y, batch_size=4, epochs=2, verbose=1).history
    assert list(history) == ["loss"] and history["loss"][1] < history["loss"][0]
