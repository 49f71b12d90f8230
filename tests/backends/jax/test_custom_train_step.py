"""Keras's "Customizing what happens in fit() with JAX" patterns run on tripod's jax backend: the
stateless `train_step(self, state, data)` / `test_step` / `predict_step` that take and return the
model's state, with `stateless_call`, `jax.value_and_grad`, `optimizer.stateless_apply` and the
metrics' `stateless_update_state` / `stateless_result`."""

import numpy as np
import pytest

import tripod as keras
from tests.backends.custom_steps import TrackerBase, assert_learns, build, regression_data
from tripod.backends import config

if config.backend() != "jax":
    pytest.skip("jax-specific train_step overrides", allow_module_level=True)

import jax


class GuideModel(keras.Model):
    """The guide's steps: the compiled loss and metrics, threaded through `self.metrics`."""

    def compute_loss_and_updates(
        self, trainable_variables, non_trainable_variables, x, y, training=False
    ):
        y_pred, non_trainable_variables = self.stateless_call(
            trainable_variables, non_trainable_variables, x, training=training
        )
        return self.compute_loss(x, y, y_pred), (y_pred, non_trainable_variables)

    def _metrics_state(self, metrics_variables, loss, y, y_pred):
        """Each metric updated from its slice of `metrics_variables`: (logs, new values)."""
        logs, new_values = {}, []
        for metric in self.metrics:
            values = metrics_variables[len(new_values) : len(new_values) + len(metric.variables)]
            if metric.name == "loss":
                values = metric.stateless_update_state(values, loss)
            else:
                values = metric.stateless_update_state(values, y, y_pred)
            logs[metric.name] = metric.stateless_result(values)
            new_values += values
        return logs, new_values

    def train_step(self, state, data):
        trainable_variables, non_trainable_variables, optimizer_variables, metrics_variables = state
        x, y = data
        grad_fn = jax.value_and_grad(self.compute_loss_and_updates, has_aux=True)
        (loss, (y_pred, non_trainable_variables)), grads = grad_fn(
            trainable_variables, non_trainable_variables, x, y, training=True
        )
        trainable_variables, optimizer_variables = self.optimizer.stateless_apply(
            optimizer_variables, grads, trainable_variables
        )
        logs, metrics_variables = self._metrics_state(metrics_variables, loss, y, y_pred)
        return logs, (
            trainable_variables,
            non_trainable_variables,
            optimizer_variables,
            metrics_variables,
        )

    def test_step(self, state, data):
        trainable_variables, non_trainable_variables, metrics_variables = state
        x, y = data
        loss, (y_pred, non_trainable_variables) = self.compute_loss_and_updates(
            trainable_variables, non_trainable_variables, x, y
        )
        logs, metrics_variables = self._metrics_state(metrics_variables, loss, y, y_pred)
        return logs, (trainable_variables, non_trainable_variables, metrics_variables)

    def predict_step(self, state, data):
        trainable_variables, non_trainable_variables = state
        x = data[0] if isinstance(data, tuple) else data
        outputs, non_trainable_variables = self.stateless_call(
            trainable_variables, non_trainable_variables, x
        )
        return 2.0 * outputs, non_trainable_variables  # doubled: proves this step ran


class TrackerModel(TrackerBase):
    """The guide's lower-level step: its own loss function and `Mean`/MAE trackers."""

    def compute_loss_and_updates(self, trainable_variables, non_trainable_variables, x, y):
        y_pred, non_trainable_variables = self.stateless_call(
            trainable_variables, non_trainable_variables, x, training=True
        )
        return self.loss_fn(y, y_pred), (y_pred, non_trainable_variables)

    def train_step(self, state, data):
        trainable_variables, non_trainable_variables, optimizer_variables, metrics_variables = state
        x, y = data
        grad_fn = jax.value_and_grad(self.compute_loss_and_updates, has_aux=True)
        (loss, (y_pred, non_trainable_variables)), grads = grad_fn(
            trainable_variables, non_trainable_variables, x, y
        )
        trainable_variables, optimizer_variables = self.optimizer.stateless_apply(
            optimizer_variables, grads, trainable_variables
        )
        split = len(self.loss_tracker.variables)
        loss_values = self.loss_tracker.stateless_update_state(metrics_variables[:split], loss)
        mae_values = self.mae_metric.stateless_update_state(metrics_variables[split:], y, y_pred)
        logs = {
            self.loss_tracker.name: self.loss_tracker.stateless_result(loss_values),
            self.mae_metric.name: self.mae_metric.stateless_result(mae_values),
        }
        metrics_variables = loss_values + mae_values
        return logs, (
            trainable_variables,
            non_trainable_variables,
            optimizer_variables,
            metrics_variables,
        )


class BadStateModel(keras.Model):
    """A state step that forgets the optimizer's state in what it returns."""

    def train_step(self, state, data):
        trainable_variables, non_trainable_variables, _, metrics_variables = state
        return {}, (trainable_variables, non_trainable_variables, metrics_variables)


@pytest.mark.parametrize("run_eagerly", [False, True])
def test_the_guide_state_steps_fit_evaluate_and_predict(run_eagerly):
    x, y = regression_data()
    model = build(GuideModel)
    optimizer = keras.optimizers.Adam(0.05)
    model.compile(optimizer=optimizer, loss="mse", metrics=["mae"], run_eagerly=run_eagerly)
    assert_learns(model.fit(x, y, batch_size=32, epochs=2, verbose=0), ["loss", "mae"])
    assert int(model.optimizer.iterations.numpy()) == 16  # the state was written back
    predictions = model.predict(x, verbose=0)
    plain = x @ model.layers[-1].kernel.numpy() + model.layers[-1].bias.numpy()
    np.testing.assert_allclose(predictions, 2.0 * plain, rtol=1e-4, atol=1e-5)
    logs = model.evaluate(x, y, verbose=0, return_dict=True)
    np.testing.assert_allclose(logs["loss"], np.mean((plain - y) ** 2), rtol=1e-4)
    np.testing.assert_allclose(logs["mae"], np.mean(np.abs(plain - y)), rtol=1e-4)


def test_the_lower_level_step_with_its_own_trackers():
    x, y = regression_data()
    model = build(TrackerModel)
    model.compile(optimizer=keras.optimizers.Adam(0.05))
    history = model.fit(x, y, batch_size=32, epochs=2, verbose=0)
    assert_learns(history, ["loss", "mae"])
    # The trackers' variables hold the last epoch's totals: their result is the logged value.
    np.testing.assert_allclose(model.loss_tracker.result(), history.history["loss"][-1], rtol=1e-6)


def test_a_state_step_returning_a_misshapen_state_is_a_clear_error():
    x, y = regression_data(samples=8)
    model = build(BadStateModel)
    model.compile(optimizer="sgd", loss="mse")
    with pytest.raises(ValueError, match=r"BadStateModel.train_step must return .*4 lists"):
        model.fit(x, y, verbose=0)
