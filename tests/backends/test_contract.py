"""The contract holds: the active backend implements every op, with the contract's signature,
and registers (in its op modules' `__all__`) contract ops only, each once."""

import collections
import inspect
import types

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
def test_registered_names_are_contract_ops(name):
    for module_name, op in assemble.registrations(load(name).package):
        assert op in contract.OPS, f"{module_name} registers {op!r}, which is not a contract op"


@pytest.mark.parametrize("name", BACKENDS)
def test_every_op_is_registered_once(name):
    registered = collections.Counter(op for _, op in assemble.registrations(load(name).package))
    assert [op for op, count in registered.items() if count > 1] == []


@pytest.mark.parametrize("name", BACKENDS)
def test_registered_ops_carry_their_op_name(name):
    for op, fn in assemble.own_ops(load(name).package).items():
        assert (fn.__name__, fn.__qualname__) == (op, op), f"{name}: {fn.__module__}.{op}"


def test_only_registered_names_are_ops():
    helper = types.ModuleType("helper_module")
    helper.__all__ = ["add"]
    helper.add = lambda x1, x2: x1 + x2
    helper.shared_helper = lambda x: x
    assert assemble.own_ops(types.SimpleNamespace(OP_MODULES=(helper,))) == {"add": helper.add}


def test_an_op_registered_twice_or_outside_the_contract_is_an_error():
    first, second = types.ModuleType("first"), types.ModuleType("second")
    first.__all__, second.__all__ = ["add"], ["add"]
    first.add = second.add = lambda x1, x2: x1 + x2
    with pytest.raises(TypeError, match="'add' a second time"):
        assemble.own_ops(types.SimpleNamespace(OP_MODULES=(first, second)))
    second.__all__, second.shared_helper = ["shared_helper"], first.add
    with pytest.raises(TypeError, match="'shared_helper', not a contract op"):
        assemble.own_ops(types.SimpleNamespace(OP_MODULES=(first, second)))


def test_derived_ops_are_registered_once():
    registered = collections.Counter(op for module in derived.MODULES for op in module.__all__)
    assert [op for op, count in registered.items() if count > 1] == []


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
