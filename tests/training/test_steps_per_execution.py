"""`steps_per_execution`: N batches per execution, fused into one compiled call on jax and
tensorflow (a loop over single steps elsewhere), give the weights, metrics and logs that N single
steps give; batch hooks run once per execution."""

import numpy as np
import pytest

import tripod as keras
from tripod import layers
from tripod.backends import config
from tripod.backends.common import fast_paths
from tripod.distribution import DataParallel, list_devices, set_distribution

BACKEND = config.backend()
# compiled steps that run a chunk in one call (a fast path: `fused_steps`)
FUSES = BACKEND in ("jax", "tensorflow") and fast_paths.enabled()
needs_training = pytest.mark.skipif(
    BACKEND == "numpy", reason="the numpy backend is inference-only"
)
needs_fusing = pytest.mark.skipif(
    not FUSES, reason="only jax and tensorflow steps fuse, with the fast paths on"
)

rng = np.random.default_rng(0)
X = rng.standard_normal((50, 4)).astype("float32")  # batches of 8: six whole, then one of 2
Y = (X @ rng.standard_normal((4, 1)) + 0.5).astype("float32")
BATCHES = 7
RTOL = 1e-6  # seen: equal to the last bit on every backend


class Counting(keras.Sequential):
    """Counts how often its steps' Python runs: once per trace where the step is compiled."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.runs = {"train": 0, "test": 0}

    def train_step(self, data):
        self.runs["train"] += 1
        return super().train_step(data)

    def test_step(self, data):
        self.runs["test"] += 1
        return super().test_step(data)


class Recorder(keras.callbacks.Callback):
    """Records each batch hook's (name, index, logs as floats)."""

    def __init__(self):
        super().__init__()
        self.calls = []

    def _record(self, name, batch, logs):
        self.calls.append((name, batch, {k: float(v) for k, v in (logs or {}).items()}))

    def on_train_batch_begin(self, batch, logs=None):
        self._record("train_begin", batch, logs)

    def on_train_batch_end(self, batch, logs=None):
        self._record("train_end", batch, logs)

    def on_test_batch_begin(self, batch, logs=None):
        self._record("test_begin", batch, logs)

    def on_test_batch_end(self, batch, logs=None):
        self._record("test_end", batch, logs)

    def indices(self, name):
        return [c[1] for c in self.calls if c[0] == name]

    def logs_at(self, name, batch):
        return next(c[2] for c in self.calls if c[0] == name and c[1] == batch)


def model(per_call, cls=keras.Sequential, **compile_kwargs):
    """Dense, BatchNormalization (moving statistics: non-trainable state), Dense; Adam, MSE, MAE."""
    keras.utils.set_random_seed(1)
    net = cls(
        [
            keras.Input((4,)),
            layers.Dense(8, activation="relu"),
            layers.BatchNormalization(),
            layers.Dense(1),
        ]
    )
    net.compile(
        optimizer=keras.optimizers.Adam(0.01),
        loss="mse",
        metrics=["mae"],
        steps_per_execution=per_call,
        **compile_kwargs,
    )
    return net


def fit(net, epochs=2, **kwargs):
    return net.fit(X, Y, batch_size=8, epochs=epochs, verbose=0, shuffle=False, **kwargs).history


def assert_same_training(fused, single, fused_history, single_history):
    for a, b in zip(fused.get_weights(), single.get_weights()):
        np.testing.assert_allclose(a, b, rtol=RTOL, atol=1e-7)
    assert fused_history.keys() == single_history.keys()
    for name in single_history:
        np.testing.assert_allclose(fused_history[name], single_history[name], rtol=RTOL)
    assert int(fused.optimizer.iterations.numpy()) == int(single.optimizer.iterations.numpy())


@needs_training
@pytest.mark.parametrize("per_call", [3, 7])
def test_fused_steps_give_what_single_steps_give(per_call):
    # 3: two fused chunks, then a short chunk (the short last batch); 7: the whole epoch is one
    # chunk: its six whole batches fuse, the short one runs alone.
    single, fused = model(1), model(per_call)
    single_history = fit(single, validation_data=(X[:24], Y[:24]))
    fused_history = fit(fused, validation_data=(X[:24], Y[:24]))
    assert fused._steps["train"].fuses == FUSES
    assert_same_training(fused, single, fused_history, single_history)
    single_logs = single.evaluate(X, Y, batch_size=8, verbose=0, return_dict=True)
    fused_logs = fused.evaluate(X, Y, batch_size=8, verbose=0, return_dict=True)
    assert fused_logs == pytest.approx(single_logs, rel=RTOL)


@needs_training
@pytest.mark.skipif(
    BACKEND != "tensorflow", reason="XLA for a tf.function step (jax always compiles with XLA)"
)
def test_fused_steps_under_xla_give_what_single_steps_give():
    single, fused = model(1, jit_compile=True), model(3, jit_compile=True)
    assert_same_training(fused, single, fit(fused), fit(single))


