"""compile / fit / evaluate / predict on the active backend."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

import tripod as keras
from tests import accelerator
from tripod import layers, ops
from tripod.backends import config
from tripod.layers import tracking
from tripod.testing import installed_backends

TRAINS = config.backend() != "numpy"
needs_training = pytest.mark.skipif(not TRAINS, reason="the numpy backend is inference-only")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

rng = np.random.default_rng(0)
X = rng.standard_normal((64, 4)).astype("float32")
W = rng.standard_normal((4, 1)).astype("float32")
Y = X @ W


def linear_model(lr=0.1, **compile_kwargs):
    keras.utils.set_random_seed(1)
    model = keras.Sequential([keras.Input((4,)), layers.Dense(1)])
    model.compile(optimizer=keras.optimizers.SGD(lr), loss="mse", **compile_kwargs)
    return model


@needs_training
def test_fit_learns_a_linear_map_and_returns_history():
    model = linear_model(metrics=["mae"])
    history = model.fit(X, Y, batch_size=16, epochs=30, verbose=0)
    assert set(history.history) == {"loss", "mae"}
    assert len(history.history["loss"]) == 30
    assert history.history["loss"][-1] < 1e-3 < history.history["loss"][0]
    np.testing.assert_allclose(model.layers[0].kernel.numpy(), W, atol=0.05)


@needs_training
def test_evaluate_matches_a_numpy_loss():
    model = linear_model(metrics=["mae"])
    model.fit(X, Y, batch_size=16, epochs=2, verbose=0)
    kernel, bias = model.get_weights()
    pred = X @ kernel + bias
    logs = model.evaluate(X, Y, batch_size=64, verbose=0, return_dict=True)
    assert logs["loss"] == pytest.approx(float(np.mean((pred - Y) ** 2)), rel=1e-5)
    assert logs["mae"] == pytest.approx(float(np.mean(np.abs(pred - Y))), rel=1e-5)


def test_predict_concatenates_batches():
    model = keras.Sequential([keras.Input((4,)), layers.Dense(3)])
    out = model.predict(X, batch_size=10, verbose=0)
    assert out.shape == (64, 3)
    np.testing.assert_allclose(
        out, np.asarray(ops.convert_to_numpy(model(X))), rtol=1e-5, atol=1e-6
    )


def test_evaluate_works_on_every_backend_including_numpy():
    model = keras.Sequential([keras.Input((4,)), layers.Dense(1)])
    model.compile(loss="mse")
    loss = model.evaluate(X, Y, verbose=0)
    pred = np.asarray(ops.convert_to_numpy(model(X)))
    assert loss == pytest.approx(float(np.mean((pred - Y) ** 2)), rel=1e-5)


@needs_training
def test_validation_split_uses_the_last_fraction():
    model = linear_model()
    history = model.fit(
        X, Y, batch_size=16, epochs=2, validation_split=0.25, shuffle=False, verbose=0
    )
    assert "val_loss" in history.history
    kernel, bias = model.get_weights()
    held_out = X[48:] @ kernel + bias
    assert history.history["val_loss"][-1] == pytest.approx(
        float(np.mean((held_out - Y[48:]) ** 2)), rel=1e-4
    )


@needs_training
def test_callbacks_see_every_hook_in_order():
    events = []

    class Recorder(keras.callbacks.Callback):
        def on_train_begin(self, logs=None):
            events.append("train_begin")

        def on_epoch_begin(self, epoch, logs=None):
            events.append(f"epoch_begin_{epoch}")

        def on_train_batch_end(self, batch, logs=None):
            events.append(f"batch_{batch}:{isinstance(logs['loss'], float)}")

        def on_epoch_end(self, epoch, logs=None):
            events.append(f"epoch_end_{epoch}")

        def on_train_end(self, logs=None):
            events.append("train_end")

    model = linear_model()
    model.fit(X, Y, batch_size=32, epochs=2, callbacks=[Recorder()], verbose=0)
    assert events == [
        "train_begin",
        "epoch_begin_0",
        "batch_0:True",
        "batch_1:True",
        "epoch_end_0",
        "epoch_begin_1",
        "batch_0:True",
        "batch_1:True",
        "epoch_end_1",
        "train_end",
    ]


@needs_training
def test_stop_training_from_a_callback():
    class StopAfterOne(keras.callbacks.Callback):
        def on_epoch_end(self, epoch, logs=None):
            self.model.stop_training = True

    history = linear_model().fit(X, Y, epochs=5, callbacks=[StopAfterOne()], verbose=0)
    assert len(history.history["loss"]) == 1


@needs_training
def test_callbacks_read_each_epochs_weights_and_metric_state():
    class Record(keras.callbacks.Callback):
        def __init__(self):
            super().__init__()
            self.seen = []

        def on_epoch_end(self, epoch, logs=None):
            tracker = self.model.metrics[0]
            self.seen.append((self.model.get_weights(), float(tracker.result()), logs["loss"]))

    record = Record()
    linear_model().fit(X, Y, batch_size=16, epochs=3, shuffle=False, callbacks=[record], verbose=0)
    for epochs, (weights, tracked, logged) in enumerate(record.seen, start=1):
        reference = linear_model()
        history = reference.fit(X, Y, batch_size=16, epochs=epochs, shuffle=False, verbose=0)
        for got, want in zip(weights, reference.get_weights()):
            np.testing.assert_allclose(got, want, rtol=1e-6)
        assert tracked == pytest.approx(logged, rel=1e-6)
        assert logged == pytest.approx(history.history["loss"][-1], rel=1e-6)


@needs_training
def test_weights_assigned_during_fit_are_copies():
    """A callback assigns a host array mid-fit and then changes the array: the model keeps
    the value as assigned (on jax the assignment lands in the compiled step's state)."""

    class Assign(keras.callbacks.Callback):
        def on_epoch_end(self, epoch, logs=None):
            bias = self.model.layers[-1].bias
            self.value = np.full(bias.shape, 3.0, "float32")
            bias.assign(self.value)
            self.value[...] = -1.0

    callback = Assign()
    model = linear_model(lr=0.0)
    model.fit(X, Y, batch_size=16, epochs=1, callbacks=[callback], verbose=0)
    np.testing.assert_array_equal(model.layers[-1].bias.numpy(), 3.0)


@needs_training
def test_sample_weight_zero_ignores_samples():
    model = linear_model(lr=0.0)
    weights = np.zeros(64, "float32")
    weights[:32] = 1.0
    kernel, bias = model.get_weights() if model.built else (None, None)
    logs = model.evaluate(X, Y, sample_weight=weights, verbose=0, return_dict=True)
    kernel, bias = model.get_weights()
    pred = X[:32] @ kernel + bias
    assert logs["loss"] == pytest.approx(float(np.mean((pred - Y[:32]) ** 2)) * 0.5, rel=1e-5)


@needs_training
def test_train_and_test_on_batch():
    model = linear_model(metrics=["mae"])
    logs = model.train_on_batch(X, Y, return_dict=True)
    assert set(logs) == {"loss", "mae"}
    assert isinstance(model.test_on_batch(X, Y), list)
    assert model.predict_on_batch(X).shape == (64, 1)


@needs_training
def test_multi_output_losses_by_name():
    inputs = keras.Input((4,))
    model = keras.Model(
        inputs, {"a": layers.Dense(1, name="a")(inputs), "b": layers.Dense(2, name="b")(inputs)}
    )
    model.compile(optimizer="sgd", loss={"a": "mse", "b": "mae"}, loss_weights={"a": 1.0, "b": 0.5})
    targets = {"a": Y, "b": np.concatenate([Y, Y], 1)}
    history = model.fit(X, targets, epochs=2, verbose=0)
    assert (
        sorted(history.history) == ["a_loss", "b_loss", "loss"]
        and len(history.history["loss"]) == 2
    )
    # each output's own (unweighted) loss is reported beside the weighted total, as in Keras
    logs = model.evaluate(X, targets, batch_size=len(X), verbose=0, return_dict=True)
    out = model.predict(X, verbose=0)
    mse = float(np.mean((out["a"] - targets["a"]) ** 2))
    mae = float(np.mean(np.abs(out["b"] - targets["b"])))
    assert logs["a_loss"] == pytest.approx(mse, rel=1e-5) and logs["b_loss"] == pytest.approx(
        mae, rel=1e-5
    )
    assert logs["loss"] == pytest.approx(mse + 0.5 * mae, rel=1e-5)


@needs_training
def test_custom_train_step_written_once():
    class Manual(keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = layers.Dense(1)

        def call(self, x):
            return self.dense(x)

        def train_step(self, data):
            x, y = data

            def loss_fn():
                return ops.mean(ops.square(ops.subtract(self(x, training=True), y)))

            loss, grads = keras.value_and_grad(loss_fn, self.trainable_variables)()
            self.optimizer.apply(grads, self.trainable_variables)
            return {"loss": loss}

    keras.utils.set_random_seed(0)
    model = Manual()
    model.compile(optimizer=keras.optimizers.SGD(0.1))
    history = model.fit(X, Y, batch_size=16, epochs=20, verbose=0)
    assert history.history["loss"][-1] < 1e-2


def test_fit_before_compile_is_a_clear_error():
    model = keras.Sequential([keras.Input((4,)), layers.Dense(1)])
    with pytest.raises(RuntimeError, match="compile"):
        model.fit(X, Y, verbose=0)


def test_mismatched_lengths_are_a_clear_error():
    model = keras.Sequential([keras.Input((4,)), layers.Dense(1)])
    model.compile(loss="mse")
    with pytest.raises(ValueError, match="same number of samples"):
        model.evaluate(X, Y[:10], verbose=0)


@pytest.mark.skipif(TRAINS, reason="checks the numpy backend's refusal to train")
def test_numpy_backend_refuses_to_train():
    model = keras.Sequential([keras.Input((4,)), layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    with pytest.raises(NotImplementedError, match="inference-only"):
        model.fit(X, Y, verbose=0)


_RUN = """
import json, numpy as np, tripod as keras
from tripod import layers
keras.utils.set_random_seed(7)
rng = np.random.default_rng(0)
x = rng.standard_normal((128, 6)).astype("float32")
y = (x[:, :1] * 1.5 - x[:, 1:2]).astype("float32")
model = keras.Sequential([keras.Input((6,)), layers.Dense(8, activation="relu"), layers.Dense(1)])
model.compile(optimizer=keras.optimizers.Adam(0.01), loss="mse")
history = model.fit(x, y, batch_size=32, epochs=5, shuffle=False, verbose=0)
print(json.dumps(history.history["loss"]))
"""


@pytest.mark.skipif(
    config.backend() != "jax", reason="one run of the cross-backend check is enough"
)
def test_same_seed_same_losses_on_every_backend():
    losses = {}
    backends = [name for name in installed_backends() if name != "numpy"]
    for backend in backends:
        out = subprocess.run(
            [sys.executable, "-c", _RUN],
            env=accelerator.child_environment(TRIPOD_BACKEND=backend),
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
        assert out.returncode == 0, out.stderr
        losses[backend] = json.loads(out.stdout.strip().splitlines()[-1])
    for backend in backends:
        np.testing.assert_allclose(losses[backend], losses["jax"], rtol=1e-4, err_msg=backend)


def test_distribute_strategy_is_tensorflows_strategy_there_alone():
    """As Keras's tensorflow trainer has it (KerasTuner reads it there): TensorFlow's current
    strategy, or a DataParallel distribution's; the other backends have none."""
    model = linear_model()
    if config.backend() != "tensorflow":
        assert not hasattr(model, "distribute_strategy")
        return
    import tensorflow as tf

    assert model.distribute_strategy is tf.distribute.get_strategy()
    keras.distribution.set_distribution(keras.distribution.DataParallel())
    try:
        strategy = model.distribute_strategy
        assert isinstance(strategy, tf.distribute.Strategy)
        assert strategy is not tf.distribute.get_strategy()  # the distribution's own
        assert strategy.num_replicas_in_sync == len(keras.distribution.list_devices())
    finally:
        keras.distribution.set_distribution(None)


@needs_training
def test_evaluate_lists_values_in_metrics_names_order():
    model = linear_model(metrics=["mae"])
    model.fit(X, Y, epochs=1, verbose=0)
    logs = model.evaluate(X, Y, verbose=0, return_dict=True)
    assert model.metrics_names == ["loss", "mae"]
    assert model.evaluate(X, Y, verbose=0) == pytest.approx([logs["loss"], logs["mae"]])
    assert model.test_on_batch(X, Y) == pytest.approx([logs["loss"], logs["mae"]])


def test_a_compiled_untrained_model_saves_and_loads(tmp_path):
    model = keras.Sequential([keras.Input((4,)), layers.Dense(3)])
    model.compile(optimizer="adam", loss="mse")
    model.save(tmp_path / "m.keras")
    loaded = keras.saving.load_model(tmp_path / "m.keras")
    np.testing.assert_allclose(loaded.predict(X, verbose=0), model.predict(X, verbose=0), rtol=1e-6)
    if TRAINS:  # and it trains from there, its optimizer built on first use
        loaded.fit(X, Y, epochs=1, verbose=0)
        assert int(loaded.optimizer.iterations.numpy()) > 0


@needs_training
def test_repeated_fit_and_predict_change_no_layer_structure():
    # A new structure version drops every memo and makes torch.compile trace the step again.
    model = linear_model()
    model.fit(X, Y, batch_size=16, verbose=0)
    model.predict(X, verbose=0)
    version = tracking._structure.version
    model.fit(X, Y, batch_size=16, verbose=0)
    model.predict(X, verbose=0)
    assert tracking._structure.version == version


def test_jit_compile_reads_as_the_bool_the_backend_runs():
    """ "auto" resolves as Keras resolves it, to what the steps do: XLA on jax; no torch.compile
    and a tf.function without XLA on torch and tensorflow; nothing compiled when eager. Before,
    `model.jit_compile` stayed the string "auto" (libraries branch on it as a bool)."""
    model = linear_model()
    assert model.jit_compile is (config.backend() == "jax")
    assert linear_model(run_eagerly=True).jit_compile is False
    assert linear_model(jit_compile=False).jit_compile is False
    with pytest.raises(ValueError, match="jit_compile must be True, False or 'auto'"):
        linear_model(jit_compile="yes")


@needs_training
def test_a_lambda_loss_compiles_trains_saves_and_loads_only_outside_safe_mode(tmp_path):
    """As in Keras: a lambda loss compiles and trains (before, compile raised serializing it);
    the model saves with the lambda's code, which loads only with safe_mode=False."""
    model = linear_model()
    model.compile(
        optimizer="sgd", loss=lambda y_true, y_pred: ops.mean(ops.abs(y_true - y_pred))
    )  # `ops` loads too
    history = model.fit(X, Y, epochs=2, verbose=0).history["loss"]
    assert history[1] < history[0]
    path = str(tmp_path / "lambda_loss.keras")
    model.save(path)
    with pytest.raises(ValueError, match="Refusing to load Python code"):
        keras.saving.load_model(path)
    assert keras.saving.load_model(path, compile=False).compiled is False
    loaded = keras.saving.load_model(path, safe_mode=False)
    y_pred = loaded.predict(X[:2], verbose=0)
    np.testing.assert_allclose(
        float(loaded.loss(Y[:2], y_pred)), float(np.mean(np.abs(Y[:2] - y_pred))), rtol=1e-5
    )


class _CumulativeByTile(layers.Layer):
    """keras.io's NMT causal mask: a (T, T) mask tiled by the batch size known when it runs."""

    def call(self, x):
        batch, length = ops.shape(x)[0], ops.shape(x)[1]
        mask = ops.tile(ops.expand_dims(ops.tril(ops.ones((length, length))), 0), [batch, 1, 1])
        return ops.einsum("bts,bsd->btd", mask, x)


@needs_training
def test_a_step_tiles_by_the_batch_size_known_when_it_runs():
    """On tensorflow the step traces with an unknown batch size; `ops.tile` took only counts
    known at trace time (`int() argument must be ... not 'NoneType'`)."""
    x = rng.standard_normal((6, 4, 2)).astype("float32")
    model = keras.Sequential([keras.Input((4, 2)), _CumulativeByTile(), layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    model.fit(x, np.zeros((6, 4, 1), "float32"), batch_size=4, epochs=1, verbose=0)
    kernel, bias = (w.numpy() for w in model.layers[1].weights)
    expected = np.cumsum(x, axis=1) @ kernel + bias
    np.testing.assert_allclose(model.predict(x, verbose=0), expected, rtol=1e-5, atol=1e-5)


class _FillsCache(layers.Layer):
    """A KV cache's pattern (KerasHub's `generate`): a loop writes row i of a cache through
    `slice_update` at a position known only when the step runs."""

    def call(self, x):
        def body(i, cache):
            row = ops.slice(x, [0, i, 0], [ops.shape(x)[0], 1, x.shape[2]])
            return ops.slice_update(cache, [0, i, 0], ops.multiply(row, 2.0))

        filled = ops.fori_loop(0, x.shape[1], body, ops.zeros_like(x))
        assert tuple(filled.shape)[1:] == tuple(x.shape)[1:]  # the static shape survives
        return filled


@needs_training
def test_a_compiled_step_updates_a_cache_at_run_time_positions():
    """On tensorflow the update lost the cache's static shape and could not be XLA-compiled."""
    x = rng.standard_normal((3, 4, 2)).astype("float32")
    model = keras.Sequential([keras.Input((4, 2)), _FillsCache()])
    model.compile(jit_compile=config.backend() != "torch")  # XLA; torch.compile is slow here
    np.testing.assert_allclose(model.predict(x, verbose=0), 2 * x, rtol=1e-6)
