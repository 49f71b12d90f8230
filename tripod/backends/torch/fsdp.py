"""Sharded data parallel (ZeRO-3) on torch through FSDP2's `fully_shard`.

A `ModelParallel` whose layouts split variables over the batch axis alone runs as data parallel
steps on each process's own rows, like DDP, except that every trainable variable split by its
layout lives in a `VariableModule` that `fully_shard` shards: each process keeps only its part
(a DTensor `Shard(d)` on the batch axis), the module's forward all-gathers the whole for the
step's forward and frees it after, and backward reduce-scatters each process its part of the
averaged gradient. The variables read whichever parameter the module holds at the moment, and
the optimizer updates the sharded parameters with the sharded gradients (its slots split like
their variable). Replicated variables are broadcast once and their gradients averaged; metric
and statistic updates combine as in DDP steps. Imported when first needed, as `sharding.py`.
"""

import functools

from torch.distributed.fsdp import fully_shard
from torch.distributed.tensor.experimental import implicit_replication

from tripod.backends.torch import distribution, module_adapter, sharding


def fits(dist, ranks):
    """Whether FSDP2 runs the `ModelParallel` `dist`: its layout map splits some variable, each
    only over the batch axis, and that axis holds every process (`ranks`, shaped like the mesh),
    so that each process's rows of a batch are its share of it."""
    names = tuple(dist.device_mesh.axis_names)
    batch = dist.batch_dim_name
    if batch not in names or ranks.shape[names.index(batch)] != ranks.size:
        return False
    splits = [
        {axis for axis in dist.layout_map[key].axes if axis is not None} for key in dist.layout_map
    ]
    splits = [axes for axes in splits if axes]
    return bool(splits) and all(axes == {batch} for axes in splits)


class FullyShardedEngine(sharding.ShardedEngine):
    """Sharded data parallel as FSDP2: split trainable variables `fully_shard`ed, optimizer
    slots split like them, the rest replicated; each process runs the step on its own rows."""

    def __init__(self, dist, ranks):
        super().__init__(dist, ranks)
        self._batch_axis = self.axis_names.index(dist.batch_dim_name)
        self._shards = Shards()

    @functools.cached_property
    def shard_mesh(self):
        """The one-axis torch mesh of the batch axis, over which FSDP2 shards."""
        if len(self.axis_names) == 1:
            return self.mesh
        return self.mesh[self.axis_names[self._batch_axis]]

    def place(self, pairs):
        """Variables split by their layout: trainable ones `fully_shard`ed (one module per
        call), the others (optimizer slots) DTensors split alike; the rest replicated (all of
        process 0's values)."""
        replicated, trained, slots = [], [], []
        for variable, where in self._fresh_placements(pairs):
            split = where[self._batch_axis]
            if type(variable) is FsdpVariable:
                raise ValueError(
                    f"{type(self.distribution).__name__}: variable {variable.path!r} is already "
                    "sharded by FSDP2 and cannot take another layout."
                )
            if not split.is_shard():
                replicated.append(variable)
            elif variable.trainable:
                sharding.check_own_storage(variable)
                trained.append((variable, split))
            else:
                slots.append((variable, split))
        with distribution.collective_failures():
            distribution.broadcast(replicated + [variable for variable, _ in trained])
            for variable, split in slots:
                sharding.shard(variable, self.shard_mesh, (split,))
            if trained:
                self._shards.add(trained, self.shard_mesh)

    def compile_step(self, fn, state, mode, jit_compile, run_eagerly, results=None):
        """The model's step on this process's rows, its forward through the FSDP2 modules; the
        state and logs then made global as in DDP steps."""
        distribution.eager_only(jit_compile, run_eagerly)
        combined = state["metrics"] + state["non_trainable"]
        _check_whole(combined, self.distribution)
        if mode == "predict":
            return distribution.ReplicaStep(self._forward(fn), None, distribution.RowGatherer())
        finish = distribution.StateCombiner(combined, distribution.process_count(), results)
        if mode == "test":
            return distribution.ReplicaStep(self._forward(fn), None, finish)
        return distribution.ReplicaStep(_with_replicated(fn), self._shards, finish)

    def _forward(self, fn):
        """`fn(batch)` run whole inside the modules' forward, without autograd (test, predict)."""
        return distribution.no_grad(lambda batch: self._shards.run(functools.partial(fn, batch)))


