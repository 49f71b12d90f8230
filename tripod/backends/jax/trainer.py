"""How the jax backend builds and compiles the train, test and predict steps `fit` runs.

A step becomes a pure function of (variable values, batch) by running inside a
`StatelessScope`; training jits it with the state donated and keeps that state on the device
between calls (`TrainStep`), writing it back to the variables lazily. `steps_per_execution`
scans a run of stacked batches in one call, and `_Staging` sends each execution's batches to the
device while the one before runs. Each of these is a fast path of the step machinery
(`fast_paths.MACHINERY`): with the fast paths off, a step runs one call per batch, sends each
batch when it runs, and writes the state back after every call. A fused run too large for the
device's memory (a scan needs more than its steps one at a time) falls back to them, with a
warning.
"""

import warnings

import jax
import numpy as np

from tripod.backends.common import fast_paths, stateless
from tripod.backends.common.steps import Staged, batch_converter, calls, stacked
from tripod.backends.jax.core import convert_to_tensor

__all__ = ["compile_state_step", "compile_step"]


def _pure(fn, variables, updates_only=False):
    """fn(batch) as a pure function of (variable values, batch) -> (outputs, new values): every
    value, or with `updates_only` a dict {index: new value} of the variables fn assigned."""
    index = {id(v): i for i, v in enumerate(variables)}

    def pure(state, batch):
        with stateless.StatelessScope(
            state_mapping=zip(variables, state), collect_losses=True
        ) as scope:
            outputs = fn(batch)
        if updates_only:
            return outputs, {index[id(v)]: value for v, value in scope.updates if id(v) in index}
        return outputs, [scope.get_current_value(v) for v in variables]

    return pure


def _state_pure(fn, groups):
    """Keras's JAX step `fn(state, batch) -> (outputs, new state)`, the state a tuple of value
    lists (one per group of variables), as a pure function of (flat values, batch) -> (outputs,
    new flat values). Inside, the variables read as the state's values."""
    variables = [v for group in groups for v in group]
    sizes = [len(group) for group in groups]

    def pure(flat, batch):
        state, start = [], 0
        for size in sizes:
            state.append(list(flat[start : start + size]))
            start += size
        with stateless.StatelessScope(state_mapping=zip(variables, flat)):
            outputs, new_state = fn(tuple(state), batch)
        return outputs, _flat_state(fn, new_state, sizes)

    return pure


def _flat_state(fn, state, sizes):
    """The new state a step returned, as one flat list; a clear error when it is not shaped
    like the state the step received (one list of `sizes[i]` values per group)."""
    sequence = (tuple, list)
    if isinstance(state, sequence):
        received = [
            len(part) if isinstance(part, sequence) else type(part).__name__ for part in state
        ]
    else:
        received = type(state).__name__
    if received != sizes:
        name = getattr(fn, "__qualname__", "the step")
        raise ValueError(
            f"{name} must return (outputs, state) with `state` shaped like the state it received: "
            f"{len(sizes)} lists of {sizes} values; received a state of {received}."
        )
    return [value for part in state for value in part]


def _runner(pure, jit_compile, layout, holds_state):
    """`pure(state, batch)` as the step runs it: jitted (NumPy batches go straight in: jit
    transfers them faster than a separate conversion; a step that holds its state has it
    donated), or eagerly on the batch converted first. Under a distribution, `layout` (a
    `distribution.StepLayout`) adds the shardings and makes the batch global."""
    if layout is not None:
        return layout.runner(pure, jit_compile, holds_state)
    if jit_compile:
        return jax.jit(pure, donate_argnums=0) if holds_state else jax.jit(pure)
    to_tensors = batch_converter(convert_to_tensor)
    return lambda state, batch: pure(state, to_tensors(batch))


def _fused_runner(pure, jit_compile, layout, holds_state, join):
    """`pure` scanned over stacked batches in one jitted call (`_scanned`): a step holding its
    state has it donated, a stateless one returns only what its steps assign. None where steps
    do not fuse: eager steps (each batch runs its Python), steps laid out by a distribution
    (each batch is laid out on its own), and every step with the fast paths off."""
    if layout is not None or not jit_compile or not fast_paths.enabled():
        return None
    if holds_state:
        return jax.jit(_scanned(pure, join), donate_argnums=0)
    every = _with_every_value(pure)
    return jax.jit(_assigned_only(_scanned(every, join), every.assigned))


#: On a CPU, a run of at most this many fused steps compiles unrolled: XLA runs convolutions
#: inside a loop about 10x slower there. Longer runs, and runs on an accelerator (where the loop
#: costs nothing and an unrolled program compiles several times longer), keep the loop.
_MAX_UNROLLED_STEPS = 32


