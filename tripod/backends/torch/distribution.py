"""The torch backend's `tripod.distribution` engine: processes, DDP and DTensor placements.

One device per process (its CPU, or its GPU); processes join through
`torch.distributed.init_process_group` (gloo on CPU, nccl on GPU), and the mesh's device "cpu:i"
is process i. `DataParallel` runs as DDP: every variable replicated, gradients averaged by DDP's
reducer, and each step's metric and statistic updates combined with one all-reduce. `ModelParallel`
runs as DTensor SPMD: each variable placed as its layout asks (`Shard`/`Replicate` per mesh axis)
on a torch `DeviceMesh`, and each batch a DTensor sharded over the batch axis, so every value the
step computes (loss, gradients, metrics) is already global. A `ModelParallel` that splits
variables over the batch axis alone (sharded data parallel, ZeRO-3) runs as FSDP2 instead
(`fsdp.py`): data parallel steps whose split variables `fully_shard` gathers for each forward.
"""

import atexit
import contextlib
import datetime
import functools
import importlib
import os
import warnings
import weakref

import numpy as np
import torch
from torch import distributed as dist

from tripod.backends.common import devices, engine, tree
from tripod.backends.common.steps import Step, batch_converter
from tripod.backends.torch import core, module_adapter, tensors

#: a batch's host arrays as tensors on this process's device
to_tensors = batch_converter(core.convert_to_tensor)


# -- processes ----------------------------------------------------------------------------------
def timeout():
    """How long joining the run and each collective wait for the other processes."""
    return datetime.timedelta(seconds=engine.timeout_seconds())


def initialize_processes(job_addresses, num_processes, process_id):
    """Join the run through `init_process_group` at the coordinator, `job_addresses[0]`."""
    coordinator = job_addresses[0]  # checked by tripod.distribution.initialize
    if dist.is_initialized():
        if (dist.get_world_size(), dist.get_rank()) == (num_processes, process_id):
            return
        raise RuntimeError(
            f"tripod.distribution.initialize: this process already runs as process "
            f"{dist.get_rank()} of {dist.get_world_size()}, not {process_id} of {num_processes}."
        )
    wait = timeout()
    kind = "nccl" if torch.cuda.is_available() else "gloo"
    if kind == "nccl":
        torch.cuda.set_device(
            int(os.environ.get("LOCAL_RANK", process_id % torch.cuda.device_count()))
        )
    try:
        dist.init_process_group(
            kind,
            init_method=_init_method(coordinator),
            rank=process_id,
            world_size=num_processes,
            timeout=wait,
        )
    except (RuntimeError, TimeoutError) as error:  # torch's DistError is a RuntimeError
        raise RuntimeError(
            f"tripod.distribution.initialize: process {process_id} of {num_processes} could not "
            f"join the run through the coordinator {coordinator} within "
            f"{wait.total_seconds():g} s ({engine.TIMEOUT_VARIABLE}): {error}"
        ) from error
    atexit.register(_leave)


def _leave():
    """Leave the run at exit, as torch asks: a process group still alive when the interpreter
    tears down can abort the process ("terminate called without an active exception")."""
    if dist.is_initialized():
        dist.destroy_process_group()


def _init_method(coordinator):
    """Where the process group meets: under torchrun its agent already serves the store at
    MASTER_ADDR:MASTER_PORT ("env://" joins it), else a TCP store at the coordinator."""
    launched = f"{os.environ.get('MASTER_ADDR')}:{os.environ.get('MASTER_PORT')}"
    if os.environ.get("TORCHELASTIC_USE_AGENT_STORE") == "True" and coordinator == launched:
        return "env://"
    return f"tcp://{coordinator}"


def process_count():
    """The process group's size (1 without one)."""
    return dist.get_world_size() if dist.is_initialized() else 1


def process_index():
    """This process's rank (0 without a process group)."""
    return dist.get_rank() if dist.is_initialized() else 0


def list_devices(device_type=None):
    """One device per process: "gpu:i" (CUDA) or "cpu:i" for process i."""
    kind = _device_kind() if device_type is None else devices.parse_device(device_type)[0]
    if kind not in ("cpu", "gpu") or (kind == "gpu" and not torch.cuda.is_available()):
        return []
    return [f"{kind}:{index}" for index in range(process_count())]