@needs_training
@pytest.mark.parametrize("per_call, runs", [(3, [3, 3]), (4, [4, 2]), (7, [6])])
def test_runs_of_alike_batches_fuse_and_the_short_batch_runs_alone(per_call, runs):
    net = model(per_call)
    fit(net, epochs=1)  # makes the step
    step, fused = net._steps["train"], []
    if FUSES and getattr(step, "stages", False):  # staged ahead: runs come stacked
        run_stacked = step.run_stacked
        step.run_stacked = lambda batch: fused.append(len(batch[0])) or run_stacked(batch)
    elif FUSES:
        run_many = step.run_many
        step.run_many = lambda batches: fused.append(len(batches)) or run_many(batches)
    fit(net, epochs=2)
    assert fused == (runs * 2 if FUSES else [])
    assert int(net.optimizer.iterations.numpy()) == 3 * BATCHES


@needs_training
@pytest.mark.parametrize("mode", ["train", "test"])
def test_batch_hooks_run_once_per_execution_with_the_logs_of_its_last_step(mode):
    single, fused = model(1), model(3)
    recorders = {1: Recorder(), 3: Recorder()}
    for per_call, net in ((1, single), (3, fused)):
        if mode == "train":
            fit(net, epochs=1, callbacks=[recorders[per_call]])
        else:
            net.evaluate(X, Y, batch_size=8, verbose=0, callbacks=[recorders[per_call]])
    recorder = recorders[3]
    assert recorder.indices(f"{mode}_begin") == [0, 3, 6]
    assert recorder.indices(f"{mode}_end") == [2, 5, 6]  # the short last chunk ends too
    for batch in (2, 5, 6):
        assert recorder.logs_at(f"{mode}_end", batch) == pytest.approx(
            recorders[1].logs_at(f"{mode}_end", batch), rel=RTOL
        )


@needs_training
def test_stop_training_in_a_hook_stops_after_the_execution():
    class StopAtFirstEnd(keras.callbacks.Callback):
        def on_train_batch_end(self, batch, logs=None):
            self.model.stop_training = True

    net = model(3)
    history = fit(net, callbacks=[StopAtFirstEnd()])
    assert len(history["loss"]) == 1
    assert int(net.optimizer.iterations.numpy()) == 3  # the whole first chunk, nothing more


@needs_fusing
def test_fused_functions_are_traced_once_over_epochs():
    net = model(3, cls=Counting)
    fit(net, epochs=1, validation_data=(X, Y))
    traced = dict(net.runs)
    fit(net, validation_data=(X, Y))
    net.evaluate(X, Y, batch_size=8, verbose=0)
    assert net.runs == traced
    # jax: the scan's body and the short batch's step; tensorflow also traces the single step
    # once for the whole batch shape (its outputs give the loop its dtypes).
    assert traced["train"] == (2 if BACKEND == "jax" else 3)


@needs_fusing
def test_a_fused_predict_step_joins_every_steps_outputs_in_order():
    net = model(3)
    fit(net, epochs=1)
    expected = net.predict(X[:24], batch_size=8, verbose=0)
    step = net._prepared_step(X[:8], "predict")
    assert step.fuses
    joined = step.run_many([X[:8], X[8:16], X[16:24]])
    np.testing.assert_allclose(keras.ops.convert_to_numpy(joined), expected, rtol=RTOL, atol=1e-7)


@needs_training
def test_run_eagerly_runs_every_batch_alone_with_the_same_results():
    single, eager = model(1), model(2, run_eagerly=True)
    # Two whole batches, one epoch: eager jax compiles each op for each shape it meets.
    single_history = single.fit(X[:16], Y[:16], batch_size=8, verbose=0, shuffle=False).history
    eager_history = eager.fit(X[:16], Y[:16], batch_size=8, verbose=0, shuffle=False).history
    assert not eager._steps["train"].fuses
    for a, b in zip(eager.get_weights(), single.get_weights()):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)  # eager and compiled kernels
    np.testing.assert_allclose(eager_history["loss"], single_history["loss"], rtol=1e-5)


@needs_training
def test_a_distributed_step_runs_every_batch_alone_with_the_same_results():
    single = model(1)
    single_history = fit(single)
    set_distribution(DataParallel(devices=list_devices()[:1]))  # where `single` ran
    try:
        distributed = model(3)
        distributed_history = fit(distributed)
        assert not getattr(distributed._steps["train"], "fuses", False)
    finally:
        set_distribution(None)
    assert_same_training(distributed, single, distributed_history, single_history)


@needs_fusing
@pytest.mark.skipif(BACKEND != "jax", reason="Keras's JAX state steps run on jax only")
def test_jax_state_steps_fuse_with_the_same_results():
    from tests.backends.custom_steps import build, regression_data
    from tests.backends.jax.test_custom_train_step import GuideModel

    x, y = regression_data(samples=40)
    runs = {}
    for per_call in (1, 2):
        keras.utils.set_random_seed(1)
        net = build(GuideModel)
        net.compile(
            optimizer=keras.optimizers.Adam(0.05),
            loss="mse",
            metrics=["mae"],
            steps_per_execution=per_call,
        )
        history = net.fit(x, y, batch_size=8, epochs=2, verbose=0, shuffle=False).history
        logs = net.evaluate(x, y, batch_size=8, verbose=0, return_dict=True)
        runs[per_call] = (net, history, logs)
    (single, single_history, single_logs), (fused, fused_history, fused_logs) = runs[1], runs[2]
    assert fused._steps["train"].fuses and fused._steps["test"].fuses
    assert_same_training(fused, single, fused_history, single_history)
    assert fused_logs == pytest.approx(single_logs, rel=RTOL)
