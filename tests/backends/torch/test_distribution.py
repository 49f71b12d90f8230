"""The torch distribution engine: process hooks, and DDP / DTensor / FSDP2 runs over 2 gloo
processes.

Multi-process checks run `distribution_worker.py` in 2 subprocesses (free localhost port, under
a timeout); each drives the engine as the trainer does and compares against a one-device model
trained on the global batch (see the worker's scenarios).
"""

import importlib
import os
import socket
import subprocess
import sys
import time
from types import SimpleNamespace

import numpy as np
import pytest

import tripod
from tripod.backends import active, config

pytestmark = pytest.mark.skipif(config.backend() != "torch", reason="the torch distribution engine")

ops = active()
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
ENV = {
    **os.environ,
    "TRIPOD_BACKEND": "torch",
    "OMP_NUM_THREADS": "1",
    "TRIPOD_DISTRIBUTION_TIMEOUT": "30",
}


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _launch(scenarios, world=2, timeout=120):
    """Run the worker's `scenarios` in `world` processes; their (return code, output) each."""
    port = _free_port()
    command = [sys.executable, "-m", "tests.backends.torch.distribution_worker", scenarios]
    pipes = {"stdout": subprocess.PIPE, "stderr": subprocess.STDOUT, "text": True}
    procs = [
        subprocess.Popen([*command, str(rank), str(world), str(port)], env=ENV, cwd=ROOT, **pipes)
        for rank in range(world)
    ]
    results = []
    try:
        for proc in procs:
            out, _ = proc.communicate(timeout=timeout)
            results.append((proc.returncode, out))
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.communicate()
    return results


def _mesh(shape, names, batch, layout_map=None):
    devices = np.array([f"cpu:{i}" for i in range(int(np.prod(shape)))], dtype=object).reshape(
        shape
    )
    mesh = SimpleNamespace(shape=shape, axis_names=names, devices=devices)
    return SimpleNamespace(
        device_mesh=mesh,
        batch_dim_name=batch,
        model_parallel=layout_map is not None,
        layout_map=layout_map,
    )


def test_one_process_without_a_group():
    assert (ops.process_count(), ops.process_index()) == (1, 0)
    assert ops.list_devices() == ["cpu:0"] and ops.list_devices("cpu") == ["cpu:0"]
    assert ops.list_devices("tpu") == []


def test_a_one_device_mesh_runs_the_ordinary_step():
    engine = ops.distribution_engine(_mesh((1,), ("batch",), "batch"))
    tripod.utils.set_random_seed(0)
    model = tripod.Sequential([tripod.Input((3,)), tripod.layers.Dense(2)])
    model.compile(optimizer="sgd", loss="mse")
    x, y = np.ones((4, 3), "float32"), np.zeros((4, 2), "float32")
    model._prepare((x, y, None), "train")
    variables = model._state_groups("train")
    engine.place([(v, None) for group in variables for v in group])
    state = dict(zip(("trainable", "non_trainable", "optimizer", "metrics"), variables))
    step = engine.compile_step(
        model.train_step, state, "train", "auto", False, model.get_metrics_result
    )
    expected = np.mean((x @ model.layers[0].kernel.numpy() + model.layers[0].bias.numpy()) ** 2)
    assert np.isclose(float(step((x, y, None))["loss"]), expected, atol=1e-6)
    assert float(np.asarray(engine.distribute_tensor(np.ones(2), None)).sum()) == 2.0


def test_a_larger_mesh_needs_a_multi_process_run():
    with pytest.raises(RuntimeError, match="one device per process.*torchrun --nproc-per-node=2"):
        ops.distribution_engine(_mesh((2,), ("batch",), "batch"))


@pytest.fixture
def fsdp():
    """The engine's FSDP2 part, imported as the engine imports it (only when needed)."""
    return importlib.import_module("tripod.backends.torch.fsdp")


@pytest.mark.parametrize(
    "shape, names, axes, expected",
    [
        ((2,), ("batch",), [("batch", None), (None, None)], True),
        ((2,), ("batch",), [(None, "batch"), ("batch",)], True),
        ((2, 1), ("batch", "model"), [("batch", None)], True),
        ((2,), ("batch",), [(None, None)], False),  # nothing split
        ((2, 1), ("batch", "model"), [("batch", "model")], False),  # split over another axis too
        ((2, 1), ("batch", "model"), [("batch", None), (None, "model")], False),
        ((1, 2), ("batch", "model"), [("batch", None)], False),  # the batch axis lacks processes
    ],
)
def test_fsdp_runs_layouts_that_split_over_the_batch_axis_alone(fsdp, shape, names, axes, expected):
    layouts = {f"v{i}": SimpleNamespace(axes=a) for i, a in enumerate(axes)}
    ranks = np.arange(int(np.prod(shape))).reshape(shape)
    assert fsdp.fits(_mesh(shape, names, "batch", layouts), ranks) is expected


def test_a_bad_timeout_is_named(monkeypatch):
    monkeypatch.setenv("TRIPOD_DISTRIBUTION_TIMEOUT", "soon")
    with pytest.raises(ValueError, match="TRIPOD_DISTRIBUTION_TIMEOUT.*'soon'"):
        ops.initialize_processes(["127.0.0.1:1"], 2, 1)


def test_an_unreachable_coordinator_fails_within_the_timeout():
    address = f"127.0.0.1:{_free_port()}"  # nobody listens there
    code = f"from tripod.backends import active; active().initialize_processes([{address!r}], 2, 1)"
    env = {**ENV, "TRIPOD_DISTRIBUTION_TIMEOUT": "2"}
    start = time.monotonic()
    out = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert out.returncode != 0 and time.monotonic() - start < 30
    assert "could not join the run through the coordinator" in out.stderr


@pytest.mark.multi_device
def test_two_processes_match_one_device():
    # DataParallel (DDP): 3 SGD steps, evaluation and prediction as one device on the global
    # batch (1e-6); ModelParallel (a Dense kernel sharded on its output dimension, DTensor): the
    # same within 1e-5, each process holding half.
    _check_scenarios("data_parallel,batch_norm,model_parallel")


@pytest.mark.multi_device
def test_fully_sharded_data_parallel_matches_one_device():
    # ModelParallel splitting kernels over the batch axis alone runs as FSDP2: each process holds
    # half the rows (or columns); 3 SGD (or Adam) steps, evaluation and prediction as one device
    # (1e-5); a second model gets its own module; a split moving mean is a clear error.
    _check_scenarios(
        "sharded_data_parallel,fully_sharded_adam,two_fully_sharded_models,fully_sharded_statistics"
    )


def _check_scenarios(scenarios):
    """Every scenario passed in both processes, whose printed logs and seeds are equal."""
    results = _launch(scenarios)
    for rank, (code, out) in enumerate(results):
        assert code == 0, f"process {rank}:\n{out[-4000:]}"
        assert all(f"OK {name}" in out for name in scenarios.split(","))
    logs = [
        [line for line in out.splitlines() if line.startswith(("LOGS", "seeds"))]
        for _, out in results
    ]
    assert logs[0] == logs[1] and len(logs[0]) == 2  # global logs, agreed seeds: equal everywhere


@pytest.mark.multi_device
def test_a_dead_peer_fails_the_others_clearly():
    (code, out), (dead_code, _) = _launch("dead_peer")
    assert (code, dead_code) == (0, 0), out[-4000:]
    line = next(line for line in out.splitlines() if line.startswith("FAILED after"))
    assert float(line.split()[2].rstrip("s:")) < 30
    assert "another process of the run died or stopped responding" in line
