"""`tripod.random`: random ops of the active backend and `SeedGenerator`; the ops are built in tripod/api/random.py from the ops contract."""

from tripod.api.random import (
    beta,
    binomial,
    categorical,
    dropout,
    gamma,
    normal,
    randint,
    shuffle,
    truncated_normal,
    uniform,
)
from tripod.backends.common.seed import SeedGenerator

__all__ = [
    "SeedGenerator",
    "beta",
    "binomial",
    "categorical",
    "dropout",
    "gamma",
    "normal",
    "randint",
    "shuffle",
    "truncated_normal",
    "uniform",
]
