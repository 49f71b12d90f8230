"""`TRIPOD_FAST_PATHS=0` turns every registered fast path off: a backend assembled so runs the
general path of each hook in `fast_paths.FAST_PATHS` (CI runs the layer, optimizer and trainer
tests that way on torch, the backend with the most fast paths)."""

import numpy as np
import pytest

import tripod
from tripod.backends import active, config, contract
from tripod.backends.common import assemble, default_hooks, derived, fast_paths
from tripod.layers.layer import frozen_structure

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


# The step machinery's fast paths (`fast_paths.MACHINERY`): branches read when a step is made.

needs_training = pytest.mark.skipif(
    config.backend() == "numpy", reason="the numpy backend is inference-only"
)
rng = np.random.default_rng(0)
X = rng.standard_normal((40, 3)).astype("float32")
Y = (X @ rng.standard_normal((3, 2))).astype("float32")


def _fit(monkeypatch, value):
    """A small model fitted for 3 epochs of 3 executions (4, 4 and a short 2 batches) with
    `TRIPOD_FAST_PATHS=value`: (model, losses)."""
    monkeypatch.setenv("TRIPOD_FAST_PATHS", value)
    tripod.utils.set_random_seed(3)
    model = tripod.Sequential(
        [tripod.Input((3,)), tripod.layers.Dense(4, activation="tanh"), tripod.layers.Dense(2)]
    )
    model.compile(optimizer="adam", loss="mse", metrics=["mae"], steps_per_execution=4)
    history = model.fit(X, Y, batch_size=4, epochs=3, verbose=0)
    return model, history.history["loss"]


@needs_training
def test_with_the_machinery_off_every_step_takes_the_general_path(monkeypatch):
    model, _ = _fit(monkeypatch, "0")
    step = model._steps["train"]
    assert not getattr(step, "fuses", False)
    assert not getattr(step, "stages", False)
    assert not getattr(step, "holds", False)
    assert all(getattr(v, "_owner", None) is None for v in model.variables)


@needs_training
def test_fit_gives_the_same_weights_with_the_machinery_on_and_off(monkeypatch):
    """Off, the step machinery and the loops' short cuts take their general paths."""
    on, on_losses = _fit(monkeypatch, "1")
    off, off_losses = _fit(monkeypatch, "0")
    np.testing.assert_allclose(on_losses, off_losses, rtol=1e-5)
    for a, b in zip(on.get_weights(), off.get_weights()):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


# The loops' and ops' short cuts (`fast_paths.SHORTCUTS`): branches read where they run.


def test_off_every_callback_gets_its_batch_hooks(monkeypatch):
    """A callback that overrides no batch hook is skipped only while the fast paths are on."""
    quiet = [tripod.callbacks.Callback()]
    monkeypatch.setenv("TRIPOD_FAST_PATHS", "1")
    assert not tripod.callbacks.CallbackList(quiet).needs_batch_hooks("train")
    monkeypatch.setenv("TRIPOD_FAST_PATHS", "0")
    assert tripod.callbacks.CallbackList(quiet).needs_batch_hooks("train")


def test_off_a_layer_scans_its_structure_at_every_lookup(monkeypatch):
    layer = tripod.layers.Dense(2)
    layer.build((None, 3))
    monkeypatch.setenv("TRIPOD_FAST_PATHS", "1")
    with frozen_structure():
        assert len(layer.trainable_weights) == 2
    assert "_structure_memo" in layer.__dict__
    del layer.__dict__["_structure_memo"]
    monkeypatch.setenv("TRIPOD_FAST_PATHS", "0")
    with frozen_structure():
        assert len(layer.trainable_weights) == 2
    assert "_structure_memo" not in layer.__dict__
