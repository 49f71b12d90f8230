"""torch's `vectorized_map` runs a function `torch.vmap` cannot batch once per element, and says
so with a warning (a silent fallback would hide a slowdown of the batch size's factor)."""

import numpy as np
import pytest

from tripod import ops
from tripod.backends import config

if config.backend() != "torch":
    pytest.skip("torch.vmap's fallback", allow_module_level=True)


def _sign_flip(x):
    """Data-dependent Python control flow: vmap cannot batch it."""
    return x if float(ops.sum(x)) > 0 else ops.negative(x)


def test_a_function_vmap_cannot_batch_runs_per_element_with_a_warning():
    x = np.array([[1.0, 2.0], [-3.0, -1.0]], "float32")
    with pytest.warns(UserWarning, match="vectorized_map: torch.vmap cannot batch '_sign_flip'"):
        out = ops.vectorized_map(_sign_flip, x)
    np.testing.assert_array_equal(ops.convert_to_numpy(out), [[1.0, 2.0], [3.0, 1.0]])
