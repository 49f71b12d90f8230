"""LearningRateScheduler and ReduceLROnPlateau change the optimizer's rate during fit."""

import numpy as np
import pytest

import tripod as keras
from tests.training.callbacks.helpers import ScriptedLogs, X, Y, linear_model, needs_training
from tripod.callbacks import LearningRateScheduler, ReduceLROnPlateau

pytestmark = needs_training


def test_scheduler_sets_the_rate_each_epoch_and_logs_it():
    model = linear_model(lr=0.1)
    history = model.fit(
        X, Y, epochs=3, verbose=0, callbacks=[LearningRateScheduler(lambda epoch, lr: lr / 2)]
    )
    np.testing.assert_allclose(history.history["learning_rate"], [0.05, 0.025, 0.0125], rtol=1e-6)
    assert float(np.asarray(model.optimizer.learning_rate)) == pytest.approx(0.0125)


def test_scheduler_with_an_epoch_only_schedule_changes_training():
    """With rate 0 from epoch 1 on, the weights stop moving."""
    model = linear_model(lr=0.1)
    seen = []
    record = keras.callbacks.LambdaCallback(
        on_epoch_end=lambda epoch, logs: seen.append(model.get_weights()[0].copy())
    )
    model.fit(
        X,
        Y,
        epochs=3,
        verbose=0,
        callbacks=[LearningRateScheduler(lambda epoch: 0.1 if epoch == 0 else 0.0), record],
    )
    assert not np.allclose(seen[0], linear_model().get_weights()[0])
    np.testing.assert_array_equal(seen[1], seen[0])
    np.testing.assert_array_equal(seen[2], seen[0])


def test_scheduler_rejects_a_non_number(capsys):
    model = linear_model()
    with pytest.raises(ValueError, match="should be a float"):
        model.fit(X, Y, verbose=0, callbacks=[LearningRateScheduler(lambda epoch, lr: "fast")])
    model.fit(
        X,
        Y,
        verbose=0,
        callbacks=[LearningRateScheduler(lambda epoch, lr: np.float32(0.5), verbose=1)],
    )
    assert "LearningRateScheduler setting learning rate to 0.5" in capsys.readouterr().out


def run_plateau(values, **kwargs):
    kwargs.setdefault("mode", "min")  # "score" says nothing of its direction: auto would refuse it
    model = linear_model(lr=1.0)
    history = model.fit(
        X,
        Y * 0,
        epochs=len(values),
        verbose=0,
        callbacks=[ScriptedLogs("score", values), ReduceLROnPlateau(monitor="score", **kwargs)],
    )
    return history.history["learning_rate"], model


def test_plateau_reduces_after_patience_epochs():
    # min mode; each epoch logs the rate it trained with, before that epoch's reduction
    rates, model = run_plateau([5, 4, 4, 4, 3, 3, 3], factor=0.5, patience=2)
    np.testing.assert_allclose(rates, [1, 1, 1, 1, 0.5, 0.5, 0.5])
    assert float(np.asarray(model.optimizer.learning_rate)) == pytest.approx(0.25)


def test_plateau_cooldown_and_min_lr():
    rates, _ = run_plateau([5, 5, 5, 5, 5, 5, 5], factor=0.1, patience=1, cooldown=2, min_lr=0.005)
    # reductions at epochs 1, 3 and 5: two cooldown epochs each time (the second one may reduce),
    # the last one floored at min_lr
    np.testing.assert_allclose(rates, [1, 1, 0.1, 0.1, 0.01, 0.01, 0.005], rtol=1e-6)
    rates, _ = run_plateau([5] * 6, factor=0.1, patience=1, min_lr=0.005)
    np.testing.assert_allclose(rates, [1, 1, 0.1, 0.01, 0.005, 0.005], rtol=1e-6)


def test_plateau_max_mode_and_min_delta():
    rates, _ = run_plateau([1, 2, 2.05, 2.1, 3], factor=0.5, patience=2, mode="max", min_delta=0.2)
    np.testing.assert_allclose(rates, [1, 1, 1, 1, 0.5])


def test_plateau_auto_mode_needs_a_readable_name():
    with pytest.raises(ValueError, match="minimized or maximized"):
        run_plateau([1, 2], mode="auto")


def test_plateau_argument_errors():
    with pytest.raises(ValueError, match="factor >= 1.0"):
        ReduceLROnPlateau(factor=1.0)
    with pytest.warns(UserWarning, match="epsilon"):
        assert ReduceLROnPlateau(epsilon=0.5).min_delta == 0.5
    with pytest.raises(TypeError, match="unexpected"):
        ReduceLROnPlateau(foo=1)
