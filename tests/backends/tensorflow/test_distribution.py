"""The tensorflow engine of `tripod.distribution`: tf.distribute data parallelism.

Runs on several devices or processes happen in subprocesses (this file is also their script):
two logical CPUs in one process (MirroredStrategy), two worker processes
(MultiWorkerMirroredStrategy), a worker dying mid-run, and workers left alone at the start.
"""

import json
import os
import socket
import subprocess
import sys
import time
import types

import numpy as np
import pytest

from tripod.backends import active, config

pytestmark = pytest.mark.skipif(config.backend() != "tensorflow", reason="tensorflow's engine")

ops = active()
HERE = os.path.abspath(__file__)
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(HERE))))
GROUPS = {
    "train": ("trainable", "non_trainable", "optimizer", "metrics"),
    "test": ("trainable", "non_trainable", "metrics"),
    "predict": ("trainable", "non_trainable"),
}


def _distribution(device_count, model_parallel=False):
    """A stand-in for a `tripod.distribution` distribution: what an engine reads of one."""
    devices = np.array([f"cpu:{i}" for i in range(device_count)], dtype=object)
    mesh = types.SimpleNamespace(shape=(device_count,), axis_names=("batch",), devices=devices)
    return types.SimpleNamespace(
        device_mesh=mesh, batch_dim_name="batch", model_parallel=model_parallel
    )


# -- in this process ---------------------------------------------------------------------------
def test_model_parallel_is_refused_naming_the_backends_that_have_it():
    with pytest.raises(NotImplementedError, match="jax and torch"):
        ops.distribution_engine(_distribution(2, model_parallel=True))


def test_one_process_before_initialize():
    assert ops.process_count() == 1 and ops.process_index() == 0
    assert ops.list_devices("cpu")[0] == "cpu:0"
    assert ops.list_devices("tpu") == []


# -- several devices and processes, in subprocesses ------------------------------------------------
def _free_ports(count):
    sockets = [socket.socket() for _ in range(count)]
    for s in sockets:
        s.bind(("localhost", 0))
    ports = [s.getsockname()[1] for s in sockets]
    for s in sockets:
        s.close()
    return ",".join(map(str, ports))


