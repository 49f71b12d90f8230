"""`ModelParallel` on torch: DTensor placements per layout on a torch `DeviceMesh`.

Each variable becomes a DTensor parameter, `Shard(d)` on the mesh axes its layout names and
`Replicate()` on the others; each batch becomes a DTensor of the global batch whose rows are
split over the batch axis. The model's step then runs as written: DTensor ops and autograd
compute global values (the loss, gradients reduced over the batch axis, metric states), and
optimizers update DTensor parameters with DTensor gradients. Imported only when a distribution
needs it (see `distribution._sharding`).
"""

import torch
from torch import distributed as dist
from torch.distributed import tensor as dtensor
from torch.distributed.device_mesh import DeviceMesh
from torch.distributed.tensor.experimental import implicit_replication

from tripod.backends.common import tree
from tripod.backends.torch import distribution
from tripod.backends.torch.core import convert_to_numpy
from tripod.backends.torch.variables import Variable, outside_autograd


def device_mesh(ranks, axis_names):
    """A torch `DeviceMesh` of process ranks `ranks` (an array shaped like the mesh)."""
    kind = "cuda" if torch.cuda.is_available() else "cpu"
    return DeviceMesh(kind, torch.as_tensor(ranks), mesh_dim_names=tuple(axis_names))


def placements(engine, layout, shape, what):
    """Per mesh axis of `engine`, `Shard(d)` where `layout` splits tensor dimension d over that
    axis, else `Replicate()` (a layout of None replicates); a clear error for a layout that does
    not fit the shape or the mesh."""
    names, sizes = engine.axis_names, engine.ranks.shape
    axes = (None,) * len(shape) if layout is None else tuple(layout.axes)
    named = [axis for axis in axes if axis is not None]
    if len(axes) != len(shape):
        raise ValueError(
            f"{what}: the layout {axes} has {len(axes)} axes for a tensor of shape {shape}."
        )
    if any(axis not in names for axis in named) or len(set(named)) < len(named):
        raise ValueError(
            f"{what}: each layout axis must be one of the mesh's axes {names}, each at most once, "
            f"or None; received {axes}."
        )
    result = []
    for mesh_axis, size in zip(names, sizes):
        dim = axes.index(mesh_axis) if mesh_axis in axes else None
        if dim is not None and shape[dim] % size:
            raise ValueError(
                f"{what}: dimension {dim} of shape {shape} has {shape[dim]} entries, which the "
                f"mesh axis {mesh_axis!r} ({size} devices) does not divide."
            )
        result.append(dtensor.Replicate() if dim is None else dtensor.Shard(dim))
    return tuple(result)


def distribute(engine, tensor, layout):
    """`tensor` (process 0's value) as a DTensor on the engine's mesh, laid out as `layout` asks."""
    where = placements(engine, layout, tuple(tensor.shape), "distribute_tensor")
    return from_process_zero(tensor, engine.mesh, where)


def from_process_zero(value, mesh, where):
    """`value` as a DTensor on `mesh` placed as `where`, holding process 0's value everywhere.
    Collectives carry no unsigned integers (seed states): those go over as signed bits first."""
    if value.dtype not in distribution.SIGNED:
        return dtensor.distribute_tensor(value, mesh, where)
    wire = distribution.on_the_wire(value.reshape(-1).clone())
    dist.broadcast(wire, src=0)
    whole = distribution.off_the_wire(wire, value.dtype).view(value.shape)
    return dtensor.distribute_tensor(whole, mesh, where, src_data_rank=None)


