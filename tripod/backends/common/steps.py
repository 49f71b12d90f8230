"""`Step`: the object a backend's `compile_step` returns, and the batch helpers of fused steps.

A step may also run several batches in one call (`steps_per_execution`): such a step says
`fuses = True` and has `run_many(batches)`, which takes batches alike in structure, shapes and
dtypes (a run of `alike_runs`) and returns the last step's outputs (the logs, as Keras's logs
after an execution are its last step's), or for a predict step every step's outputs joined
along the batch axis.

A step may also say `stages = True` and have `stage(chunk)`, returning the `Staged` calls of an
execution with their batches already on their way to the device; `ahead` stages each execution
while the one before it runs (double buffering).
"""

import numpy as np

from tripod.backends.common import tree


def batch_converter(convert):
    """A function mapping `convert` over a batch's arrays (None entries stay None)."""

    def one(part):
        if part is None:
            return None
        return tree.map_structure(one, part) if tree.is_nested(part) else convert(part)

    def to_tensors(batch):
        # A batch is a flat (x, y, sample_weight) tuple of arrays nearly always: no tree walk
        return tuple([one(part) for part in batch]) if type(batch) is tuple else one(batch)

    return to_tensors


class _NotStackable(Exception):
    """A batch leaf that is not a NumPy array (a tensor, a sparse or ragged value, an object)."""


def _key(part):
    """A hashable key of a batch's nesting and its arrays' shapes and dtypes."""
    if isinstance(part, np.ndarray):
        return part.shape, part.dtype
    if part is None:
        return None
    kind = type(part)
    if kind is tuple or kind is list:
        return kind, tuple(_key(item) for item in part)
    if kind is dict:
        return kind, tuple((k, _key(v)) for k, v in part.items())
    raise _NotStackable


def alike_runs(batches):
    """`batches` split into runs of consecutive batches that stack into one (NumPy arrays nested
    alike, one shape and dtype per leaf): an epoch's short last batch, or a batch holding
    something else than arrays, is a run of its own."""
    runs, last = [], None
    for batch in batches:
        try:
            key = _key(batch)
        except _NotStackable:
            key = None
        if key is None or key != last:
            runs.append([batch])
        else:
            runs[-1].append(batch)
        last = key
    return runs


def stacked(batches):
    """Batches of one run (`alike_runs`) as one batch whose arrays have a new leading axis (a
    `Chunk` has it already)."""
    if isinstance(batches, Chunk):
        return batches.stacked
    return tree.map_structure(
        lambda *parts: None if parts[0] is None else np.stack(parts), *batches
    )


def executions(batches, size):
    """The batches in lists of `size` (the last may be shorter): one list per execution."""
    chunk = []
    for batch in batches:
        chunk.append(batch)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


class Chunk(list):
    """An execution's batches that its data adapter gathered at once: a list of the batches,
    which also holds them `stacked` on a leading axis (the batches are views of it)."""

    @classmethod
    def of_rows(cls, rows, count):
        """The `count` batches of `rows`, a batch of `count` times the batch size."""

        def split(part):
            return None if part is None else part.reshape(count, -1, *part.shape[1:])

        stacked = tree.map_structure(split, rows)
        chunk = cls(
            tree.map_structure(lambda part, i=i: None if part is None else part[i], stacked)
            for i in range(count)
        )
        chunk.stacked = stacked
        return chunk


class Staged:
    """An execution's calls, prepared by a step's `stage`: (batch, steps) pairs, where a batch
    of `steps` > 1 is a run of batches stacked on a leading axis (the step's `run_stacked`)."""

    def __init__(self, calls):
        self.calls = calls

    def __len__(self):
        """How many batches the execution runs."""
        return sum(count for _, count in self.calls)


def _runs(step, chunk):
    """The batches of `chunk` in the runs its calls take: each run of batches that stack
    (`alike_runs`: all of them, but for the short last batch of an epoch) where the step fuses,
    else one batch a run."""
    if not getattr(step, "fuses", False) or len(chunk) == 1:
        return [[batch] for batch in chunk]
    return [chunk] if isinstance(chunk, Chunk) else alike_runs(chunk)


def calls(step, chunk):
    """The (batch, steps) calls running `chunk`, each run of several batches stacked."""
    return [(stacked(run), len(run)) if len(run) > 1 else (run[0], 1) for run in _runs(step, chunk)]


def ahead(chunks, step, then=None):
    """The chunks, each staged (`step.stage`, where the step `stages`) once the loop has run the
    one before: its copy to the device overlaps the device's work on that one. A chunk staged
    already passes as it is. `then()`, if given, runs once the last chunk has been run (`fit`
    stages the next epoch's first execution there)."""
    stages = getattr(step, "stages", False)
    for chunk in chunks:
        yield step.stage(chunk) if stages and not isinstance(chunk, Staged) else chunk
    if then is not None:
        then()


def run_execution(step, chunk):
    """The last step's logs after running the batches of `chunk` (or its `Staged` calls): each
    run of batches that stack in one fused call where the step fuses, the rest one by one. A
    fused function is made per run length and batch shape, once: an epoch's chunks repeat from
    one epoch to the next."""
    if isinstance(chunk, Staged):
        for batch, count in chunk.calls:
            logs = step.run_stacked(batch) if count > 1 else step(batch)
        return logs
    for run in _runs(step, chunk):
        logs = step.run_many(run) if len(run) > 1 else step(run[0])
    return logs


class Step:
    """Runs a (possibly compiled) step function on a batch; `sync()` has nothing to write back.

    `convert` (optional) turns the batch's host arrays into tensors first: eager steps want
    backend tensors, while a compiled function takes NumPy arrays directly (and faster). It runs
    one batch per call (`fuses` is False): the trainer loops over a chunk's batches.
    """

    fuses = False

    def __init__(self, fn, convert=None):
        self._fn = fn
        self._convert = convert

    def __call__(self, batch):
        return self._fn(batch if self._convert is None else self._convert(batch))

    def sync(self):
        """Nothing to do: this backend's step updates variables in place."""
