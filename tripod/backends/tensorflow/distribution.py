"""The tensorflow engine of `tripod.distribution`: data parallelism through `tf.distribute`.

One process runs a `MirroredStrategy` over the distribution's devices (several GPUs, or logical
CPUs split by `TRIPOD_NUM_CPU_DEVICES`). Several processes run the `MultiWorkerMirroredStrategy`
that `initialize_processes` makes from a `TF_CONFIG` cluster (TensorFlow needs it before its
runtime starts). Variables become the strategy's (`core.distribute_variable`), each step runs
the model's step on every replica through `strategy.run`, gradients are all-reduced by the
strategy (see `hooks.value_and_grad`), and the logs and predictions are combined over every process.
"""

import contextlib
import functools
import json
import os
import random
import subprocess
import sys

import tensorflow as tf
from tensorflow.python.distribute.collective_all_reduce_strategy import coordination_config_pb2
from tensorflow.python.eager import context

from tripod.backends.common import devices, engine
from tripod.backends.common.steps import Step, batch_converter
from tripod.backends.tensorflow import core
from tripod.backends.tensorflow.steps import FunctionStep

#: this process's multi-worker run, once `initialize_processes` joined one: strategy, workers, index
_run = {}


# -- processes -----------------------------------------------------------------------------------
def initialize_processes(job_addresses, num_processes, process_id):
    """Join a run of `num_processes` TensorFlow workers as worker `process_id`."""
    workers = _worker_addresses(job_addresses, num_processes)
    joined = _run.get("workers")
    if joined is not None:
        if (joined, _run["index"]) != (workers, process_id):
            raise RuntimeError(
                f"tripod.distribution.initialize: this process already joined the run {joined} as "
                f"process {_run['index']}; a process joins one run."
            )
        return
    os.environ["TF_CONFIG"] = json.dumps(
        {"cluster": {"worker": workers}, "task": {"type": "worker", "index": process_id}}
    )
    _run["strategy"] = _join(workers, process_id, engine.timeout_seconds())
    _run["workers"], _run["index"] = workers, process_id


def _worker_addresses(job_addresses, num_processes):
    """One "host:port" per worker: the list as given, or from one address, port + i for worker i."""
    if len(job_addresses) == num_processes:
        return list(job_addresses)
    host, _, port = job_addresses[0].rpartition(":")
    return [f"{host}:{int(port) + i}" for i in range(num_processes)]


def _join(workers, process_id, timeout):
    """The `MultiWorkerMirroredStrategy` of the cluster, its collectives timing out after
    `timeout` seconds, a worker that stops answering failing the others within seconds.
    A worker that cannot reach worker 0 (the coordinator) fails after `timeout`; worker 0 waits
    for the others in TensorFlow's runtime, holding the interpreter where no Python timer can
    interrupt it, so a watchdog process ends it (with a clear message) if they never come."""
    heartbeat_ms = int(min(timeout, 10) * 1000)
    context.context().configure_coordination_service(
        service_type="standalone",
        service_leader="/job:worker/replica:0/task:0",
        cluster_register_timeout_in_ms=int(timeout * 1000),
        heartbeat_timeout_in_ms=heartbeat_ms,
        coordinated_jobs=[
            coordination_config_pb2.CoordinatedJob(name="worker", num_tasks=len(workers))
        ],
    )
    options = tf.distribute.experimental.CommunicationOptions(timeout_seconds=timeout)
    late = (
        f"tripod.distribution.initialize (tensorflow): process {process_id} waited over {timeout:g} s "
        f"(TRIPOD_DISTRIBUTION_TIMEOUT) for the other workers of {workers} to join, and ends. "
        "Check that every process started, with the same job addresses."
    )
    try:
        with _ended_after(timeout + 10, late):
            return tf.distribute.MultiWorkerMirroredStrategy(communication_options=options)
    except RuntimeError as error:
        if "startup" not in str(error):  # "Collective ops must be configured at program startup"
            raise
        raise RuntimeError(
            "tripod.distribution.initialize (tensorflow): TensorFlow has already run an op in this "
            "process, and a multi-worker run must be joined before that; call "
            "tripod.distribution.initialize() first thing, before building models or data."
        ) from None
    except tf.errors.OpError as error:
        raise RuntimeError(
            f"tripod.distribution.initialize (tensorflow): process {process_id} could not join the "
            f"run of workers {workers} within {timeout:g} s (TRIPOD_DISTRIBUTION_TIMEOUT): "
            f"{error.message.splitlines()[0]}. Check that every process started, with the same "
            "job addresses, and that process 0's address is reachable."
        ) from None


