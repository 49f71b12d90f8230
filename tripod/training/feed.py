"""`Feed`: the batches of a pass over the data, in executions, staged on the device ahead of
the step that takes them."""

import functools
import itertools

from tripod.backends.common import steps


class Feed:
    """The executions (lists of `steps_per_execution` batches) of a data adapter, epoch after
    epoch.

    Where the step stages its batches (the jax step: `steps.ahead`), each execution is sent to
    the device while the one before runs. With `early` (fit's training data), when the adapter
    says its epoch hooks only reshuffle (`epoch_hooks_reshuffle`: in-memory arrays), the next
    epoch's first execution is staged as well while this epoch's last one runs, so that the
    device does not wait for it when the next epoch starts. The adapter's epoch hooks then run
    at that point, before this epoch's callbacks, instead of at the epochs' edges.
    """

    def __init__(self, data, size, early=False):
        self.data = data
        self.size = size
        self.early = early and getattr(data, "epoch_hooks_reshuffle", False)
        self._next = None  # the next epoch's executions, begun early

    def begin_epoch(self):
        """Start an epoch: the adapter's hook, unless the epoch before began this one."""
        if self._next is None:
            self.data.on_epoch_begin()

    def end_epoch(self):
        """End an epoch: the adapter's hook, unless the next epoch began already."""
        if self._next is None:
            self.data.on_epoch_end()

    def chunks(self):
        """This epoch's executions (the first one staged already where it was begun early)."""
        if self._next is not None:
            chunks, self._next = self._next, None
            return chunks
        return self._executions()

    def staged(self, chunks, step, more=False):
        """`chunks`, each staged for `step` while the one before runs; with `more` epochs to
        come, the next epoch's first execution is staged once this epoch's last one runs."""
        early = more and self.early and getattr(step, "stages", False)
        return steps.ahead(
            chunks, step, functools.partial(self._begin_next, step) if early else None
        )

    def _executions(self):
        """The executions of a new pass over the adapter's batches (gathered an execution at a
        time where the adapter can: `get_executions`)."""
        if hasattr(self.data, "get_executions"):
            return self.data.get_executions(self.size)
        return steps.executions(self.data.get_iterator(), self.size)

    def _begin_next(self, step):
        """End this epoch and begin the next on the adapter, with its first execution staged."""
        self.data.on_epoch_end()
        self.data.on_epoch_begin()
        chunks = self._executions()
        first = next(chunks, None)
        self._next = chunks if first is None else itertools.chain([step.stage(first)], chunks)