def _scanned(pure, join):
    """`pure(state, batch) -> (outputs, new state)` run by one `lax.scan` over the leading axis
    of stacked batches: (the last step's outputs, or with `join` every step's joined along the
    batch axis, the final state)."""

    def body(state, batch):
        outputs, state = pure(state, batch)
        return state, outputs

    def run(state, batches):
        unroll = _run_length(batches) <= _MAX_UNROLLED_STEPS and jax.default_backend() == "cpu"
        state, outputs = jax.lax.scan(body, state, batches, unroll=unroll)
        return jax.tree_util.tree_map(_joined if join else _last, outputs), state

    return run


def _run_length(stacked_batch):
    """How many batches a stacked run holds (its arrays' leading axis)."""
    return jax.tree_util.tree_leaves(stacked_batch)[0].shape[0]


def _last(stacked_outputs):
    return stacked_outputs[-1]


def _joined(stacked_outputs):
    return stacked_outputs.reshape((-1,) + stacked_outputs.shape[2:])


def _with_every_value(pure):
    """A stateless `pure` returning {index: new value} of what it assigned, as a pure function
    returning every value (a scan carries the whole state); `.assigned` collects, at trace time,
    the indices it ever assigns."""

    def full(values, batch):
        outputs, updates = pure(values, batch)
        pairs = updates.items() if isinstance(updates, dict) else enumerate(updates)
        values = list(values)
        for i, value in pairs:
            values[i] = value
            full.assigned.add(i)
        return outputs, values

    full.assigned = set()
    return full


def _assigned_only(scanned, assigned):
    """A scanned stateless run returning {index: final value} of the variables its steps assign
    (known once traced), so that the values it only read are not copied out."""

    def run(values, batches):
        outputs, values = scanned(values, batches)
        return outputs, {i: values[i] for i in sorted(assigned)}

    return run


def _put(batch):
    """`batch` with its NumPy arrays sent to the default device (the copy runs asynchronously)."""
    return jax.tree_util.tree_map(
        lambda part: jax.device_put(part) if isinstance(part, np.ndarray) else part, batch
    )


class _Staging:
    """Double buffering and fused runs for a jitted step without a distribution (a distributed
    step lays its batches out itself): `stage` sends an execution's batches, stacked as its
    calls take them, to the device while the execution before runs (`steps.ahead`), and
    `run_stacked` runs a stacked run in one call. Subclasses give `_call(run, batch)`."""

    _donated = ()  # the arrays a fused call consumes (a training step's held state)

    def _staging(self, jit_compile, layout, join):
        self.stages = jit_compile and layout is None and fast_paths.enabled()
        self._join = join

    def __call__(self, batch):
        return self._call(self._run, batch)

    def stage(self, chunk):
        """The chunk's calls with their batches on their way to the device (the chunk itself
        once the step no longer stages)."""
        if not self.stages:
            return chunk
        return Staged([(_put(batch), count) for batch, count in calls(self, chunk)])

    def run_many(self, batches):
        """The batches (a run of `alike_runs`) in one call (`run_stacked`)."""
        return self.run_stacked(stacked(batches))

    def run_stacked(self, batch):
        """A run of batches stacked on a leading axis, in one call: the last step's outputs, or
        with `join` every step's joined. Where that call's program does not fit in the device's
        memory, the run goes one call a step, and so do all later runs (`_unfuse`)."""
        if self.fuses:
            try:
                return self._call(self._run_fused, batch)
            except jax.errors.JaxRuntimeError as error:
                if not _out_of_memory(error) or any(_deleted(v) for v in self._donated):
                    raise
                self._unfuse(error, batch)
        return self._each(batch)

    def _unfuse(self, error, batch):
        """Stop fusing and staging (a staged execution would hold its batches on the device
        beside the step), and say so once."""
        self.fuses = self.stages = False
        warnings.warn(
            f"{_run_length(batch)} steps of this batch size do not fit in the device's memory as "
            f"one fused call (steps_per_execution); running one call a batch from now on. XLA said: "
            f"{str(error).splitlines()[0][:300]}",
            stacklevel=4,
        )

    def _each(self, batch):
        """A stacked run one call a step: the last step's outputs, or every step's joined."""
        outputs = [
            self._call(self._run, jax.tree_util.tree_map(lambda part, i=i: part[i], batch))
            for i in range(_run_length(batch))
        ]
        if not self._join:
            return outputs[-1]
        return jax.tree_util.tree_map(lambda *parts: jax.numpy.concatenate(parts), *outputs)


