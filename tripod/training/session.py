"""Process-wide state: random seeds and the names handed out so far."""

import random

import numpy as np

from tripod.backends.common import seed as seeds
from tripod.backends.common import variables
from tripod.layers import initializers, naming


def set_random_seed(seed):
    """Seed Python, NumPy, the host stream initializers draw from and the unseeded random ops,
    so that building and training a model is reproducible on a backend (and initial weights
    identical on every backend)."""
    if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool):
        # ValueError, not TypeError: Keras raises ValueError here, and ported code catches it
        raise ValueError(  # noqa: TRY004
            f"set_random_seed: seed must be an int, received {seed!r}."
        )
    random.seed(seed)
    np.random.seed(seed % 2**32)
    initializers.set_host_seed(seed)
    seeds.reset_global_seed_generators()


def clear_session(free_memory=True):
    """Forget the names handed out to layers and unnamed variables (the next Dense is `dense`
    again, the next unnamed variable `variable`)."""
    naming.reset()
    variables.reset_auto_names()
