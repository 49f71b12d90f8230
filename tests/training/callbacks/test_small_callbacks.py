"""TerminateOnNaN, LambdaCallback and SwapEMAWeights in real fit runs."""

import numpy as np
import pytest

import tripod as keras
from tests.training.callbacks.helpers import X, Y, linear_model, needs_training
from tripod.callbacks import LambdaCallback, SwapEMAWeights, TerminateOnNaN
from tripod.training.callbacks.callback import overrides_batch_hooks

Y_NAN = np.where(np.arange(len(Y))[:, None] >= 16, np.nan, Y).astype("float32")


@needs_training
def test_terminate_on_nan_stops_at_the_first_bad_batch(capsys):
    model = linear_model()
    batches = []
    history = model.fit(
        X,
        Y_NAN,
        epochs=3,
        batch_size=8,
        shuffle=False,
        verbose=0,
        callbacks=[
            TerminateOnNaN(),
            LambdaCallback(on_train_batch_end=lambda b, logs: batches.append(b)),
        ],
    )
    assert batches == [0, 1, 2] and history.epoch == [0]
    assert "Batch 2: Invalid loss, terminating training" in capsys.readouterr().out


@needs_training
def test_terminate_on_nan_can_raise():
    model = linear_model()
    with pytest.raises(RuntimeError, match="NaN or Inf loss encountered at batch 2"):
        model.fit(
            X,
            Y_NAN,
            batch_size=8,
            shuffle=False,
            verbose=0,
            callbacks=[TerminateOnNaN(raise_error=True)],
        )


@needs_training
def test_lambda_callback_calls_each_given_hook():
    calls = []
    callback = LambdaCallback(
        on_train_begin=lambda logs: calls.append("train_begin"),
        on_epoch_begin=lambda epoch, logs: calls.append(f"epoch_begin {epoch}"),
        on_epoch_end=lambda epoch, logs: calls.append(f"epoch_end {epoch} {sorted(logs)}"),
        on_train_batch_end=lambda batch, logs: calls.append(f"batch_end {batch}"),
        on_test_end=lambda logs: calls.append("test_end"),
        on_train_end=lambda logs: calls.append("train_end"),
    )
    model = linear_model()
    model.fit(
        X, Y, epochs=2, batch_size=16, verbose=0, validation_data=(X, Y), callbacks=[callback]
    )
    assert calls == [
        "train_begin",
        "epoch_begin 0",
        "batch_end 0",
        "batch_end 1",
        "test_end",
        "epoch_end 0 ['loss', 'val_loss']",
        "epoch_begin 1",
        "batch_end 0",
        "batch_end 1",
        "test_end",
        "epoch_end 1 ['loss', 'val_loss']",
        "train_end",
    ]


def test_lambda_callback_batch_hooks_are_seen_and_unknown_hooks_refused():
    assert overrides_batch_hooks(LambdaCallback(on_train_batch_end=print), "train")
    assert overrides_batch_hooks(LambdaCallback(on_predict_batch_end=print), "predict")
    assert not overrides_batch_hooks(LambdaCallback(on_epoch_end=print), "train")
    with pytest.raises(ValueError, match="unknown hooks"):
        LambdaCallback(on_epoch_ending=print)


def test_lambda_callback_in_predict_works_on_every_backend():
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(2)])
    shapes = []
    model.predict(
        X,
        batch_size=10,
        verbose=0,
        callbacks=[
            LambdaCallback(
                on_predict_batch_end=lambda b, logs: shapes.append(tuple(logs["outputs"].shape))
            )
        ],
    )
    assert shapes == [(10, 2), (10, 2), (10, 2), (2, 2)]


def ema_model():
    return linear_model(optimizer=keras.optimizers.SGD(0.05, use_ema=True, ema_momentum=0.5))


def averages(model):
    return [np.asarray(a.numpy()) for a in model.optimizer._averages]


@needs_training
def test_fit_ends_with_the_moving_averages_in_the_model():
    model = ema_model()
    model.fit(X, Y, epochs=2, batch_size=8, verbose=0)
    for weight, average in zip(model.get_weights(), averages(model)):
        np.testing.assert_array_equal(weight, average)


@needs_training
def test_swap_ema_weights_evaluates_with_the_averages():
    model = ema_model()
    for start in range(0, len(X), 8):  # train_on_batch leaves the raw weights in the model
        model.train_on_batch(X[start : start + 8], Y[start : start + 8])
    weights, ema = model.get_weights(), averages(model)
    assert not np.allclose(weights[0], ema[0])
    with_ema = model.evaluate(X, Y, verbose=0, callbacks=[SwapEMAWeights()])
    plain = model.evaluate(X, Y, verbose=0)
    kernel, bias = ema
    assert with_ema == pytest.approx(float(np.mean((X @ kernel + bias - Y) ** 2)), rel=1e-5)
    assert plain != pytest.approx(with_ema)
    np.testing.assert_array_equal(model.get_weights()[0], weights[0])  # swapped back
    np.testing.assert_array_equal(averages(model)[0], ema[0])
    prediction = model.predict(X, verbose=0, callbacks=[SwapEMAWeights()])
    np.testing.assert_allclose(prediction, X @ kernel + bias, rtol=1e-5, atol=1e-6)


@needs_training
def test_swap_ema_weights_during_fit_validation_and_on_epoch():
    model = ema_model()
    seen = []
    record = LambdaCallback(
        on_epoch_end=lambda epoch, logs: seen.append(
            (model.get_weights()[0].copy(), averages(model)[0])
        )
    )
    history = model.fit(
        X,
        Y,
        epochs=2,
        batch_size=8,
        verbose=0,
        validation_data=(X, Y),
        callbacks=[SwapEMAWeights(swap_on_epoch=True), record],
    )
    # after the first epoch the model holds the averages and the raw weights wait in the slots;
    # after the last one the averages stay in both, and fit ends with them (as in Keras)
    (first_in_model, first_raw), (last_in_model, last_slot) = seen
    assert not np.allclose(first_in_model, first_raw)
    np.testing.assert_array_equal(last_in_model, last_slot)
    kernel, bias = model.get_weights()
    np.testing.assert_array_equal(kernel, last_in_model)
    np.testing.assert_array_equal(averages(model)[0], kernel)
    assert history.history["val_loss"][-1] == pytest.approx(
        float(np.mean((X @ kernel + bias - Y) ** 2)), rel=1e-5
    )


@needs_training
def test_swap_ema_weights_needs_use_ema():
    with pytest.raises(ValueError, match="use_ema=True"):
        linear_model().fit(X, Y, verbose=0, callbacks=[SwapEMAWeights()])
