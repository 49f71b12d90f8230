"""The compiled loss and metrics: one output given as tensors or as one-element structures."""

import numpy as np

from tripod.backends import active
from tripod.training import compile_utils

ops = active()

rng = np.random.default_rng(0)
Y_TRUE = rng.standard_normal((8, 2)).astype("float32")
Y_PRED = rng.standard_normal((8, 2)).astype("float32")
WEIGHTS = rng.uniform(size=(8,)).astype("float32")


def _value(x):
    return np.asarray(ops.convert_to_numpy(x))


def test_one_output_as_a_tensor_or_a_list_gives_the_same_loss():
    expected = 0.5 * np.sum(np.mean(np.abs(Y_TRUE - Y_PRED), -1) * WEIGHTS) / len(WEIGHTS)
    for structure in (lambda x: x, lambda x: [x]):
        loss = compile_utils.CompileLoss("mae", loss_weights=0.5)
        value = loss(structure(Y_TRUE), structure(Y_PRED), structure(WEIGHTS))
        np.testing.assert_allclose(_value(value), expected, rtol=1e-6)
        assert loss.metrics == []
    loss = compile_utils.CompileLoss("mae")
    assert loss(None, Y_PRED) is None


def test_several_outputs_sum_their_weighted_losses_and_track_each():
    loss = compile_utils.CompileLoss(
        ["mse", "mae"], loss_weights=[2.0, None], output_names=["a", "b"]
    )
    value = loss({"a": Y_TRUE, "b": Y_PRED}, [Y_PRED, Y_TRUE], [WEIGHTS, None])
    mse = np.sum(np.mean((Y_TRUE - Y_PRED) ** 2, -1) * WEIGHTS) / len(WEIGHTS)
    mae = np.mean(np.abs(Y_TRUE - Y_PRED))
    np.testing.assert_allclose(_value(value), 2.0 * mse + mae, rtol=1e-6)
    assert [m.name for m in loss.metrics] == ["a_loss", "b_loss"]
    np.testing.assert_allclose([_value(m.result()) for m in loss.metrics], [mse, mae], rtol=1e-6)


def test_one_output_metrics_as_a_tensor_or_a_list_agree():
    for structure in (lambda x: x, lambda x: [x]):
        metrics = compile_utils.CompileMetrics(["mae"], weighted_metrics=["mae"])
        metrics.build(structure(Y_TRUE), structure(Y_PRED))
        metrics.update_state(structure(Y_TRUE), structure(Y_PRED), structure(WEIGHTS))
        plain, weighted = (_value(m.result()) for m in metrics.metrics)
        errors = np.mean(np.abs(Y_TRUE - Y_PRED), -1)
        np.testing.assert_allclose(plain, np.mean(errors), rtol=1e-6)
        np.testing.assert_allclose(weighted, np.sum(errors * WEIGHTS) / np.sum(WEIGHTS), rtol=1e-6)


def test_metrics_of_one_name_each_keep_a_log_key():
    """Three metrics all called "err" log as err, err_1, err_2 (Keras's keys), each its own
    value: keras-rs's ranking metrics are all called "mean", and one overwrote the others."""
    import tripod

    model = tripod.Sequential([tripod.Input((2,)), tripod.layers.Identity()])
    errors = [
        tripod.metrics.MeanMetricWrapper(fn, name="err")
        for fn in (
            tripod.losses.mean_absolute_error,
            tripod.losses.mean_squared_error,
            lambda y_true, y_pred: ops.abs(y_true),
        )
    ]
    model.compile(loss="mse", metrics=errors)
    logs = model.evaluate(Y_PRED, Y_TRUE, batch_size=8, verbose=0, return_dict=True)
    assert sorted(logs) == ["err", "err_1", "err_2", "loss"]
    difference = Y_TRUE - Y_PRED
    expected = [np.abs(difference).mean(), np.square(difference).mean(), np.abs(Y_TRUE).mean()]
    np.testing.assert_allclose([logs[k] for k in ("err", "err_1", "err_2")], expected, rtol=1e-5)
