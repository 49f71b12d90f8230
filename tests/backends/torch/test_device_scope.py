"""`tripod.device` on torch: tripod's own tensor factories follow the scope, not a fixed device."""

import numpy as np
import pytest

import tripod
from tripod import ops
from tripod.backends import config

pytestmark = pytest.mark.skipif(config.backend() != "torch", reason="torch's device scope")


def test_tensors_made_inside_the_scope_go_to_its_device():
    # "meta" is a device every torch build has: it shows the placement without a GPU.
    with tripod.device("meta"):
        made = [
            ops.convert_to_tensor(np.ones(3, "float32")),  # from host data
            ops.convert_to_tensor([1.0, 2.0]),  # from Python values
            ops.arange(4),
            ops.full((2,), 3.0),
            ops.eye(2),
        ]
    assert [x.device.type for x in made] == ["meta"] * len(made)
    assert ops.convert_to_tensor(np.ones(3, "float32")).device.type == "cpu"  # restored


def test_the_scope_is_restored_after_an_error():
    with pytest.raises(RuntimeError, match="boom"), tripod.device("meta"):
        raise RuntimeError("boom")
    assert ops.arange(2).device.type == "cpu"
