"""The jax engine of `tripod.distribution`, built on `jax.sharding` and `jax.distributed`.

A device mesh becomes a `Mesh`, a tensor layout a `NamedSharding`. Placed variables hold global
`jax.Array`s; a step is jitted over the whole state with the state's shardings in and out
(donated), each process's rows of a batch become one global array split over the batch axis, and
logs and predictions come back replicated, so every process reads the global values.
"""

import functools
import math
import socket
import time

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import multihost_utils
from jax.sharding import Mesh, NamedSharding, PartitionSpec

from tripod.backends.common import devices, engine
from tripod.backends.common.steps import batch_converter


def put(value, sharding):
    """`value` laid out as `sharding`, over the devices of every process: a host value, or one
    held by this process alone, is taken to be the same in every process."""
    if isinstance(value, jax.Array):
        if value.sharding == sharding:
            return value
        if not value.is_fully_addressable:
            return jax.device_put(value, sharding)  # a global value: resharded
    if sharding.is_fully_addressable:
        return jax.device_put(value, sharding)
    host = np.asarray(value)
    return jax.make_array_from_callback(host.shape, sharding, host.__getitem__)


def gathered(value):
    """`value` as a NumPy array; one sharded over several processes' devices is gathered (a
    collective: every process calls it in the same order)."""
    if (
        isinstance(value, jax.core.Tracer)
        or value.is_fully_addressable
        or value.is_fully_replicated
    ):
        return np.asarray(value)
    return multihost_utils.process_allgather(value, tiled=True)


# -- processes and devices ------------------------------------------------------------------


def list_devices(device_type=None):
    """Every device of the run, "cpu:0", "cpu:1", ... numbered in `jax.devices()` order."""
    try:
        found = jax.devices(device_type and device_type.lower())
    except RuntimeError:  # jax has no such platform here
        return []
    return [f"{device.platform}:{index}" for index, device in enumerate(found)]


def _device(name):
    """The jax device a `list_devices` name stands for."""
    kind, index = devices.parse_device(name)
    try:
        return jax.devices(kind)[index]
    except (RuntimeError, IndexError):
        raise ValueError(
            f"DeviceMesh: jax has no device {name!r}; the run's devices are {list_devices()}."
        ) from None


def initialize_processes(job_addresses, num_processes, process_id):
    """`jax.distributed.initialize` with the first address as the coordinator's, CPU collectives
    over gloo, and timeouts: joining fails after the timeout, a peer silent for half of it (5 s at
    least) is dead (jax then ends the surviving processes with its own message)."""
    if jax.distributed.is_initialized():
        raise RuntimeError("tripod.distribution.initialize: this process already joined a run.")
    timeout = math.ceil(engine.timeout_seconds())  # whole seconds, as jax takes them
    host, port = _host_port(job_addresses[0])
    _configure_cpu_client(timeout)
    if process_id == 0:
        _check_port_free(port)
    else:
        _await_coordinator(host, port, timeout)
    grace = max(timeout // 2, 5)  # a busy process still sends its heartbeats
    jax.distributed.initialize(
        job_addresses[0],
        num_processes,
        process_id,
        cluster_detection_method="deactivate",
        initialization_timeout=timeout,
        heartbeat_timeout_seconds=grace,
        shutdown_timeout_seconds=grace,
    )


def _configure_cpu_client(timeout):
    """CPU collectives over gloo, and the CPU client's wait for the other processes' devices
    bounded by the timeout; a clear error when jax has made its devices already."""
    minutes = math.ceil(timeout / 60)
    try:
        jax.config.update("jax_cpu_collectives_implementation", "gloo")
        jax.config.update("jax_cpu_get_local_topology_timeout_minutes", minutes)
        jax.config.update("jax_cpu_get_global_topology_timeout_minutes", minutes)
    except RuntimeError:
        raise RuntimeError(
            "tripod.distribution.initialize must run before jax computes anything or lists its "
            "devices: call it first thing in the script."
        ) from None


def _host_port(address):
    """("host", port) of a "host:port" job address; a clear error for anything else."""
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit():
        raise ValueError(
            f"tripod.distribution.initialize: a job address is 'host:port', received {address!r}."
        )
    return host.strip("[]"), int(port)


def _check_port_free(port):
    """A clear error when the coordinator's port is taken (jax would crash on it)."""
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("", port))
        except OSError as error:
            raise RuntimeError(
                f"tripod.distribution.initialize: process 0 hosts the coordinator on port {port}, "
                f"which is in use on this machine ({error}); pick a free port."
            ) from None


def _await_coordinator(host, port, timeout):
    """Wait until the coordinator listens at host:port: jax's client ends the whole process when
    it cannot reach it, so a clear error is raised here first."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            with socket.create_connection((host, port), timeout=1):
                return
        except OSError as error:
            if time.monotonic() > deadline:
                raise RuntimeError(
                    "tripod.distribution.initialize: could not reach the coordinator at "
                    f"{host}:{port} within {timeout} s (TRIPOD_DISTRIBUTION_TIMEOUT): {error}"
                ) from None
            time.sleep(0.25)


def process_count():
    """How many processes the run has."""
    return jax.process_count()


def process_index():
    """This process's index in the run."""
    return jax.process_index()


