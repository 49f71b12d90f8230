"""`tripod.random`: random ops of the active backend, and `SeedGenerator`."""

from tripod.backends import active, contract
from tripod.backends.common.seed import SeedGenerator

_backend = active()
globals().update(
    {
        name: getattr(_backend, name)
        for name in contract.OPS_BY_KIND["random"]
        if hasattr(_backend, name)
    }
)

__all__ = ["SeedGenerator", *contract.OPS_BY_KIND["random"]]
