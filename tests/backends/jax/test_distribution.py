"""The jax engine of `tripod.distribution` (`tripod/backends/jax/distribution.py`).

Each case runs in fresh processes (`python -m tests.backends.jax.test_distribution CASE ...`),
with 2 CPU devices in one process (TRIPOD_NUM_CPU_DEVICES=2) or 2 processes of one device
joined by `initialize_processes`, so that the pytest process never sets up odd devices. Each
worker drives the engine as the trainer does (place, compile_step, step(rows), sync) and compares
against the same model trained on one device on the whole global batch.
"""

import os
import socket
import subprocess
import sys
import time
from types import SimpleNamespace

import numpy as np
import pytest

import tripod as keras
from tripod.backends import active, config

if config.backend() != "jax":
    pytest.skip("the jax distribution engine", allow_module_level=True)

from tests.backends.jax.test_custom_train_step import GuideModel

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
GLOBAL_BATCH = 8
STEPS = 3


# -- the workers (run in subprocesses) ------------------------------------------------------


def _distribution(shape, axis_names, batch_dim_name="batch"):
    """A stand-in for a `tripod.distribution` distribution: only what the engine reads."""
    ops = active()
    devices = np.array(ops.list_devices(), dtype=object).reshape(shape)
    mesh = SimpleNamespace(shape=shape, axis_names=axis_names, devices=devices)
    return SimpleNamespace(
        device_mesh=mesh, batch_dim_name=batch_dim_name, model_parallel=len(shape) > 1
    )


def _model(momentum=0.0):
    """A small MLP compiled with SGD and an MAE metric; the same initial weights every time."""
    keras.utils.set_random_seed(0)
    model = keras.Sequential(
        [
            keras.Input((3,)),
            keras.layers.Dense(4, activation="tanh", name="d1"),
            keras.layers.Dense(1, name="d2"),
        ],
        name="mlp",
    )
    model.compile(keras.optimizers.SGD(0.1, momentum=momentum), "mse", metrics=["mae"])
    return model


def _batches():
    rng = np.random.default_rng(1)
    for _ in range(STEPS):
        yield (
            rng.normal(size=(GLOBAL_BATCH, 3)).astype("float32"),
            rng.normal(size=(GLOBAL_BATCH, 1)).astype("float32"),
        )


def _state(model, mode):
    groups = dict(
        zip(["trainable", "non_trainable", "optimizer", "metrics"], model._state_groups("train"))
    )
    if mode != "train":
        groups["optimizer"] = []
    if mode == "predict":
        groups["metrics"] = []
    return groups


def _engine_step(model, engine, mode, layouts, batch, eager=False):
    """The trainer's seam: prepare the model, place its state, compile the step."""
    model._prepare(batch, mode)
    state = _state(model, mode)
    engine.place([(v, layouts.get(v.path)) for group in state.values() for v in group])
    fn = {"train": model.train_step, "test": model.test_step, "predict": model.predict_step}[mode]
    results = None if mode == "predict" else model.get_metrics_result
    return engine.compile_step(fn, state, mode, "auto", eager, results)


def _reference_step(model, mode, batch):
    model._prepare(batch, mode)
    return model._step(mode)


def _rows(batch, engine):
    """This process's rows of a global batch, as the engine says."""
    start, stop = engine.process_rows(
        len(batch[0]), active().process_index(), active().process_count()
    )
    return tuple(part[start:stop] for part in batch)


def _floats(logs):
    return {k: float(np.asarray(v)) for k, v in logs.items()}


def _train_and_compare(distribution, layouts, atol, momentum=0.0, eager=False):
    """STEPS training steps, a metric reset and one more step, an evaluation and a prediction
    (jitted, or run eagerly): the logs, weights and predictions equal a one-device run on the
    global batches."""
    ops = active()
    engine = ops.distribution_engine(distribution)
    model, reference = _model(momentum), _model(momentum)
    batches = list(_batches())
    step = _engine_step(model, engine, "train", layouts, batches[0], eager)
    ref_step = _reference_step(reference, "train", batches[0])
    for batch in batches + batches[:1]:
        if batch is batches[0] and step.dirty:  # the repeat: after a metric reset, as in fit
            model.reset_metrics()
            reference.reset_metrics()
        logs, ref_logs = _floats(step(_rows(batch, engine))), _floats(ref_step(batch))
        assert logs.keys() == ref_logs.keys()
        for name in logs:
            np.testing.assert_allclose(logs[name], ref_logs[name], atol=atol, err_msg=name)
    step.sync()
    for v, ref in zip(
        model.weights + model.optimizer.variables, reference.weights + reference.optimizer.variables
    ):
        np.testing.assert_allclose(v.numpy(), ref.numpy(), atol=atol, err_msg=v.path)
    test = _engine_step(model, engine, "test", layouts, batches[1], eager)
    model.reset_metrics()
    reference.reset_metrics()
    logs = _floats(test(_rows(batches[1], engine)))
    ref_logs = _floats(_reference_step(reference, "test", batches[1])(batches[1]))
    for name in logs:
        np.testing.assert_allclose(logs[name], ref_logs[name], atol=atol, err_msg=name)
    predict = _engine_step(model, engine, "predict", layouts, batches[2], eager)
    outputs = np.asarray(predict(_rows(batches[2], engine)))
    assert outputs.shape == (GLOBAL_BATCH, 1)  # the whole global batch, in every process
    np.testing.assert_allclose(outputs, reference.predict_on_batch(batches[2][0]), atol=atol)
    return model, engine