def _out_of_memory(error):
    """Whether XLA refused a program for the device's memory."""
    return "RESOURCE_EXHAUSTED" in str(error)


def _deleted(value):
    """Whether `value` is a jax array whose buffer was consumed (donated)."""
    return isinstance(value, jax.Array) and value.is_deleted()


class TrainStep(_Staging):
    """A jitted training step that keeps the model's state on the device between steps.

    The state is donated to each call, so XLA updates it in place. Where the step `holds` it
    (unless the fast paths are off), the variables are written back lazily: a variable read
    outside the step (a callback, the user) syncs first, and a write from outside (a metric
    reset, `set_weights`) goes into the held state as well; otherwise every call reads the
    variables and writes their new values back.
    `run_many` runs several batches through one scan over the same held state (`fuses`: when
    jitted without a distribution).
    """

    def __init__(self, pure, variables, jit_compile, layout=None, join=False):
        self.variables = list(variables)
        self._index = {id(v): i for i, v in enumerate(self.variables)}
        self._run = _runner(pure, jit_compile, layout, holds_state=True)
        self._run_fused = _fused_runner(pure, jit_compile, layout, True, join)
        self.fuses = self._run_fused is not None
        self._staging(jit_compile, layout, join)
        self._state = None
        self.dirty = False
        self.holds = fast_paths.enabled()

    @property
    def _donated(self):
        return self._state or ()

    def _call(self, run, batch):
        """`run` on the held state (claimed from the variables on first use) and `batch`; a step
        that does not hold its state reads the variables and writes them back around `run`."""
        if self._state is None:
            self._state = [v.value for v in self.variables]
            for v in self.variables if self.holds else ():
                v._claim(self)
        outputs, self._state = run(self._state, batch)
        self.dirty = True
        if not self.holds:
            self.sync()
            self._state = None
        return outputs

    def sync(self):
        """Write the step's current state into the variables."""
        if self.dirty:
            self.dirty = False
            for v, value in zip(self.variables, self._state):
                v._array = value if isinstance(value, jax.Array) else convert_to_tensor(value)

    def write(self, variable, value):
        """A write from outside the step (the user, `set_weights`): the state takes it too."""
        if self._state is not None:
            self._state[self._index[id(variable)]] = value

    def write_host(self, variable, value):
        """Take a copy of NumPy `value` of the variable's exact shape and dtype into the state
        (the next call transfers it: far cheaper than converting it here, which matters for
        metric resets every epoch). False before the step holds any state."""
        if self._state is None:
            return False
        self._state[self._index[id(variable)]] = value.copy()  # the caller may change `value`
        self.dirty = True  # a read converts it (sync)
        return True


class StatelessStep(_Staging):
    """A jitted evaluation or prediction step: reads the variables, writes back what changed
    (`pure` returns a dict {index: new value}, or every new value as a list). `run_many` runs
    several batches in one scan (`fuses`: when jitted without a distribution); with `join`
    (predict) it returns every step's outputs joined."""

    def __init__(self, pure, variables, jit_compile, layout=None, join=False):
        self.variables = list(variables)
        self._run = _runner(pure, jit_compile, layout, holds_state=False)
        self._run_fused = _fused_runner(pure, jit_compile, layout, False, join)
        self.fuses = self._run_fused is not None
        self._staging(jit_compile, layout, join)

    def _call(self, run, batch):
        # The held values, read directly (no stateless scope or autocast applies out here).
        outputs, updates = run([v._read() for v in self.variables], batch)
        for i, value in updates.items() if isinstance(updates, dict) else enumerate(updates):
            self.variables[i].assign(value)
        return outputs

    def sync(self):
        """Nothing held: every call already wrote its updates."""


def make_step(fn, groups, mode, jit_compile, run_eagerly, state_form, layout=None):
    """The step running `fn` over the variables of `groups`: `fn(batch)`, or with `state_form`
    Keras's `fn(state, batch)`; laid out by `layout` under a distribution."""
    jit = not run_eagerly and jit_compile is not False
    variables = [v for group in groups for v in group]
    if state_form:
        pure = _state_pure(fn, groups)
    else:
        pure = _pure(fn, variables, updates_only=mode != "train")
    step = TrainStep if mode == "train" else StatelessStep
    return step(pure, variables, jit, layout, join=mode == "predict")


def compile_step(fn, state_variables, mode, jit_compile, run_eagerly):
    return make_step(fn, [list(state_variables)], mode, jit_compile, run_eagerly, False)


def compile_state_step(fn, state_groups, mode, jit_compile, run_eagerly):
    return make_step(fn, state_groups, mode, jit_compile, run_eagerly, True)