# -- the engine -----------------------------------------------------------------------------


class Engine(engine.Engine):
    """A distribution run by jax: `make_step(fn, groups, mode, jit_compile, run_eagerly,
    state_form, layout)` is the backend's step maker, which the engine hands a `StepLayout`."""

    def __init__(self, distribution, make_step):
        super().__init__(distribution)
        device_mesh = distribution.device_mesh
        grid = np.array([_device(name) for name in np.ravel(device_mesh.devices)])
        self.mesh = Mesh(grid.reshape(tuple(device_mesh.shape)), tuple(device_mesh.axis_names))
        self.replicated = NamedSharding(self.mesh, PartitionSpec())
        self.batch_sharding = NamedSharding(self.mesh, PartitionSpec(distribution.batch_dim_name))
        self._make_step = make_step

    def sharding(self, layout):
        """The `NamedSharding` of a TensorLayout (replicated for None)."""
        if layout is None:
            return self.replicated
        return NamedSharding(self.mesh, PartitionSpec(*layout.axes))

    def place(self, placements):
        moves = [(v, self.sharding(layout)) for v, layout in placements]
        moves = [(v, sharding) for v, sharding in moves if v._sharding != sharding]
        if not moves:
            return
        values = [v.numpy() for v, _ in moves]
        if jax.process_count() > 1:  # process 0's values, everywhere
            values = multihost_utils.broadcast_one_to_all(values)
        for (v, sharding), value in zip(moves, values):
            v._place(sharding, value)

    def compile_step(self, fn, state, mode, jit_compile, run_eagerly, results=None):
        """The one-device step over global arrays: its logs are the global batch's already, so
        `results` is not needed."""
        groups = [state["trainable"], state["non_trainable"], state["optimizer"], state["metrics"]]
        layout = self._layout([v for group in groups for v in group])
        return self._make_step(fn, groups, mode, jit_compile, run_eagerly, False, layout)

    def compile_state_step(self, fn, state_groups, mode, jit_compile, run_eagerly):
        layout = self._layout([v for group in state_groups for v in group])
        return self._make_step(fn, state_groups, mode, jit_compile, run_eagerly, True, layout)

    def _layout(self, variables):
        """The step layout of `variables`, placing replicated any not placed yet."""
        self.place([(v, None) for v in variables if v._sharding is None])
        return StepLayout(self, variables)

    def process_rows(self, global_rows, process_index, process_count):
        """(start, stop): the rows of a global batch of `global_rows` that this process feeds,
        those its devices hold; all of them where the batch axis does not cross processes."""
        del process_index, process_count  # the batch sharding knows
        held = self.batch_sharding.addressable_devices_indices_map((global_rows,)).values()
        rows = {range(global_rows)[index[0]] for index in held}
        start, stop = min(r.start for r in rows), max(r.stop for r in rows)
        if sum(len(r) for r in rows) != stop - start:
            blocks = sorted((r.start, r.stop) for r in rows)
            raise ValueError(
                f"{type(self.distribution).__name__}: this process's devices hold the rows "
                f"{blocks} of each batch, not one block; order the mesh's devices by process."
            )
        return start, stop

    def distribute_tensor(self, tensor, layout):
        sharding = self.sharding(layout)
        if isinstance(tensor, jax.core.Tracer):
            return jax.lax.with_sharding_constraint(tensor, sharding)
        return put(
            tensor if isinstance(tensor, (jax.Array, np.ndarray)) else jnp.asarray(tensor), sharding
        )

    def agreed_seed(self):
        seed = np.int64(np.random.randint(0, 2**31 - 1))
        if jax.process_count() > 1:
            seed = multihost_utils.broadcast_one_to_all(seed)
        return int(seed)


class StepLayout:
    """The shardings of one distributed step: its state's (the variables' placements), its
    batch's (each process's rows, split over the batch axis) and its outputs' (replicated)."""

    def __init__(self, engine, variables):
        self.state = [v._sharding for v in variables]
        self.outputs = engine.replicated
        self.convert = batch_converter(functools.partial(_global_batch, engine.batch_sharding))

    def runner(self, pure, jit_compile, holds_state):
        """`pure(state, batch)` run on a process-local batch: jitted with these shardings (the
        state donated when the step `holds_state`, returning every new value), or eagerly."""
        state_out = self.state if holds_state else None
        if jit_compile:
            run = jax.jit(
                pure,
                in_shardings=(self.state, None),
                out_shardings=(self.outputs, state_out),
                donate_argnums=0 if holds_state else (),
            )
            return lambda state, batch: run(state, self.convert(batch))

        def eager(state, batch):
            outputs, new = pure(jax.device_put(state, self.state), self.convert(batch))
            new = jax.device_put(new, state_out) if holds_state else new
            return jax.device_put(outputs, self.outputs), new

        return eager


def _global_batch(sharding, rows):
    """This process's `rows` of a batch as the global array split over the batch axis."""
    return jax.make_array_from_process_local_data(sharding, np.asarray(rows))
