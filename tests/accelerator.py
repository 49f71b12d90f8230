"""What the tests allow where the jax backend computes on an accelerator (a TPU, a GPU), as
`scripts/test_accelerator.sh` runs them; on a CPU every value here leaves the tests as they are.

A TPU's float32 transcendentals, square roots and divisions are within about 2e-4 of the exact
rounding, not 1e-5 (docs/accelerators.md), and one program at a time can hold the chip.
"""

import os

from tripod.backends import config

ON_ACCELERATOR = False
if config.backend() == "jax":
    import jax

    ON_ACCELERATOR = jax.default_backend() != "cpu"

#: The floor of float tolerances on an accelerator; 0 on a CPU, where the tests' own hold.
TOLERANCE = 2e-4 if ON_ACCELERATOR else 0.0


def floor(tolerance):
    """`tolerance`, raised to the accelerator's floor where the tests run on one."""
    return max(tolerance, TOLERANCE)


def child_environment(**variables):
    """The environment for a test's subprocess: this one's plus `variables`, with JAX kept on the
    CPU when this process holds an accelerator (a second program cannot open the chip)."""
    return {**os.environ, **variables, **({"JAX_PLATFORMS": "cpu"} if ON_ACCELERATOR else {})}
