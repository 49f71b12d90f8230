"""`Engine`: what a backend provides to run a `tripod.distribution` distribution.

`tripod.distribution` (meshes, layouts, `DataParallel`, `ModelParallel`) is backend-neutral; the
`distribution_engine(distribution)` hook returns this backend's engine for one distribution. The
trainer meets the engine at one seam, when it makes a step: it hands the engine the step's state
(variables grouped as trainable, non-trainable, optimizer and metrics, each with the layout it
should have) and gets back a step that runs on a process-local batch.

What the engine receives from the distribution (plain attributes, no backend objects):
- `distribution.device_mesh`: `shape` (tuple of ints), `axis_names` (tuple of str), `devices`
  (a NumPy array of device strings such as "cpu:0", shaped like the mesh, global over processes).
- `distribution.batch_dim_name`: the mesh axis the batch is split over.
- `distribution.model_parallel`: whether some variable layouts shard (`ModelParallel`), and then
  `distribution.layout_map` (its keys, and the `TensorLayout` each holds).
- `TensorLayout.axes`: per tensor dimension, a mesh axis name or None (not split).
"""

import contextlib
import os

#: the variable bounding how long joining a run, and each collective, waits for other processes
TIMEOUT_VARIABLE = "TRIPOD_DISTRIBUTION_TIMEOUT"
DEFAULT_TIMEOUT = 120.0


def timeout_seconds():
    """How long joining a run, and each collective, waits for the other processes: the seconds
    `TRIPOD_DISTRIBUTION_TIMEOUT` says (120 unset); a clear error for anything but a positive
    number."""
    text = os.environ.get(TIMEOUT_VARIABLE, "").strip()
    if not text:
        return DEFAULT_TIMEOUT
    try:
        seconds = float(text)
    except ValueError:
        seconds = 0.0
    if not seconds > 0:
        raise ValueError(
            f"{TIMEOUT_VARIABLE} must be a positive number of seconds, received {text!r}."
        )
    return seconds


class Engine:
    """The base of each backend's engine; a backend overrides what its framework does."""

    #: Whether a predict step runs in the calling process alone, on every row it is given and
    #: with no collective (every variable whole in each process): one process may then predict
    #: while the others do not, as a DDP module's forward may run on one rank.
    local_predict = False

    def __init__(self, distribution):
        self.distribution = distribution

    def scope(self):
        """A context entered by `Distribution.scope()` (tf: the strategy's scope)."""
        return contextlib.nullcontext()

    def place(self, placements):
        """Put each variable of `placements`, a list of (variable, TensorLayout or None for
        replicated) pairs, on its devices. Called at each step's making for every state variable;
        a variable already placed as asked is left alone. Values are kept: a replicated variable
        holds the same value in every process afterwards (process 0's)."""
        raise NotImplementedError

    def compile_step(self, fn, state, mode, jit_compile, run_eagerly, results=None):
        """`fn(batch)` as a step running on this process's share of each global batch (host
        arrays). `state`: {"trainable", "non_trainable", "optimizer", "metrics"} -> variables.
        Gradients are combined by the framework's engine; the logs the step returns are global
        values, equal in every process (`results()`, when given, reads the metrics' values after
        their states were combined). The step has `sync()` like a one-device step's."""
        raise NotImplementedError

    def compile_state_step(self, fn, state_groups, mode, jit_compile, run_eagerly):
        """Keras's JAX form `fn(state, batch)` under the distribution (the jax engine only)."""
        name = getattr(fn, "__qualname__", f"{mode}_step")
        raise NotImplementedError(
            f"{name}(self, state, data) runs under a distribution on jax only."
        )

    def process_rows(self, global_rows, process_index, process_count):
        """(start, stop): the rows of each global batch of `global_rows` that this process feeds
        its step; by default its 1/N share, in process order."""
        share = global_rows // process_count
        return process_index * share, (process_index + 1) * share

    def distribute_tensor(self, tensor, layout):
        """`tensor` laid out as `layout` asks (a TensorLayout)."""
        raise NotImplementedError

    def agreed_seed(self):
        """An int equal in every process (process 0's draw): data shuffles agree across processes."""
        raise NotImplementedError
