"""The contract holds: the active backend implements every op, with the contract's signature."""

import inspect

import pytest

from tripod.backends import active, contract, load
from tripod.backends.common import assemble, derived

BACKENDS = sorted({"numpy", active().name})


def _params(fn):
    return [(p.name, p.kind, p.default) for p in inspect.signature(fn).parameters.values()]


@pytest.mark.parametrize("name", BACKENDS)
def test_every_op_is_implemented(name):
    assert load(name).missing == []


@pytest.mark.parametrize("name", BACKENDS)
def test_no_op_outside_the_contract(name):
    package = load(name).package
    for kind in contract.KINDS:
        extra = set(assemble.own_ops(package, kind)) - set(contract.OPS_BY_KIND[kind])
        assert not extra, f"{name} {kind} ops not in the contract: {sorted(extra)}"
    assert set(package.KIND_MODULES) == set(contract.KINDS)


@pytest.mark.parametrize("name", BACKENDS)
def test_signatures_match_the_contract(name):
    backend = load(name)
    for op, stub in contract.OPS.items():
        assert _params(getattr(backend, op)) == _params(stub), f"{name}: ops.{op}"


def test_derived_ops_are_contract_ops_with_the_contract_signature():
    for op, fn in derived.OPS.items():
        assert op in contract.OPS, op
        assert _params(fn)[1:] == _params(contract.OPS[op]), op


def test_every_contract_op_has_a_docstring():
    for op, stub in contract.OPS.items():
        doc = inspect.getdoc(stub) or ""
        assert doc and doc != "DOC", f"ops.{op} has no docstring"
