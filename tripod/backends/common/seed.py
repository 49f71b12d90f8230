"""Seeds for random ops: `SeedGenerator` and the one rule that turns any `seed` into a key.

A random op's `seed` is None, an int or a `SeedGenerator`. `draw_seed` turns it into a
two-element uint32 key that the backend feeds its own generator: an int always gives the same
key; a generator gives a fresh key each draw (its state is a variable, so a jitted step carries
it); None draws from the backend's global generator.
"""

import random as _py_random

import numpy as np

import tripod.backends


class SeedGenerator:
    """A stateful source of seeds for random ops; the same seed gives the same stream."""

    def __init__(self, seed=None, name=None, **kwargs):
        backend = kwargs.pop("backend", None) or tripod.backends.active()
        if kwargs:
            raise TypeError(f"SeedGenerator: unexpected arguments {sorted(kwargs)}.")
        if seed is None:
            seed = _py_random.randint(0, 2**31 - 1)
        if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool):
            # ValueError as Keras raises it for a bad seed: ported code catches that
            raise ValueError(f"SeedGenerator: seed must be an int or None, received {seed!r}.")  # noqa: TRY004
        self.backend = backend
        self.name = name or "seed_generator"
        initial = np.array([int(seed) % 2**32, 0], dtype="uint32")
        self.state = backend.Variable(
            initial, dtype="uint32", trainable=False, name=f"{self.name}_state"
        )

    def next(self, ordered=True):
        """The current key; the state moves one step on (its second word, wrapping around)."""
        key = self.backend.copy(self.state.value)  # a snapshot: some backends assign in place
        # no NumPy constant: one made in a torch.compile trace breaks its graph
        self.state.assign(self.backend.concatenate([key[:1], self.backend.add(key[1:], 1)]))
        return key


_global_generators = {}


def global_seed_generator(backend):
    """The generator that unseeded random ops of `backend` draw from."""
    generator = _global_generators.get(backend.name)
    if generator is None:
        generator = _global_generators[backend.name] = SeedGenerator(backend=backend)
    return generator


def reset_global_seed_generators():
    """Forget the global generators, so the next unseeded draw starts from Python's random state."""
    _global_generators.clear()


def draw_seed(seed, backend):
    """A two-element uint32 key for `seed` (None, an int or a SeedGenerator) on `backend`."""
    if isinstance(seed, SeedGenerator):
        return seed.next()
    if seed is None:
        return global_seed_generator(backend).next()
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
        return np.array([int(seed) % 2**32, 0], dtype="uint32")
    raise ValueError(
        f"seed must be None, an int or a tripod.random.SeedGenerator, received {seed!r}."
    )