class ShardedEngine(distribution.Engine):
    """`ModelParallel` as DTensor SPMD: variables placed per layout, batches sharded over the
    batch axis; autograd on DTensors reduces the gradients, so every value is global."""

    def place(self, pairs):
        """Each variable as a DTensor with its layout's placements (process 0's values)."""
        fresh = list(self._fresh_placements(pairs))
        plain = [v for v, where in fresh if _stays_plain(v, where)]
        with distribution.collective_failures():
            distribution.broadcast(plain)
            for variable, where in fresh:
                if not _stays_plain(variable, where):
                    shard(variable, self.mesh, where)

    def _fresh_placements(self, pairs):
        """(variable, placements) for each variable of `pairs` not yet placed as its layout asks."""
        return self._fresh(
            pairs, lambda v, layout: placements(self, layout, v.shape, f"variable {v.path!r}")
        )

    def compile_step(self, fn, state, mode, jit_compile, run_eagerly, results=None):
        """The model's step on the global batch, as DTensors; its outputs gathered."""
        distribution.eager_only(jit_compile, run_eagerly)
        batch_axis = self.axis_names.index(self.distribution.batch_dim_name)
        rows = tuple(
            dtensor.Shard(0) if i == batch_axis else dtensor.Replicate()
            for i in range(len(self.axis_names))
        )
        # Each process is handed the rows of its process index; the mesh's own split of the
        # batch is that one when the batch axis holds every process, in order.
        in_order = self.ranks.shape[batch_axis] == self.ranks.size
        in_order = in_order and self.ranks.reshape(-1).tolist() == list(range(self.ranks.size))
        fn = fn if mode == "train" else distribution.no_grad(fn)
        return ShardedStep(fn, self.mesh, rows, in_order)


def _stays_plain(variable, where):
    """Whether a variable stays a plain tensor (process 0's value): a whole integer state (a
    seed, a counter), which random ops read as host numbers, as DTensors do not allow; under
    `implicit_replication` plain tensors mix with DTensors as replicated ones."""
    param = variable._param
    whole = all(isinstance(p, dtensor.Replicate) for p in where)
    return whole and not (param.is_floating_point() or param.is_complex())


class ShardedStep:
    """A DTensor step: the batch as DTensors of the global batch (rows split over the batch
    axis), plain tensors mixed in as replicated, the outputs gathered as plain tensors (the
    whole global batch's predictions in every process).

    `in_order`: whether this process's rows (those of its process index) are its share along
    the batch axis already; if not (e.g. a batch axis of 1 device), the rows are gathered first
    and each process keeps its part of the global batch."""

    def __init__(self, fn, mesh, rows, in_order):
        self._fn, self._mesh, self._rows, self._in_order = fn, mesh, rows, in_order

    def __call__(self, batch):
        with distribution.collective_failures(), implicit_replication():
            batch = tree.map_structure(self._global, distribution.to_tensors(batch))
            return tree.map_structure(_full, self._fn(batch))

    def _global(self, local):
        if not isinstance(local, torch.Tensor) or local.ndim == 0:
            return local
        if self._in_order:
            return dtensor.DTensor.from_local(local, self._mesh, self._rows, run_check=False)
        whole = distribution.gather_rows(local)
        return dtensor.distribute_tensor(whole, self._mesh, self._rows, src_data_rank=None)

    def sync(self):
        """Nothing held: the step updates the variables in place."""


def _full(value):
    """A DTensor output as the plain tensor of its global value."""
    return value.full_tensor() if isinstance(value, dtensor.DTensor) else value


class ShardedVariable(Variable):
    """A variable whose parameter is a DTensor placed by the engine: it reads and assigns full
    values (every process calls, in the same order) and keeps its placement."""

    def _write(self, native):
        param = self._param
        if not isinstance(native, dtensor.DTensor):  # a full value (load_weights, a reset)
            native = dtensor.distribute_tensor(
                native, param.device_mesh, param.placements, src_data_rank=None
            )
        outside_autograd(param, param.copy_, native)

    def _update_in_place(self, kind, value):
        with implicit_replication():
            return super()._update_in_place(kind, value)

    def numpy(self):
        """The full value as a NumPy array (gathered from every process's shard)."""
        return convert_to_numpy(_full(self.value))


def check_own_storage(variable):
    """A clear error for a variable that views an optimizer's fused buffer: a sharded placement
    would cut it off from the optimizer."""
    if variable._shared:
        raise ValueError(
            f"variable {variable.path!r} is a view of an optimizer's fused buffer (the model was "
            "trained before the distribution was set), which a sharded placement would cut off "
            "from the optimizer: compile the model again (a fresh optimizer) under the distribution."
        )


def shard(variable, mesh, where):
    """Make `variable` hold a DTensor on `mesh` placed as `where`, of process 0's full value
    (trainable as it was)."""
    check_own_storage(variable)
    value = _full(variable._param.detach())
    placed = from_process_zero(value, mesh, where)
    variable._param = torch.nn.Parameter(placed, requires_grad=variable._param.requires_grad)
    variable._shared = False
    variable.__class__ = ShardedVariable