def data_parallel(eager=False):
    """DataParallel over every device: each process feeds its rows of the global batch."""
    ops = active()
    _, engine = _train_and_compare(
        _distribution((len(ops.list_devices()),), ("batch",)), {}, 1e-6, eager=eager
    )
    share = GLOBAL_BATCH // ops.process_count()
    assert engine.process_rows(GLOBAL_BATCH, ops.process_index(), ops.process_count()) == (
        ops.process_index() * share,
        (ops.process_index() + 1) * share,
    )


def data_parallel_eager():
    """DataParallel with the steps run eagerly (`run_eagerly=True`)."""
    data_parallel(eager=True)


MODEL_LAYOUTS = {
    "mlp/d1/kernel": (None, "model"),
    "mlp/d1/bias": ("model",),
    "sgd/mlp_d1_kernel_momentum": (None, "model"),
    "sgd/mlp_d1_bias_momentum": ("model",),
}


def model_parallel():
    """ModelParallel on a (1, 2) mesh: d1's kernel, bias and momentum split over "model" (each
    device holds half of its units); the batch axis has one slot: every process feeds all rows."""
    layouts = {path: SimpleNamespace(axes=axes) for path, axes in MODEL_LAYOUTS.items()}
    model, engine = _train_and_compare(
        _distribution((1, 2), ("batch", "model")), layouts, 1e-5, 0.9
    )
    assert engine.process_rows(GLOBAL_BATCH, 0, 1) == (0, GLOBAL_BATCH)
    kernel = model.layers[0].kernel
    for shard in kernel.value.addressable_shards:
        assert shard.data.shape == (3, 2)
    # A whole value assigned (load_weights) keeps the split; numpy() gathers it back.
    new = np.arange(12, dtype="float32").reshape(3, 4)
    kernel.assign(new)
    assert kernel.value.sharding == engine.sharding(layouts["mlp/d1/kernel"])
    assert {shard.data.shape for shard in kernel.value.addressable_shards} == {(3, 2)}
    np.testing.assert_array_equal(kernel.numpy(), new)


def engine_helpers():
    """distribute_tensor splits a host value, agreed_seed is the same in every process."""
    ops = active()
    engine = ops.distribution_engine(_distribution((len(ops.list_devices()),), ("batch",)))
    value = np.arange(8, dtype="float32").reshape(4, 2)
    split = engine.distribute_tensor(value, SimpleNamespace(axes=("batch", None)))
    assert {shard.data.shape for shard in split.addressable_shards} == {(2, 2)}
    seeds = engine.agreed_seed(), engine.agreed_seed()
    print("seeds", *seeds, flush=True)


def state_step():
    """Keras's JAX `train_step(self, state, data)` runs under the distribution too."""
    ops = active()
    engine = ops.distribution_engine(_distribution((len(ops.list_devices()),), ("batch",)))
    models = []
    for _ in range(2):
        keras.utils.set_random_seed(0)
        inputs = keras.Input((3,))
        model = GuideModel(inputs, keras.layers.Dense(1)(inputs))
        model.compile(keras.optimizers.SGD(0.1), "mse")
        models.append(model)
    model, reference = models
    batches = list(_batches())
    model._prepare(batches[0], "train")
    groups = model._state_groups("train")
    engine.place([(v, None) for group in groups for v in group])
    step = engine.compile_state_step(model.train_step, groups, "train", "auto", False)
    ref_step = _reference_step(reference, "train", batches[0])
    for batch in batches:
        np.testing.assert_allclose(
            float(np.asarray(step(_rows(batch, engine))["loss"])),
            float(np.asarray(ref_step(batch)["loss"])),
            atol=1e-6,
        )
    step.sync()
    for v, ref in zip(model.weights, reference.weights):
        np.testing.assert_allclose(v.numpy(), ref.numpy(), atol=1e-6)


