"""`tripod.testing`: check that a model gives the same outputs on every installed backend.

`check_backend_parity(model_or_path, inputs)` runs one checkpoint on each backend in its own
subprocess and returns a `ParityReport` of the largest absolute and relative differences from
the reference backend, per output and optionally per layer. The same check from a shell:
`python -m tripod.testing parity MODEL.keras INPUTS.npz`. See docs/parity.md.
"""

from tripod.backends.common.compare import Comparison
from tripod.testing.launcher import LaunchError, launch
from tripod.testing.parity import check_backend_parity, installed_backends
from tripod.testing.report import ParityError, ParityReport

__all__ = [
    "Comparison",
    "LaunchError",
    "ParityError",
    "ParityReport",
    "check_backend_parity",
    "installed_backends",
    "launch",
]
