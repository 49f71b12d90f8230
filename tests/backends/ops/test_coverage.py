"""Every public contract op is exercised by at least one test, in the test module of its kind."""

import pytest

from tests.backends.ops import (
    test_core,
    test_image,
    test_linalg,
    test_math,
    test_nn,
    test_numpy_ops,
    test_numpy_ops_arrays,
    test_random,
)
from tripod.backends import contract

TESTED_BY_KIND = {
    "core": test_core.TESTED,
    "numpy": test_numpy_ops.TESTED | test_numpy_ops_arrays.TESTED,
    "nn": test_nn.TESTED,
    "math": test_math.TESTED,
    "linalg": test_linalg.TESTED,
    "image": test_image.TESTED,
    "random": test_random.TESTED,
}


@pytest.mark.parametrize("kind", contract.PUBLIC_KINDS)
def test_every_op_of_a_kind_is_tested(kind):
    untested = set(contract.OPS_BY_KIND[kind]) - TESTED_BY_KIND[kind]
    assert not untested, f"{kind} ops without a test: {sorted(untested)}"


@pytest.mark.parametrize("kind", contract.PUBLIC_KINDS)
def test_tests_name_only_contract_ops(kind):
    unknown = TESTED_BY_KIND[kind] - set(contract.OPS_BY_KIND[kind])
    assert not unknown, f"tests of {kind} name ops outside its contract: {sorted(unknown)}"
