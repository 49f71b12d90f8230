"""EarlyStopping in real fit runs, with the monitored values scripted per epoch."""

import pytest

from tests.training.callbacks.helpers import (
    ScriptedLogs,
    WeightsPerEpoch,
    X,
    Y,
    assert_weights_equal,
    linear_model,
    needs_training,
)
from tripod.callbacks import EarlyStopping

pytestmark = needs_training


def fit(values, epochs=None, **kwargs):
    """Fit with `score` scripted to `values`; the History and the callback."""
    model = linear_model()
    stopper = EarlyStopping(monitor="score", mode=kwargs.pop("mode", "min"), **kwargs)
    recorder = WeightsPerEpoch()
    history = model.fit(
        X,
        Y,
        epochs=epochs or len(values),
        verbose=0,
        callbacks=[ScriptedLogs("score", values), recorder, stopper],
    )
    return model, history, stopper, recorder


def test_stops_after_patience_epochs_without_improvement():
    _, history, stopper, _ = fit([5, 4, 4.5, 4.2, 4.1, 1, 1, 1], patience=3)
    assert history.epoch == [0, 1, 2, 3, 4]
    assert stopper.stopped_epoch == 4 and stopper.best == 4 and stopper.best_epoch == 1


def test_patience_zero_stops_at_first_non_improvement_but_never_at_epoch_zero():
    _, history, _, _ = fit([5, 6, 7])
    assert history.epoch == [0, 1]


def test_min_delta_requires_a_large_enough_improvement():
    _, history, _, _ = fit([5, 4.9, 4.8, 4.7], patience=1, min_delta=0.5)
    assert history.epoch == [0, 1]


def test_max_mode_and_auto_mode_by_name():
    _, history, _, _ = fit([0.1, 0.2, 0.1, 0.1, 0.3], mode="max", patience=1)
    assert history.epoch == [0, 1, 2]
    model = linear_model(metrics=["accuracy"])
    stopper = EarlyStopping(monitor="accuracy")
    model.fit(X, Y, epochs=1, verbose=0, callbacks=[stopper])
    assert stopper._monitor.direction == "max"
    assert EarlyStopping()._monitor.resolve() == "min"


def test_auto_mode_fails_for_a_name_it_cannot_read():
    with pytest.raises(ValueError, match="mode='min' or mode='max'"):
        fit([1, 2], mode="auto")


def test_baseline_must_be_beaten():
    _, history, _, _ = fit([5, 4, 3, 2.5, 2], baseline=2.6, patience=2)
    assert history.epoch == [0, 1]
    _, history, _, _ = fit([5, 4, 3, 2.5, 2], baseline=2.6, patience=3)
    assert history.epoch == [0, 1, 2]
    _, history, stopper, _ = fit([5, 4, 3, 2.5, 2], baseline=2.6, patience=4)
    assert history.epoch == [0, 1, 2, 3, 4] and stopper.wait == 0


def test_start_from_epoch_ignores_early_epochs():
    _, history, _, _ = fit([1, 2, 3, 4, 5, 6], start_from_epoch=3, patience=1)
    assert history.epoch == [0, 1, 2, 3, 4]


def test_restore_best_weights_restores_the_best_epoch():
    model, history, _, recorder = fit([3, 1, 2, 2, 2], patience=2, restore_best_weights=True)
    assert history.epoch == [0, 1, 2, 3]
    assert_weights_equal(model.get_weights(), recorder.weights[1])


def test_restore_best_weights_also_when_training_ends_without_stopping():
    model, history, _, recorder = fit([3, 1, 2], patience=5, restore_best_weights=True)
    assert history.epoch == [0, 1, 2]
    assert_weights_equal(model.get_weights(), recorder.weights[1])


def test_missing_metric_warns_and_keeps_training():
    model = linear_model()
    with pytest.warns(UserWarning, match="val_loss"):
        history = model.fit(X, Y, epochs=2, verbose=0, callbacks=[EarlyStopping()])
    assert history.epoch == [0, 1]


def test_monitors_real_validation_loss():
    model = linear_model(lr=0.0)  # the loss never changes: stops after patience
    history = model.fit(
        X, Y, epochs=10, verbose=0, validation_split=0.25, callbacks=[EarlyStopping(patience=2)]
    )
    assert history.epoch == [0, 1, 2]


def test_verbose_messages(capsys):
    fit([5, 6, 7], patience=1, verbose=1, restore_best_weights=True)
    out = capsys.readouterr().out
    assert "Epoch 2: early stopping" in out
    assert "Restoring model weights from the end of the best epoch: 1." in out