def _with_replicated(fn):
    """`fn` with plain tensors taken as replicated where they meet DTensors: the optimizer's
    learning rate and step count meet the sharded parameters, gradients and slots."""

    def step(batch):
        with implicit_replication():
            return fn(batch)

    return step


def _check_whole(variables, dist):
    """A clear error for a metric or non-trainable variable split by its layout: steps run on
    each process's rows, where such a variable (a moving statistic) must be whole."""
    split = [v.path for v in variables if isinstance(v, sharding.ShardedVariable)]
    if split:
        raise ValueError(
            f"{type(dist).__name__}: the non-trainable variables {split} are split over the "
            f"batch axis {dist.batch_dim_name!r}; sharded data parallel (FSDP2) splits trainable "
            "variables only: give these a layout of None (whole)."
        )


class Shards:
    """The FSDP2 modules of an engine's split trainable variables: a step's forward runs
    through them (`run`), and `value_and_grad` takes gradients through them (the
    `module_adapter.running()` object of a sharded-data-parallel train step)."""

    def __init__(self):
        self._modules = []

    def add(self, pairs, mesh):
        """`fully_shard` the variables of (variable, `Shard(d)`) `pairs` as one module on
        `mesh`; each variable reads the module's parameter from now on."""
        params = [variable._param for variable, _ in pairs]
        splits = {id(param): split for param, (_, split) in zip(params, pairs)}
        module = module_adapter.VariableModule(params)
        fully_shard(
            module,
            mesh=mesh,
            reshard_after_forward=True,
            shard_placement_fn=lambda param: splits[id(param)],
        )
        for index, (variable, _) in enumerate(pairs):
            FsdpVariable.adopt(variable, module, index)
        self._modules.append(module)

    def run(self, forward):
        """`forward()` inside the forward of every module (nested): their variables read
        whole meanwhile (all-gathered before, resharded after)."""
        for module in self._modules:
            forward = functools.partial(module, forward)
        return forward()

    def value_and_grad(self, fn, args, kwargs, natives, has_aux):
        """`fn(*args, **kwargs)` run through the modules and the gradients of its value (first
        output when `has_aux`) with respect to `natives`, averaged over the processes: FSDP2
        reduce-scatters a sharded parameter's into its own part, replicated ones are
        all-reduced; zeros where the value does not depend on one."""
        sharded = {
            id(param): (module, index)
            for module in self._modules
            for index, param in enumerate(module.held_now())
        }
        tracked = [native for native in natives if native.requires_grad]
        for native in tracked:
            native.grad = None
        whole = []

        def forward():
            out = fn(*args, **kwargs)
            # inside the forward, the modules hold the all-gathered parameters autograd sees
            whole.extend(_held(sharded.get(id(native)), native) for native in tracked)
            return out

        out = self.run(forward)
        value = out[0] if has_aux else out
        if tracked and value.requires_grad:
            value.backward(inputs=whole)
        grads = [module_adapter.take_grad(native) for native in natives]
        averaged = [
            i
            for i, native in enumerate(natives)
            if native.requires_grad and id(native) not in sharded
        ]
        share = 1.0 / distribution.process_count()
        means = distribution.all_reduce_increments([(None, grads[i], share) for i in averaged])
        for i, mean in zip(averaged, means):
            grads[i] = mean
        return out, grads


def _held(place, native):
    """What stands for `native` in the running forward: its module's parameter at `place`
    (module, index), or `native` itself (a replicated parameter)."""
    return native if place is None else place[0].held(place[1])


class FsdpVariable(sharding.ShardedVariable):
    """A variable whose parameter an FSDP2 module holds: its sharded DTensor between forwards,
    the all-gathered whole during one; it reads whichever the module holds now, reads and
    assigns full values (every process calls) and keeps its sharding."""

    @property
    def _param(self):
        return self._module.held(self._index)

    @classmethod
    def adopt(cls, variable, module, index):
        """Make `variable` one whose parameter is the `index`-th of `module`."""
        del variable._param  # its own parameter: the module's answers from now on
        variable._module, variable._index = module, index
        variable.__class__ = cls
