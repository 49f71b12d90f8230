"""`DataLayer`: the base of preprocessing layers, which run inside models and in input pipelines.

Called on tensors of another framework than the active backend's — `tf.Tensor`s in a `tf.data`
map, `torch.Tensor`s in a `DataLoader` worker — a data layer computes with that framework's
backend ops (the one sanctioned use of a second backend, loaded only when such input arrives).
Its `call` therefore uses `self.backend`, never the module-level `ops`, reads the tensors it
prepared at build time through `Constant.on(self.backend)` and variables through
`self.value_of`, and draws its randomness through `self.random_key()`.
"""

import random as _py_random
import threading

import numpy as np

import tripod.backends
from tripod.backends import dtypes
from tripod.backends.common import frameworks, tree
from tripod.backends.common.seed import SeedGenerator
from tripod.layers.input_spec import assert_input_compatibility
from tripod.layers.layer import Layer

_active = tripod.backends.active()
_NESTED = (list, tuple, dict)


class _Override(threading.local):
    """The backend a data layer's call computes with in this thread, when not the active one."""

    backend = None


_override = _Override()


def input_framework(inputs):
    """The framework ("tensorflow", "torch", "jax") of a layer's first input, else None."""
    if isinstance(inputs, _NESTED):
        return frameworks.framework_of_structure(inputs)
    return frameworks.framework_of(inputs)


class Constant:
    """A tensor a data layer's `call` reads, made from host data once per backend that calls it.

    Each backend's copy lives in a non-trainable variable of that backend (not one of the layer's
    weights), so it outlives the trace it was first needed in: a `jax.jit`, a `tf.data` map.
    """

    __slots__ = ("_held", "dtype", "host")

    def __init__(self, value, dtype=None):
        self.dtype = dtypes.standardize_dtype(dtype or np.asarray(value).dtype)
        self.host = np.asarray(value, dtype=dtypes.to_numpy(self.dtype))
        self._held = {}

    def on(self, backend):
        """This constant as a tensor of `backend`."""
        held = self._held.get(backend.name)
        if held is None:
            held = backend.Variable(
                self.host, dtype=self.dtype, trainable=False, autocast=False, name="constant"
            )
            self._held[backend.name] = held
        # The native value, without `Variable.value`'s lookups: no stateless scope maps a
        # constant, and it is never autocast.
        return held._read()


def _worker_stream_seed(seed, worker):
    """The seed of a worker's stream: the layer's seed (or a fresh one) mixed with the worker's."""
    base = _py_random.randint(0, 2**31 - 1) if seed is None else seed
    return (base * 1_000_003 + worker) % 2**31


def _cast_floats(backend, inputs, dtype):
    """`inputs` with floating tensors cast to `dtype`: `Layer.__call__`'s autocast, on `backend`."""

    def cast(x):
        if not backend.is_tensor(x):
            return x
        try:
            x_dtype = backend.dtype(x)
        except TypeError:  # a dtype tripod has no name for (tf.string): not a float
            return x
        return backend.cast(x, dtype) if x_dtype != dtype and dtypes.is_float(x_dtype) else x

    return tree.map_structure(cast, inputs)


class DataLayer(Layer):
    """A layer whose call works on the active backend's tensors and, in input pipelines, on
    another framework's (see the module docstring).

    A subclass that draws random numbers sets `random = True`: it then holds a `seed_generator`
    (its state is a variable, so compiled steps carry it) seeded by `seed`.
    """

    _UNTRACKED = Layer._UNTRACKED | {"_pipeline_generators"}
    random = False

    def __init__(self, seed=None, **kwargs):
        super().__init__(**kwargs)
        self.seed = seed
        self._pipeline_generators = {}
        if self.random:
            self.seed_generator = SeedGenerator(seed)

    @property
    def backend(self):
        """The ops this call computes with: the pipeline framework's backend, else the active
        one."""
        return _override.backend or _active

    def random_key(self):
        """A fresh two-word uint32 key on `self.backend` from this layer's seed stream (one
        stream per backend, each starting from `seed`; in a framework's worker process, one per
        worker seed, so workers and epochs draw differently)."""
        backend = self.backend
        worker = backend.worker_seed()
        if backend is _active and worker is None:
            return self.seed_generator.next()
        generator = self._pipeline_generators.get((backend.name, worker))
        if generator is None:
            seed = self.seed if worker is None else _worker_stream_seed(self.seed, worker)
            generator = SeedGenerator(seed, backend=backend)
            self._pipeline_generators[(backend.name, worker)] = generator
        return generator.next()

    def value_of(self, variable):
        """`variable`'s value as a tensor of `self.backend` (through NumPy off the active one)."""
        backend = self.backend
        if backend is _active:
            return variable.value
        return backend.convert_to_tensor(variable.numpy())

    def __call__(self, *args, **kwargs):
        name = input_framework(args[0]) if args else None
        if name is None or name == _active.name:
            return super().__call__(*args, **kwargs)
        return self._pipeline_call(tripod.backends.load(name), args, kwargs)

    def _pipeline_call(self, backend, args, kwargs):
        """`call` on another framework's tensors, computed with `backend`'s ops: the build, input
        check and float autocast `Layer.__call__` does, without its model bookkeeping."""
        if not self.built:
            self._maybe_build(args, kwargs)
        if self.input_spec is not None:
            assert_input_compatibility(self.input_spec, args[0], self.name)
        if self.autocast:
            args = (_cast_floats(backend, args[0], self.compute_dtype),) + args[1:]
        if not self._call_has_training_arg:
            kwargs.pop("training", None)
        if not self._call_has_mask_arg:
            kwargs.pop("mask", None)
        outer = _override.backend
        _override.backend = backend
        try:
            return self.call(*args, **kwargs)
        finally:
            _override.backend = outer
