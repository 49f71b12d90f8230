"""`Model.stateless_compute_loss`: the compiled loss on given variable values, returning the
updated state instead of writing it (every backend), and the train/test steps of Keras's current
"Customizing what happens in fit() with JAX" guide, which are built on it (jax)."""

import numpy as np
import pytest

import tripod as keras
from tests.backends.custom_steps import assert_learns, build, regression_data
from tripod.backends import config

BACKEND = config.backend()
jax = pytest.importorskip("jax") if BACKEND == "jax" else None
L2 = 0.1
X = np.arange(12, dtype="float32").reshape(4, 3) / 10.0
Y_A = np.linspace(-1.0, 1.0, 4, dtype="float32").reshape(4, 1)
Y_B = np.linspace(2.0, 0.0, 8, dtype="float32").reshape(4, 2)


def _two_output_model():
    """Outputs "a" (Dense(1), L2-regularized kernel) and "b" (Dense(2)), losses mse and mae."""
    inputs = keras.Input((3,))
    a = keras.layers.Dense(1, kernel_regularizer=keras.regularizers.L2(L2), name="a")(inputs)
    b = keras.layers.Dense(2, name="b")(inputs)
    model = keras.Model(inputs, {"a": a, "b": b})
    model.compile(optimizer="sgd", loss={"a": "mse", "b": "mae"}, loss_weights={"a": 1.0, "b": 0.5})
    model.evaluate(X, {"a": Y_A, "b": Y_B}, verbose=0)  # builds the per-output loss trackers
    return model


def _numpy(values):
    return [keras.ops.convert_to_numpy(v) for v in values]


def test_the_loss_uses_the_given_values_and_returns_the_updated_trackers():
    model = _two_output_model()
    assert model.metrics_names == ["loss", "a_loss", "b_loss"]
    before = _numpy(model.variables + model.metrics_variables)
    trainable = [np.full(v.shape, 0.5, "float32") for v in model.trainable_variables]
    metrics = [np.float32(v) for v in (1.0, 2.0, 10.0, 2.0, 3.0, 1.0)]  # (total, count) each
    pred_a = np.full((4, 1), 0.25, "float32")
    pred_b = np.ones((4, 2), "float32")
    loss, (new_trainable, non_trainable, new_metrics) = model.stateless_compute_loss(
        trainable, [], metrics, x=X, y={"a": Y_A, "b": Y_B}, y_pred={"a": pred_a, "b": pred_b}
    )
    mse = np.mean((Y_A - pred_a) ** 2)
    mae = np.mean(np.abs(Y_B - pred_b))
    kernel_a = trainable[[v.path for v in model.trainable_variables].index("a/kernel")]
    expected = mse + 0.5 * mae + L2 * np.sum(kernel_a**2)  # the regularizer reads the given kernel
    np.testing.assert_allclose(keras.ops.convert_to_numpy(loss), expected, rtol=1e-5)
    assert non_trainable == [] and len(new_trainable) == len(trainable)
    # The loss tracker is the step's to update; each output's tracker took its unweighted loss.
    np.testing.assert_allclose(
        _numpy(new_metrics), [1.0, 2.0, 10.0 + 4 * mse, 6.0, 3.0 + 4 * mae, 5.0], rtol=1e-5
    )
    # Nothing was written into the model's own variables.
    for old, new in zip(before, _numpy(model.variables + model.metrics_variables)):
        np.testing.assert_array_equal(old, new)


def test_a_state_of_the_wrong_size_is_a_clear_error():
    model = _two_output_model()
    values = _numpy(model.metrics_variables)
    with pytest.raises(
        ValueError,
        match=r"stateless_compute_loss expects 4 trainable, 0 non-trainable and 6 metrics values; received 1, 0 and 6",
    ):
        model.stateless_compute_loss([np.zeros((3, 1), "float32")], [], values, y=Y_A, y_pred=Y_A)


class GuideModel(keras.Model):
    """The guide's model: loss through `stateless_compute_loss`, metrics updated statelessly."""

    def compute_loss_and_updates(
        self, trainable, non_trainable, metrics, x, y, sample_weight, training=False
    ):
        y_pred, non_trainable = self.stateless_call(trainable, non_trainable, x, training=training)
        loss, (trainable, non_trainable, metrics) = self.stateless_compute_loss(
            trainable,
            non_trainable,
            metrics,
            x=x,
            y=y,
            y_pred=y_pred,
            sample_weight=sample_weight,
            training=training,
        )
        return loss, (y_pred, non_trainable, metrics)

    def _logs_and_metrics(self, metrics, loss, y, y_pred, sample_weight):
        """Every metric updated from its own slice of `metrics`: (logs, the new values)."""
        logs, updated = {}, []
        for metric in self.metrics:
            mine = metrics[len(updated) : len(updated) + len(metric.variables)]
            if metric.name == "loss":
                mine = metric.stateless_update_state(mine, loss, sample_weight=sample_weight)
            else:
                mine = metric.stateless_update_state(mine, y, y_pred, sample_weight=sample_weight)
            logs[metric.name] = metric.stateless_result(mine)
            updated += mine
        return logs, updated

    def train_step(self, state, data):
        trainable, non_trainable, optimizer_state, metrics = state
        x, y, sample_weight = keras.utils.unpack_x_y_sample_weight(data)
        grad_fn = jax.value_and_grad(self.compute_loss_and_updates, has_aux=True)
        (loss, (y_pred, non_trainable, metrics)), grads = grad_fn(
            trainable, non_trainable, metrics, x, y, sample_weight, training=True
        )
        trainable, optimizer_state = self.optimizer.stateless_apply(
            optimizer_state, grads, trainable
        )
        logs, metrics = self._logs_and_metrics(metrics, loss, y, y_pred, sample_weight)
        return logs, (trainable, non_trainable, optimizer_state, metrics)

    def test_step(self, state, data):
        trainable, non_trainable, metrics = state
        x, y, sample_weight = keras.utils.unpack_x_y_sample_weight(data)
        loss, (y_pred, non_trainable, metrics) = self.compute_loss_and_updates(
            trainable, non_trainable, metrics, x, y, sample_weight
        )
        logs, metrics = self._logs_and_metrics(metrics, loss, y, y_pred, sample_weight)
        return logs, (trainable, non_trainable, metrics)


@pytest.mark.skipif(BACKEND != "jax", reason="the guide's steps call jax.value_and_grad")
@pytest.mark.parametrize("run_eagerly", [False, True])
def test_the_jax_guide_steps_fit_and_evaluate(run_eagerly):
    x, y = regression_data()
    model = build(GuideModel)
    model.compile(
        optimizer=keras.optimizers.Adam(0.05), loss="mse", metrics=["mae"], run_eagerly=run_eagerly
    )
    assert_learns(model.fit(x, y, batch_size=32, epochs=2, verbose=0), ["loss", "mae"])
    assert int(model.optimizer.iterations.numpy()) == 16
    dense = model.layers[-1]
    plain = x @ dense.kernel.numpy() + dense.bias.numpy()
    logs = model.evaluate(x, y, batch_size=32, verbose=0, return_dict=True)
    np.testing.assert_allclose(logs["loss"], np.mean((plain - y) ** 2), rtol=1e-4)
    np.testing.assert_allclose(logs["mae"], np.mean(np.abs(plain - y)), rtol=1e-4)
