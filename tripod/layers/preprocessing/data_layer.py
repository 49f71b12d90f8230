"""`DataLayer`: the base of preprocessing layers, which run inside models and in input pipelines.

Called on tensors of another framework than the active backend's — `tf.Tensor`s in a `tf.data`
map, `torch.Tensor`s in a `DataLoader` worker — a data layer computes with that framework's
backend ops (the one sanctioned use of a second backend, loaded only when such input arrives).
Its `call` therefore uses `self.backend`, never the module-level `ops`, and draws its randomness
through `self.random_key()`.
"""

import threading

import tripod.backends
from tripod.backends.common import frameworks, tree
from tripod.backends.common.seed import SeedGenerator
from tripod.layers.layer import Layer

_active = tripod.backends.active()


class _Override(threading.local):
    """The backend a data layer's call computes with in this thread, when not the active one."""

    backend = None


_override = _Override()


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
        """The ops this call computes with: the pipeline framework's backend, else the active one."""
        return _override.backend or _active

    def random_key(self):
        """A fresh two-word uint32 key on `self.backend` from this layer's seed stream."""
        backend = self.backend
        if backend is _active:
            generator = self.seed_generator
        else:
            generator = self._pipeline_generators.get(backend.name)
            if generator is None:
                generator = SeedGenerator(self.seed, backend=backend)
                self._pipeline_generators[backend.name] = generator
        return generator.next()

    def __call__(self, *args, **kwargs):
        name = frameworks.framework_of_structure(args[:1])
        if name is None or name == _active.name or _override.backend is not None:
            return super().__call__(*args, **kwargs)
        return self._pipeline_call(tripod.backends.load(name), args, kwargs)

    def _pipeline_call(self, backend, args, kwargs):
        """`call` on another framework's tensors, computed with `backend`'s ops."""
        if not self.built:
            shapes = tree.map_structure(lambda x: tuple(backend.shape(x)), args[0])
            self.build(shapes)
            self.built = True
        if not self._call_has_training_arg:
            kwargs.pop("training", None)
        _override.backend = backend
        try:
            return self.call(*args, **kwargs)
        finally:
            _override.backend = None
