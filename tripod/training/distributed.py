"""The trainer's seam with `tripod.distribution`: steps that run under a distribution.

The trainer hands the engine the step's state, each variable with its layout (model variables
from the distribution, optimizer slots like their variable, the rest whole on every device), and
wraps the engine's step so that each process passes on only its rows of every global batch.
"""

import numpy as np

from tripod.backends.common import tree
from tripod.backends.common.steps import batch_converter
from tripod.distribution import processes
from tripod.distribution.distributions import distribution

_GROUP_NAMES = {
    "train": ("trainable", "non_trainable", "optimizer", "metrics"),
    "test": ("trainable", "non_trainable", "metrics"),
    "predict": ("trainable", "non_trainable"),
}


def make_step(model, dist, fn, mode, jit_compile, run_eagerly, state_form):
    """The step for `mode` under `dist`: state placed, compiled by the engine, fed this
    process's share of each batch."""
    engine = dist.engine
    groups = model._state_groups(mode)
    engine.place(_placements(model, dist, groups, mode))
    if state_form:
        step = engine.compile_state_step(fn, groups, mode, jit_compile, run_eagerly)
    else:
        state = {name: [] for name in _GROUP_NAMES["train"]}
        state.update(zip(_GROUP_NAMES[mode], groups))
        results = None if mode == "predict" else model.get_metrics_result
        step = engine.compile_step(fn, state, mode, jit_compile, run_eagerly, results)
    if mode == "predict" and engine.local_predict:
        return step  # every row given, in this process alone
    return ProcessShareStep(step, dist, model.name)


def _placements(model, dist, groups, mode):
    """(variable, layout or None for whole on every device) for every state variable."""
    model_variables = groups[0] + groups[1]
    if dist.model_parallel:
        dist.check_keys_used([v.path for v in model_variables])
    layouts = {id(v): _split_or_none(dist.get_variable_layout(v)) for v in model_variables}
    if mode == "train" and model.optimizer is not None:
        for slot_id, variable in model.optimizer.slot_references().items():
            layouts[slot_id] = layouts.get(id(variable))
    return [(v, layouts.get(id(v))) for group in groups for v in group]


def _split_or_none(layout):
    return layout if any(axis is not None for axis in layout.axes) else None


class ProcessShareStep:
    """Checks that each global batch splits over the replicas and passes on this process's rows
    of it, as the engine says (each process's data source yields the same global batches, in
    the same order)."""

    def __init__(self, step, dist, model_name):
        self._step = step
        self._engine = dist.engine
        self._replicas = dist.num_replicas
        self._count = processes.num_processes()
        self._index = processes.process_id()
        self._what = f"{type(dist).__name__} (model '{model_name}')"

    def __call__(self, batch):
        size = _batch_size(batch)
        if size % self._replicas:
            raise ValueError(
                f"{self._what}: a batch of {size} samples does not split over the "
                f"{self._replicas} replicas; use a batch size and a number of samples (or "
                "steps) that are multiples of it, or drop the last partial batch."
            )
        if self._count > 1:
            start, stop = self._engine.process_rows(size, self._index, self._count)
            batch = batch_converter(lambda array: array[start:stop])(batch)
        return self._step(batch)

    def sync(self):
        """Write the engine step's held state back into the variables."""
        self._step.sync()


def _batch_size(batch):
    return tree.flatten(batch)[0].shape[0]


def agree_on_shuffles(adapter, shuffle):
    """Give a shuffling data adapter a generator seeded alike in every process of the run, so
    every process draws the same global batches (and each keeps its own rows of them). Without
    shuffling there is nothing to agree on and no collective: one process may predict alone."""
    dist = distribution()
    if dist is None:
        return adapter
    engine = dist.engine  # made before the model builds: torch's optimizers then do not fuse
    if shuffle and processes.num_processes() > 1 and hasattr(adapter, "rng"):
        adapter.rng = np.random.default_rng(engine.agreed_seed())
    return adapter