def dead_peer():
    """Process 1 dies after a step; process 0 keeps stepping and must fail, not hang."""
    ops = active()
    engine = ops.distribution_engine(_distribution((2,), ("batch",)))
    model = _model()
    batch = next(_batches())
    step = _engine_step(model, engine, "train", {}, batch)
    step(_rows(batch, engine))
    if ops.process_index() == 1:
        os._exit(3)
    while True:
        _floats(step(_rows(batch, engine)))


def unreachable():
    """Joining a run whose coordinator never answers is a clear error within the timeout."""
    port = _free_port()
    try:
        active().initialize_processes([f"127.0.0.1:{port}"], 2, 1)
    except RuntimeError as error:
        print("error:", error, flush=True)
        return
    raise AssertionError("initialize_processes joined a run without a coordinator")


CASES = {
    f.__name__: f
    for f in (
        data_parallel,
        data_parallel_eager,
        model_parallel,
        engine_helpers,
        state_step,
        dead_peer,
        unreachable,
    )
}


def _worker(case, process_id, num_processes, port):
    if num_processes > 1:
        active().initialize_processes([f"127.0.0.1:{port}"], num_processes, process_id)
    CASES[case]()
    print("done", case, flush=True)


# -- the tests --------------------------------------------------------------------------------


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _launch(case, processes=1, devices=1, timeout=120, **env):
    """Run worker `case` in `processes` fresh processes of `devices` CPU devices each; their
    (return code, output) pairs. Every process is killed if the timeout passes."""
    env = {
        **os.environ,
        "TRIPOD_BACKEND": "jax",
        "JAX_PLATFORMS": "cpu",
        "TRIPOD_NUM_CPU_DEVICES": str(devices),
        "PYTHONPATH": ROOT,
        **env,
    }
    env.pop("JAX_NUM_CPU_DEVICES", None)
    port = str(_free_port())
    output = {"stdout": subprocess.PIPE, "stderr": subprocess.STDOUT, "text": True}
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", __name__, case, str(i), str(processes), port],
            cwd=ROOT,
            env=env,
            **output,
        )
        for i in range(processes)
    ]
    deadline = time.monotonic() + timeout
    try:
        outputs = [p.communicate(timeout=max(deadline - time.monotonic(), 1))[0] for p in procs]
        return [(p.returncode, output) for p, output in zip(procs, outputs)]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()


def _assert_done(results, case):
    for code, output in results:
        assert code == 0 and f"done {case}" in output, output[-3000:]


SETTINGS = {
    "2 devices": {"processes": 1, "devices": 2},
    "2 processes": {"processes": 2, "devices": 1},
}


@pytest.mark.multi_device
@pytest.mark.parametrize("setting", sorted(SETTINGS))
@pytest.mark.parametrize("case", ["data_parallel", "model_parallel"])
def test_distributed_training_equals_one_device(case, setting):
    _assert_done(_launch(case, **SETTINGS[setting]), case)


@pytest.mark.multi_device
def test_eager_steps_over_two_processes():
    _assert_done(_launch("data_parallel_eager", processes=2), "data_parallel_eager")


@pytest.mark.multi_device
def test_distribute_tensor_and_agreed_seed_over_two_processes():
    results = _launch("engine_helpers", processes=2)
    _assert_done(results, "engine_helpers")
    seeds = [
        next(line for line in out.splitlines() if line.startswith("seeds")) for _, out in results
    ]
    assert seeds[0] == seeds[1]


@pytest.mark.multi_device
def test_state_step_under_data_parallel():
    _assert_done(_launch("state_step", devices=2), "state_step")


@pytest.mark.multi_device
def test_a_dead_peer_fails_the_run_within_the_timeout():
    start = time.monotonic()
    results = _launch("dead_peer", processes=2, timeout=90, TRIPOD_DISTRIBUTION_TIMEOUT="10")
    assert results[1][0] == 3
    assert results[0][0] not in (0, None), results[0][1][-3000:]
    assert time.monotonic() - start < 60


def test_an_unreachable_coordinator_is_a_clear_error():
    start = time.monotonic()
    [(code, output)] = _launch("unreachable", timeout=60, TRIPOD_DISTRIBUTION_TIMEOUT="3")
    assert code == 0 and "could not reach the coordinator at 127.0.0.1:" in output, output[-3000:]
    assert time.monotonic() - start < 30


def test_list_devices_and_one_process():
    ops = active()
    cpus = ops.list_devices("CPU")
    assert cpus == [f"cpu:{i}" for i in range(len(cpus))] and cpus
    assert ops.list_devices("no_such_platform") == []
    assert (ops.process_count(), ops.process_index()) == (1, 0)


if __name__ == "__main__":
    _worker(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4])