def _device_kind():
    return "gpu" if torch.cuda.is_available() else "cpu"


# -- engines ------------------------------------------------------------------------------------
def engine_for(distribution, local_step):
    """The engine running `distribution`: FSDP2 (a ModelParallel whose layouts split variables
    over the batch axis alone: sharded data parallel), DTensor placements (any other
    ModelParallel), DDP replicas (DataParallel), or, for a one-device mesh in a single process,
    `local_step` itself."""
    size = np.asarray(distribution.device_mesh.devices, dtype=object).size
    if size > 1 and not dist.is_initialized():
        raise RuntimeError(
            f"{type(distribution).__name__}: its device mesh has {size} devices, but torch runs "
            "one device per process and this process has not joined a multi-process run. Launch "
            f"{size} processes (`torchrun --nproc-per-node={size} script.py`, or call "
            "tripod.distribution.initialize in each)."
        )
    ranks = _mesh_ranks(distribution)
    if not dist.is_initialized():
        return LocalEngine(distribution, local_step)
    if not distribution.model_parallel:
        return ReplicaEngine(distribution, ranks)
    fsdp = _part("fsdp")
    if fsdp.fits(distribution, ranks):
        return fsdp.FullyShardedEngine(distribution, ranks)
    return _sharding().ShardedEngine(distribution, ranks)


def _sharding():
    """The DTensor half of the engine (`sharding.py`)."""
    return _part("sharding")


def _part(name):
    """A part of the engine that needs torch.distributed.tensor (`sharding.py`, `fsdp.py`),
    imported when first needed: that takes about half a second, which one-device runs must
    not pay."""
    return importlib.import_module(f"tripod.backends.torch.{name}")


def _mesh_ranks(distribution):
    """The process rank of each mesh device, shaped like the mesh: "cpu:i" / "gpu:i" is rank i,
    and the mesh must hold every process's device once."""
    mesh = distribution.device_mesh
    names = np.asarray(mesh.devices, dtype=object)
    parsed = [devices.parse_device(str(name)) for name in names.reshape(-1)]
    ranks = np.array([index for _, index in parsed], dtype=np.int64).reshape(names.shape)
    expected = list_devices()
    if sorted(f"{kind}:{index}" for kind, index in parsed) != expected:
        raise ValueError(
            f"{type(distribution).__name__}: the device mesh must hold each device of the run "
            f"once, {expected} (one per process on torch), received {names.reshape(-1).tolist()}."
        )
    return ranks


class LocalEngine(engine.Engine):
    """A one-device mesh in one process: the ordinary step, variables left as they are."""

    def __init__(self, distribution, local_step):
        super().__init__(distribution)
        self._local_step = local_step

    def place(self, placements):
        """Nothing to move: the only device holds every variable."""
        del placements

    def compile_step(self, fn, state, mode, jit_compile, run_eagerly, results=None):
        """The one-device step."""
        variables = [v for group in state.values() for v in group]
        return self._local_step(fn, variables, mode, jit_compile, run_eagerly)

    def distribute_tensor(self, tensor, layout):
        """The tensor as it is: one device holds all of it."""
        return core.convert_to_tensor(tensor)

    def agreed_seed(self):
        """One process agrees with itself."""
        return int(np.random.randint(2**31 - 1))


class Engine(engine.Engine):
    """What the multi-process engines share: the torch `DeviceMesh` (made when first needed),
    tensors laid out on it, a seed every process agrees on, variables placed once."""

    def __init__(self, distribution, ranks):
        super().__init__(distribution)
        global _engaged
        _engaged = True
        self.ranks = ranks
        self.axis_names = tuple(distribution.device_mesh.axis_names)
        self._placed = {}  # id(variable) -> (weak reference, placement)

    @functools.cached_property
    def mesh(self):
        """The torch `DeviceMesh` of the distribution's mesh."""
        return _sharding().device_mesh(self.ranks, self.axis_names)

    def distribute_tensor(self, tensor, layout):
        """A DTensor on the mesh, laid out as `layout` asks (process 0's values)."""
        return _sharding().distribute(self, core.convert_to_tensor(tensor), layout)

    def agreed_seed(self):
        """Process 0's draw, broadcast to every process."""
        seed = torch.tensor(
            [np.random.randint(2**31 - 1)], dtype=torch.int64, device=tensors.current_device()
        )
        with collective_failures():
            dist.broadcast(seed, src=0)
        return int(seed.item())

    def _fresh(self, placements, key):
        """The (variable, placement) pairs of the variables not yet placed as
        `key(variable, layout)` says (by identity: a variable's `==` compares values)."""
        fresh = []
        for variable, layout in placements:
            wanted = key(variable, layout)
            held = self._placed.get(id(variable))
            if held is None or held[0]() is not variable or held[1] != wanted:
                self._placed[id(variable)] = (weakref.ref(variable), wanted)
                fresh.append((variable, wanted))
        return fresh


