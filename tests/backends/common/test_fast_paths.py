"""`TRIPOD_FAST_PATHS=0` turns every registered fast path off: a backend assembled so runs the
general path of each hook in `fast_paths.FAST_PATHS` (CI runs the layer, optimizer and trainer
tests that way on torch, the backend with the most fast paths)."""

import pytest

from tripod.backends import active, contract
from tripod.backends.common import assemble, default_hooks, derived, fast_paths

HOOKS = sorted(fast_paths.FAST_PATHS)


def _general(name):
    """The general implementation of hook `name`: the shared default or the derived one."""
    return default_hooks.HOOKS.get(name) or derived.OPS[name]


def _implementation(fn):
    """The function behind an assembled op (derived ops are partials over the backend)."""
    return getattr(fn, "func", fn)


@pytest.mark.parametrize("name", HOOKS)
def test_every_fast_path_is_a_hook_with_a_general_path(name):
    assert contract.KIND_OF[name] == "hooks"
    assert _general(name) is not None


@pytest.mark.parametrize("name", HOOKS)
def test_off_the_backend_runs_the_general_path(monkeypatch, name):
    monkeypatch.setenv("TRIPOD_FAST_PATHS", "0")
    backend = active()
    off = assemble.Backend(backend.name, backend.package)
    assert _implementation(getattr(off, name)) is _general(name)


def test_on_the_backend_keeps_its_own_kernels():
    if not fast_paths.enabled():
        pytest.skip("this run turned the fast paths off")
    backend = active()
    own = assemble.own_ops(backend.package)
    for name in HOOKS:
        expected = own[name] if name in own else _general(name)
        assert _implementation(getattr(backend, name)) is expected, name


@pytest.mark.parametrize("value, on", [("0", False), (" 0 ", False), ("1", True), ("", True)])
def test_only_zero_turns_them_off(monkeypatch, value, on):
    monkeypatch.setenv("TRIPOD_FAST_PATHS", value)
    assert fast_paths.enabled() is on