#: the watchdog: ends process argv[1] with message argv[3] unless its stdin closes in argv[2] s
_WATCHDOG = """
import os, select, signal, sys
if not select.select([sys.stdin], [], [], float(sys.argv[2]))[0]:
    sys.stderr.write(sys.argv[3] + "\\n")
    sys.stderr.flush()
    os.kill(int(sys.argv[1]), signal.SIGKILL)
"""


@contextlib.contextmanager
def _ended_after(seconds, message):
    """Run the block; a watchdog process ends this one, writing `message` to stderr, when the
    block has not finished after `seconds`."""
    args = [sys.executable, "-c", _WATCHDOG, str(os.getpid()), str(seconds), message]
    watchdog = subprocess.Popen(args, stdin=subprocess.PIPE)
    try:
        yield
    finally:
        watchdog.stdin.close()
        watchdog.wait()


def process_count():
    """The number of workers in the run (1 before `initialize_processes`)."""
    return len(_run.get("workers", ())) or 1


def process_index():
    """This worker's index in the run."""
    return _run.get("index", 0)


# -- devices -------------------------------------------------------------------------------------
def list_devices(device_type=None):
    """Every device of the run as "cpu:0"-style strings, numbered over all processes (each
    process has the same devices); GPUs before CPUs when `device_type` is None."""
    kinds = ("gpu", "cpu") if device_type is None else (device_type,)
    for kind in kinds:
        count = _local_device_count(kind)
        if count:
            return [f"{kind}:{i}" for i in range(count * process_count())]
    return []


def _local_device_count(kind):
    """How many `kind` devices this process computes on, without starting TensorFlow's runtime
    (the logical devices a physical one is split into count each)."""
    strategy = _run.get("strategy")
    if strategy is not None:
        local = strategy.extended.worker_devices
        return len(local) if all(f"/device:{kind.upper()}:" in d for d in local) else 0
    physical = tf.config.list_physical_devices(kind.upper())
    return sum(len(tf.config.get_logical_device_configuration(d) or [d]) for d in physical)


# -- the engine ----------------------------------------------------------------------------------
def distribution_engine(distribution):
    """The tensorflow `Engine` of a data-parallel distribution."""
    if distribution.model_parallel:
        raise NotImplementedError(
            f"{type(distribution).__name__}: sharding variables (model parallelism) is not "
            "available on the tensorflow backend, which runs data parallelism only (DataParallel); "
            "ModelParallel runs on the jax and torch backends (TRIPOD_BACKEND=jax or torch)."
        )
    return Engine(distribution)