class ReplicaEngine(Engine):
    """`DataParallel` as DDP: replicated variables, gradients averaged by DDP's reducer; predict
    runs in the calling process alone (`local_predict`)."""

    local_predict = True

    def __init__(self, distribution, ranks):
        super().__init__(distribution, ranks)
        device_ids = [torch.cuda.current_device()] if _device_kind() == "gpu" else None
        self._replicas = module_adapter.Replicas(device_ids)

    def place(self, placements):
        """Every variable replicated (DataParallel lays out none): process 0's values broadcast
        once to the others."""
        fresh = self._fresh(placements, lambda variable, layout: "replicated")
        with collective_failures():
            broadcast([variable for variable, _ in fresh])

    def compile_step(self, fn, state, mode, jit_compile, run_eagerly, results=None):
        """The model's step on this process's rows; the state and logs then made global."""
        eager_only(jit_compile, run_eagerly)
        if mode == "predict":
            return Step(no_grad(fn), to_tensors)
        finish = StateCombiner(state["metrics"] + state["non_trainable"], process_count(), results)
        return ReplicaStep(fn if mode == "train" else no_grad(fn), self._replicas, finish)


# -- steps --------------------------------------------------------------------------------------
class ReplicaStep:
    """A data-parallel step: the model's step on this process's rows, its gradients averaged
    by DDP (`replicas`), then `finish(before, outputs)` makes its effects global."""

    def __init__(self, fn, replicas, finish):
        self._fn, self._replicas, self._finish = fn, replicas, finish

    def __call__(self, batch):
        with collective_failures():
            batch = to_tensors(batch)
            before = self._finish.snapshot()
            with module_adapter.running_with(self._replicas):
                outputs = self._fn(batch)
            return self._finish(before, outputs)

    def sync(self):
        """Nothing held: the step updates the variables in place."""


class StateCombiner:
    """Makes a data-parallel step's effects global with one all-reduce per dtype: metric
    variables add up every process's increments ("sum" aggregation, as metric states are) or
    average them, float layer statistics (BatchNorm's moving averages) average theirs, float
    outputs average; logs then read `results()`, the metrics' global values, where it has them."""

    def __init__(self, variables, world, results):
        self._variables = [v for v in variables if v.aggregation == "sum" or _floating(v._param)]
        self._scales = [1.0 if v.aggregation == "sum" else 1.0 / world for v in self._variables]
        self._world = world
        self._results = results

    def snapshot(self):
        """The combined variables' values before the step."""
        return [v._param.detach().clone() for v in self._variables]

    def __call__(self, before, outputs):
        leaves = tree.flatten(outputs)
        averaged = [i for i, x in enumerate(leaves) if isinstance(x, torch.Tensor) and _floating(x)]
        entries = [(b, v._param, s) for b, v, s in zip(before, self._variables, self._scales)]
        entries += [(None, leaves[i].detach(), 1.0 / self._world) for i in averaged]
        combined = all_reduce_increments(entries)
        with torch.no_grad():
            for variable, value in zip(self._variables, combined):
                variable._param.copy_(value)
        for i, value in zip(averaged, combined[len(self._variables) :]):
            leaves[i] = value
        outputs = tree.pack_sequence_as(outputs, leaves)
        if self._results is None or not isinstance(outputs, dict):
            return outputs
        logs = self._results()
        return {key: logs.get(key, value) for key, value in outputs.items()}


