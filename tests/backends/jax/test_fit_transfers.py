"""Inside `fit` on jax the epoch loop leaves the device alone: no value comes back to the host
between an epoch's first step and its logs (the loss, metrics and logs stay device arrays), so
the host runs ahead, dispatching the next execution and copying its batches in while the device
computes. Host reads are counted where every jax array's value reaches NumPy (`_value`).
The batches of each execution are sent to the device while the execution before runs."""

import numpy as np
import pytest

import tripod
from tripod.backends import config
from tripod.backends.common import fast_paths

if config.backend() != "jax":
    pytest.skip("counts reads of jax arrays on the host", allow_module_level=True)

import jax.numpy as jnp

#: the methods through which a jax array's value reaches the host
_READS = ("_value", "item", "tolist", "__array__", "__float__", "__int__", "__bool__", "__index__")


@pytest.fixture
def host_reads(monkeypatch):
    """A list of the host reads of jax arrays made inside `Model._run_epoch` (an epoch's loop)."""
    array_type, run_epoch = type(jnp.zeros(())), tripod.Model._run_epoch
    reads, inside = [], []

    def counting(name, original):
        def read(array, *args, **kwargs):
            if inside:
                reads.append(name)
            return original(array, *args, **kwargs)

        return read

    for name in _READS:
        original = getattr(array_type, name)
        if isinstance(original, property):
            monkeypatch.setattr(array_type, name, property(counting(name, original.fget)))
        else:
            monkeypatch.setattr(array_type, name, counting(name, original))

    def counted(self, *args, **kwargs):
        inside.append(True)
        try:
            return run_epoch(self, *args, **kwargs)
        finally:
            inside.pop()

    monkeypatch.setattr(tripod.Model, "_run_epoch", counted)
    return reads


def _fit(steps_per_execution, callbacks=()):
    model = tripod.Sequential([tripod.Input((3,)), tripod.layers.Dense(2)])
    model.compile(
        optimizer="adam", loss="mse", metrics=["mae"], steps_per_execution=steps_per_execution
    )
    x, y = np.ones((64, 3), "float32"), np.zeros((64, 2), "float32")
    return model.fit(
        x, y, batch_size=8, epochs=2, validation_split=0.25, verbose=0, callbacks=list(callbacks)
    )


@pytest.mark.parametrize("steps_per_execution", [1, 4])
def test_the_epoch_loop_reads_nothing_back_from_the_device(host_reads, steps_per_execution):
    history = _fit(steps_per_execution)
    assert set(history.history) == {"loss", "mae", "val_loss", "val_mae"}
    assert history.history["loss"][1] < history.history["loss"][0]
    assert host_reads == []


def test_a_callback_reading_the_logs_is_counted(host_reads):
    """The count is real: with a batch hook, the logs (loss and mae) are read once per
    execution: 6 training batches an epoch in executions of 4 are 2 executions, for 2 epochs."""
    read_loss = tripod.callbacks.LambdaCallback(
        on_train_batch_end=lambda batch, logs: float(logs["loss"])
    )
    _fit(4, [read_loss])
    assert host_reads == ["item"] * (2 * 2 * 2)


def _run_of(batch):
    """What a run event records: the type and shape of the batch's inputs and targets."""
    return ("run", *((type(part).__name__, part.shape) for part in batch[:2]))


@pytest.mark.skipif(not fast_paths.enabled(), reason="tests a fast path: staged_input is off")
def test_each_execution_is_staged_on_the_device_while_the_one_before_runs():
    """Events in order: each execution's batches go to the device (`stage`) once the one before
    is running, and the next epoch's first execution once this epoch's last one runs; the runs
    take device arrays, stacked for the fused ones."""
    model = tripod.Sequential([tripod.Input((3,)), tripod.layers.Dense(2)])
    model.compile(optimizer="sgd", loss="mse", steps_per_execution=2)
    x, y = np.ones((40, 3), "float32"), np.zeros((40, 2), "float32")
    model.fit(x, y, batch_size=8, epochs=1, verbose=0)  # 5 batches: executions of 2, 2, 1
    step, events = model._steps["train"], []
    stage, run_fused, run_single = step.stage, step._run_fused, step._run

    def staging(chunk):
        events.append(f"stage {len(chunk)}")
        return stage(chunk)

    step.stage = staging
    step._run_fused = lambda state, batch: events.append(_run_of(batch)) or run_fused(state, batch)
    step._run = lambda state, batch: events.append(_run_of(batch)) or run_single(state, batch)
    model.fit(x, y, batch_size=8, epochs=2, verbose=0)
    fused = ("run", ("ArrayImpl", (2, 8, 3)), ("ArrayImpl", (2, 8, 2)))
    single = ("run", ("ArrayImpl", (8, 3)), ("ArrayImpl", (8, 2)))
    epoch = ["stage 2", fused, "stage 2", fused, "stage 1", single]
    assert events == epoch + ["stage 2"] + epoch[1:]


def _trained_weights(early):
    """The weights after 3 shuffled epochs with a validation pass, the next epoch begun early
    (`Feed`) or not."""
    tripod.utils.set_random_seed(3)
    model = tripod.Sequential([tripod.Input((3,)), tripod.layers.Dense(2)])
    model.compile(optimizer="sgd", loss="mse", steps_per_execution=2)
    x = np.random.default_rng(0).standard_normal((40, 3)).astype("float32")
    y = x[:, :2] * 2.0
    adapter = tripod.training.data_adapters.array_adapter.ArrayDataAdapter
    if not early:
        adapter.epoch_hooks_reshuffle = False
    try:
        model.fit(x, y, batch_size=8, epochs=3, validation_split=0.2, verbose=0)
    finally:
        adapter.epoch_hooks_reshuffle = True
    return [np.asarray(w) for w in model.get_weights()]


def test_beginning_the_next_epoch_early_keeps_the_batches_and_their_order():
    """Staging the next epoch early draws the same shuffles in the same order: the same weights."""
    for early, late in zip(_trained_weights(True), _trained_weights(False)):
        np.testing.assert_array_equal(early, late)