def _start(args, **env):
    environment = {**os.environ, "TRIPOD_BACKEND": "tensorflow", **env}
    return subprocess.Popen(
        [sys.executable, HERE, *args],
        cwd=ROOT,
        env=environment,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def _finish(process, timeout=120):
    """(return code, the JSON result line or None, stderr) of a started subprocess."""
    try:
        out, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        out, err = process.communicate()
        pytest.fail(f"the subprocess hung:\n{err[-3000:]}")
    lines = [line for line in out.splitlines() if line.startswith("{")]
    return process.returncode, (json.loads(lines[-1]) if lines else None), err


def _check(result):
    code, report, err = result
    assert code == 0 and report is not None, err[-3000:]
    # three SGD steps on the global batch, as one device takes them
    np.testing.assert_allclose(report["losses"], report["reference_losses"], atol=1e-6)
    assert report["weights_differ_by"] <= 1e-6
    assert report["evaluation"] == pytest.approx(report["reference_evaluation"], abs=1e-6)
    assert report["predictions_differ_by"] <= 1e-5 and report["predicted_rows"] == 8
    assert report["iterations"] == 3
    assert report["copies"] == report["local_devices"]


@pytest.mark.multi_device
def test_two_devices_in_one_process_train_as_one_device():
    _check(_finish(_start(["worker", "-"], TRIPOD_NUM_CPU_DEVICES="2")))


@pytest.mark.multi_device
def test_two_worker_processes_train_as_one_device():
    ports = _free_ports(2)
    workers = [_start(["worker", ports, str(i)]) for i in range(2)]
    for worker in workers:
        _check(_finish(worker))


@pytest.mark.multi_device
def test_a_dead_worker_fails_the_others_clearly():
    ports = _free_ports(2)
    workers = [_start(["dies", ports, str(i)], TRIPOD_DISTRIBUTION_TIMEOUT="30") for i in range(2)]
    start = time.monotonic()
    code, _, err = _finish(workers[0], timeout=90)
    assert code != 0 and "a worker of the run stopped" in err, err[-3000:]
    assert time.monotonic() - start < 60
    _finish(workers[1])


@pytest.mark.multi_device
def test_workers_left_alone_at_the_start_fail_clearly():
    # worker 1 of a run whose coordinator never starts; worker 0 of one whose worker never does
    orphan = _start(["worker", _free_ports(2), "1"], TRIPOD_DISTRIBUTION_TIMEOUT="4")
    alone = _start(["worker", _free_ports(2), "0"], TRIPOD_DISTRIBUTION_TIMEOUT="4")
    code, _, err = _finish(orphan, timeout=90)
    assert code != 0 and "could not join the run" in err, err[-3000:]
    code, _, err = _finish(alone, timeout=90)
    assert code != 0 and "waited over 4 s" in err, err[-3000:]


# -- the subprocesses' side --------------------------------------------------------------------
def _model(seed):
    import tripod

    tripod.utils.set_random_seed(seed)
    model = tripod.Sequential([tripod.layers.Dense(6, activation="tanh"), tripod.layers.Dense(3)])
    model.compile(optimizer=tripod.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
    return model


def _engine_step(model, engine, mode, batch):
    """The step the trainer makes under a distribution: state placed, then compiled."""
    model._prepare(batch, mode)
    groups = model._state_groups(mode)
    engine.place([(v, None) for group in groups for v in group])
    state = {name: [] for name in GROUPS["train"]}
    state.update(zip(GROUPS[mode], groups))
    fn = {"train": model.train_step, "test": model.test_step, "predict": model.predict_step}[mode]
    results = None if mode == "predict" else model.get_metrics_result
    return engine.compile_step(fn, state, mode, "auto", False, results)


def _worker(kind, ports, process_id):
    """Train through the engine on this process's rows of each global batch of 8 and print a
    JSON report comparing with one device on the whole batch."""
    device_count = 2
    if ports != "-":
        addresses = [f"localhost:{port}" for port in ports.split(",")]
        ops.initialize_processes(addresses, len(addresses), int(process_id))
        device_count = ops.process_count()
    rng = np.random.default_rng(0)
    x = rng.normal(size=(8, 5)).astype("float32")
    y = rng.normal(size=(8, 3)).astype("float32")
    reference = _model(seed=1)
    reference_losses = [reference.train_on_batch(x, y, return_dict=True)["loss"] for _ in range(3)]
    reference.reset_metrics()
    reference_evaluation = reference.test_on_batch(x, y, return_dict=True)

    engine = ops.distribution_engine(_distribution(device_count))
    share = 8 // ops.process_count()
    rows = slice(ops.process_index() * share, (ops.process_index() + 1) * share)
    model = _model(seed=1)
    train = _engine_step(model, engine, "train", (x[rows], y[rows]))
    if kind == "dies" and ops.process_index() == 1:
        os._exit(3)
    losses = [float(train((x[rows], y[rows]))["loss"]) for _ in range(3)]
    model.reset_metrics()
    evaluation = _engine_step(model, engine, "test", (x[rows], y[rows]))((x[rows], y[rows]))
    predicted = np.asarray(_engine_step(model, engine, "predict", (x[rows],))((x[rows],)))
    report = {
        "losses": losses,
        "reference_losses": [float(v) for v in reference_losses],
        "weights_differ_by": max(
            float(np.max(np.abs(a.numpy() - b.numpy())))
            for a, b in zip(model.weights, reference.weights, strict=True)
        ),
        "evaluation": {k: float(v) for k, v in evaluation.items()},
        "reference_evaluation": {k: float(v) for k, v in reference_evaluation.items()},
        "predictions_differ_by": float(np.max(np.abs(predicted - reference.predict(x, verbose=0)))),
        "predicted_rows": predicted.shape[0],
        "iterations": int(model.optimizer.iterations.numpy()),
        "copies": len(model.weights[0].native.values),
        "local_devices": device_count // ops.process_count(),
    }
    print(json.dumps(report), flush=True)


if __name__ == "__main__":
    _worker(sys.argv[1], sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else "0")