class Engine(engine.Engine):
    """Runs a `DataParallel` distribution through a `tf.distribute` strategy."""

    def __init__(self, distribution):
        super().__init__(distribution)
        self.strategy = _run.get("strategy") or _local_strategy(distribution)
        wanted = distribution.device_mesh.devices.size
        if self.strategy.num_replicas_in_sync != wanted:
            raise ValueError(
                f"{type(distribution).__name__}: the device mesh has {wanted} devices, but the "
                f"run has {self.strategy.num_replicas_in_sync} ({list_devices()}); build the "
                "mesh from tripod.distribution.list_devices()."
            )
        self._local_replicas = len(self.strategy.extended.worker_devices)

    def scope(self):
        """The strategy's scope: variables made in it are the strategy's from the start."""
        return self.strategy.scope()

    def place(self, placements):
        """Every variable whole on every device, as the strategy's variable (no layout splits
        one: ModelParallel is refused when the engine is made)."""
        for variable, _ in placements:
            core.distribute_variable(variable, self.strategy)

    def compile_step(self, fn, state, mode, jit_compile, run_eagerly, results=None):
        """`fn` on every replica's rows of this process's batch; global logs (or, for predict,
        the outputs of the whole global batch, in every process)."""
        for variable in state.get("optimizer", ()):
            core.write_per_replica(variable)  # every replica computes the same update
        on_replica = fn
        if jit_compile is True and not run_eagerly:
            on_replica = tf.function(fn, jit_compile=True, autograph=False)

        def step(batch):
            outputs = self.strategy.run(on_replica, (self._shares(batch),))
            return self._combined(outputs, mode, results)

        if run_eagerly:
            return _Guarded(Step(step, batch_converter(core.convert_to_tensor)))
        return _Guarded(FunctionStep(tf.function(step, reduce_retracing=True, autograph=False)))

    def _shares(self, batch):
        """The batch split into one block of rows per local replica, each on its device."""
        count, strategy = self._local_replicas, self.strategy

        def share(value_context):
            index = value_context.replica_id_in_sync_group % count
            with tf.device(strategy.extended.worker_devices[index]):
                return tf.nest.map_structure(lambda x: _rows(x, index, count), batch)

        return strategy.experimental_distribute_values_from_function(share)

    def _combined(self, outputs, mode, results):
        """The step's logs as global values equal in every process."""
        if mode == "predict":
            return tf.nest.map_structure(lambda x: self.strategy.gather(x, axis=0), outputs)
        if results is not None:
            return results()  # outside the replicas: summed metric states read whole
        return self.strategy.reduce(tf.distribute.ReduceOp.MEAN, outputs, axis=None)

    def distribute_tensor(self, tensor, layout):
        """`tensor` itself when whole on every device (TensorFlow holds no sharded tensors)."""
        if layout is not None and any(axis is not None for axis in layout.axes):
            raise NotImplementedError(
                f"distribute_tensor: the tensorflow backend holds no sharded tensors (layout "
                f"{layout.axes}); DataParallel splits each batch inside the step."
            )
        return core.convert_to_tensor(tensor)

    def agreed_seed(self):
        """Process 0's random draw, in every process."""
        draw = random.randrange(2**31 - 1)
        if process_count() == 1:
            return draw

        def own(value_context):
            return tf.constant(draw if value_context.replica_id_in_sync_group == 0 else 0, tf.int64)

        values = self.strategy.experimental_distribute_values_from_function(own)
        return int(self.strategy.reduce(tf.distribute.ReduceOp.SUM, values, axis=None))


class _Guarded:
    """A distributed step whose failing collective (a worker gone, or silent for longer than
    `TRIPOD_DISTRIBUTION_TIMEOUT`) is a RuntimeError saying so."""

    #: what TensorFlow raises when a collective's peer is gone or late
    _LOST = (tf.errors.UnavailableError, tf.errors.DeadlineExceededError, tf.errors.AbortedError)

    def __init__(self, step):
        self._step = step

    def __call__(self, batch):
        try:
            return self._step(batch)
        except self._LOST as error:
            raise RuntimeError(
                "tripod.distribution (tensorflow): a step's collective failed: a worker of the run "
                "stopped, or did not answer within TRIPOD_DISTRIBUTION_TIMEOUT "
                f"({engine.timeout_seconds():g} s). TensorFlow says: {_cause(error)}"
            ) from error

    def sync(self):
        """Nothing to write back: the step updates the variables in place."""
        self._step.sync()


def _cause(error):
    """The line of a TensorFlow error message that says what went wrong (past the traceback of
    where the failing op was defined)."""
    lines = [line.strip() for line in error.message.splitlines()]
    said = [line for line in lines if "Collective ops" in line or "unhealthy" in line]
    return said[0] if said else lines[0]


def _local_strategy(distribution):
    """The `MirroredStrategy` over the mesh's devices (all of this process's)."""
    names = []
    for name in distribution.device_mesh.devices.ravel():
        kind, index = devices.parse_device(str(name))
        names.append(f"/{kind.upper()}:{index}")
    return _mirrored(tuple(names))


@functools.cache
def _mirrored(device_names):
    """One `MirroredStrategy` per set of devices: two would number their collectives alike and
    clash, and variables placed for one distribution stay placed for the next on those devices."""
    return tf.distribute.MirroredStrategy(list(device_names))


def _rows(x, index, count):
    """Block `index` of `count` equal blocks of `x`'s rows (None stays None)."""
    if x is None:
        return None
    rows = x.shape[0] if x.shape[0] is not None else tf.shape(x)[0]
    size = rows // count
    return x[index * size : (index + 1) * size]