def all_reduce_increments(entries):
    """For (before, now, scale) entries: before + scale * (sum over processes of now - before)
    (before None reads as zeros), with one all-reduce per dtype."""
    results = [None] * len(entries)
    groups = {}
    for index, entry in enumerate(entries):
        groups.setdefault(entry[1].dtype, []).append(index)
    for indices in groups.values():
        nows = [entries[i][1].reshape(-1) for i in indices]
        bases = [
            torch.zeros_like(n) if entries[i][0] is None else entries[i][0].reshape(-1)
            for i, n in zip(indices, nows)
        ]
        base = torch.cat(bases)
        delta = torch.cat(nows) - base
        dist.all_reduce(delta)
        if _floating(delta):
            delta.mul_(
                torch.cat([torch.full_like(n, entries[i][2]) for i, n in zip(indices, nows)])
            )
        flat = base + delta
        for i, part in zip(indices, flat.split([n.numel() for n in nows])):
            results[i] = part.view(entries[i][1].shape)
    return results


class RowGatherer:
    """A predict step's outputs for the whole global batch: every process's rows, in order."""

    def snapshot(self):
        """No state to combine."""

    def __call__(self, before, outputs):
        return tree.map_structure(gather_rows, outputs)


def gather_rows(local):
    """The rows of tensor `local` of every process, in process order (non-tensors as they are)."""
    if not isinstance(local, torch.Tensor):
        return local
    parts = [torch.empty_like(local) for _ in range(dist.get_world_size())]
    dist.all_gather(parts, local.contiguous())
    return torch.cat(parts)


def broadcast(variables):
    """Process 0's values in every process, one broadcast per dtype."""
    groups = {}
    for variable in variables:
        groups.setdefault(variable._param.dtype, []).append(variable._param)
    for dtype, params in groups.items():
        wire = on_the_wire(torch.cat([p.detach().reshape(-1) for p in params]))
        dist.broadcast(wire, src=0)
        with torch.no_grad():
            for param, part in zip(
                params, off_the_wire(wire, dtype).split([p.numel() for p in params])
            ):
                param.copy_(part.view(param.shape))


#: unsigned integer types, which collectives do not carry, and the signed types of their width
SIGNED = {torch.uint16: torch.int16, torch.uint32: torch.int32, torch.uint64: torch.int64}


def on_the_wire(flat):
    """`flat` in a type collectives carry: bools as bytes, unsigned integers (seed states) as the
    signed integers of the same bits."""
    if flat.dtype == torch.bool:
        return flat.to(torch.uint8)
    signed = SIGNED.get(flat.dtype)
    return flat if signed is None else flat.view(signed)


def off_the_wire(wire, dtype):
    """The values `on_the_wire` sent, back in `dtype`."""
    if dtype == torch.bool:
        return wire.to(dtype)
    return wire.view(dtype) if dtype in SIGNED else wire


def _floating(tensor):
    return tensor.is_floating_point() or tensor.is_complex()


def no_grad(fn):
    """`fn` run without autograd recording (test and predict steps)."""

    def step(batch):
        with torch.no_grad():
            return fn(batch)

    return step


def eager_only(jit_compile, run_eagerly):
    """Warn that `jit_compile=True` does not apply: distributed steps run eagerly."""
    if jit_compile is True and not run_eagerly:
        warnings.warn(
            "jit_compile=True: under a distribution the torch backend runs its steps eagerly "
            "(torch.compile is not applied).",
            RuntimeWarning,
            stacklevel=4,
        )


@contextlib.contextmanager
def collective_failures():
    """A failed collective as an error that says what most likely happened."""
    try:
        yield
    except RuntimeError as error:
        if not _transport_failure(error):
            raise
        raise RuntimeError(
            f"tripod.distribution: process {process_index()} of {process_count()}: a collective "
            "operation failed, most likely because another process of the run died or stopped "
            f"responding (waiting at most {timeout().total_seconds():g} s, {engine.TIMEOUT_VARIABLE}): "
            f"{error}"
        ) from error


def _transport_failure(error):
    """Whether `error` came from the processes' transport: torch's own distributed errors, and
    those a collective raised inside autograd (DDP's reducer), which reach us as RuntimeError."""
    text = str(error)
    return isinstance(error, dist.DistError) or "gloo/transport" in text or "NCCL" in text


#: whether this process made a multi-process engine: variables then keep their own storage
_engaged = False


def engaged():
    """Whether a multi-process engine exists in this process (optimizers then do not fuse
    variables into one buffer: the engine places and wraps each variable's own parameter)."""
    return _engaged
