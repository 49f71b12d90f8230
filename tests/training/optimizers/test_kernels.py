"""Fused optimizer kernels (`ops.optimizer_kernel`): where a backend has one (torch), an optimizer
runs it instead of its rule written in `tripod.ops`. Over 100 steps of random gradients the two
must stay within 1e-6 of each other, relative to the variable's largest entry, in float32 and
float64. float16 and bfloat16 cannot resolve 1e-6 (one ulp is 2^-10 and 2^-7 relative): both
paths round every step's weights and slots to that grid, but at different points of the
computation, so they may land on neighbouring values, and with momentum a slot's difference is
added again on later steps. They are held within 4 and 8 ulps of the largest entry (2^-8 and
2^-4): over 20 seeds and every option set below, the largest drift seen was 2.2 and 4.2 ulps
(float32: 3.5e-7 over 10 seeds; float64: about 2e-9, Adam's float32 step size being computed
by NumPy for the kernel and by torch for the rule, which may differ in its last bit).

The reference runs with the hook answering None, which is how every backend without kernels
runs every update."""

import numpy as np
import pytest

from tripod.backends import active, config
from tripod.backends.common import stateless
from tripod.training import optimizers
from tripod.training.optimizers import schedules

ops = active()

NAMES = ("adam", "sgd", "rmsprop", "adagrad")
HAS_KERNELS = all(ops.optimizer_kernel(name) is not None for name in NAMES)
needs_kernels = pytest.mark.skipif(
    not HAS_KERNELS, reason=f"the {config.backend()} backend has no optimizer kernels"
)

RULES = [
    ("Adam", {}),
    ("Adam", {"beta_1": 0.5, "beta_2": 0.9, "epsilon": 1e-3}),
    ("AdamW", {"weight_decay": 0.1}),
    ("SGD", {}),
    ("SGD", {"momentum": 0.9}),
    ("SGD", {"momentum": 0.9, "nesterov": True}),
    ("RMSprop", {}),
    ("RMSprop", {"momentum": 0.5}),
    ("RMSprop", {"centered": True}),
    ("RMSprop", {"centered": True, "momentum": 0.5, "rho": 0.8}),
    ("Adagrad", {}),
    ("Adagrad", {"initial_accumulator_value": 0.5, "epsilon": 1e-4}),
]
#: the pipeline around the rule: clipping, decay (for some variables only), EMA, loss scaling, schedules
PIPELINE = [
    (
        "Adam",
        {"clipvalue": 0.3, "use_ema": True, "ema_momentum": 0.9, "ema_overwrite_frequency": 7},
    ),
    ("AdamW", {"global_clipnorm": 2.0, "loss_scale_factor": 8.0}),
    ("SGD", {"momentum": 0.9, "weight_decay": 0.05, "clipnorm": 1.0}),
    ("RMSprop", {"learning_rate": schedules.ExponentialDecay(0.01, 10, 0.5), "momentum": 0.5}),
    ("Adagrad", {"weight_decay": 0.1, "use_ema": True}),
]
#: how far the kernel may drift from the rule in 100 steps, relative to the largest entry
TOLERANCE = {"float64": 1e-6, "float32": 1e-6, "float16": 2.0**-8, "bfloat16": 2.0**-4}
SHAPES = [(7, 5), (5,), (3, 4, 2)]


def _ids(cases):
    """Stable test ids (xdist workers must collect the same names): objects by their class."""

    def text(value):
        return value if isinstance(value, (int, float, bool, str)) else type(value).__name__

    return [
        f"{name}-" + ",".join(f"{k}={text(v)}" for k, v in args.items()) for name, args in cases
    ]


def _run(name, args, dtype, shapes, kernels=True, reverse=False, steps=100, exclude=False):
    """The variables' values (float64) after `steps` updates from random gradients, with the
    backend's kernels or (`kernels=False`) the reference rule; `reverse` updates the variables
    in the opposite order, so they are not updated as one flat tensor."""
    rng = np.random.default_rng(0)
    init = [rng.normal(size=s) for s in shapes]
    grads = [[rng.normal(size=s) for s in shapes] for _ in range(steps)]
    variables = [
        ops.Variable(w, dtype=dtype, name=f"w{i}", path=f"dense/w{i}") for i, w in enumerate(init)
    ]
    optimizer = getattr(optimizers, name)(**{"learning_rate": 0.01, **args})
    optimizer.build(variables)
    if exclude:
        optimizer.exclude_from_weight_decay(var_list=variables[1:2])
    order = slice(None, None, -1 if reverse else 1)
    hook = ops.optimizer_kernel
    if not kernels:
        ops.optimizer_kernel = lambda kernel_name: None
    try:
        for step in grads:
            optimizer.apply(
                [ops.convert_to_tensor(g, dtype) for g in step][order], variables[order]
            )
    finally:
        ops.optimizer_kernel = hook
    optimizer.finalize_variable_values(variables)
    return [ops.convert_to_numpy(ops.cast(v.value, "float64")) for v in variables], optimizer


def _assert_close(actual, expected, tolerance):
    for i, (a, e) in enumerate(zip(actual, expected)):
        drift = np.max(np.abs(a - e)) / np.max(np.abs(e))
        assert drift <= tolerance, f"variable {i}: drift {drift:.3g} > {tolerance:.3g}"


@needs_kernels
@pytest.mark.parametrize("reverse", [False, True], ids=["flat", "per-variable"])
@pytest.mark.parametrize("name, args", RULES, ids=_ids(RULES))
def test_kernel_matches_rule_float32(name, args, reverse):
    """Several variables, updated as one flat tensor (build order) or variable by variable."""
    got, _ = _run(name, args, "float32", SHAPES, reverse=reverse)
    want, _ = _run(name, args, "float32", SHAPES, kernels=False, reverse=reverse)
    _assert_close(got, want, TOLERANCE["float32"])


@needs_kernels
@pytest.mark.parametrize("dtype", ["float64", "float16", "bfloat16"])
@pytest.mark.parametrize("name, args", RULES, ids=_ids(RULES))
def test_kernel_matches_rule_other_dtypes(name, args, dtype):
    """One variable (never fused) per dtype: the kernel computes in the variable's dtype."""
    got, _ = _run(name, args, dtype, [(6, 5, 2)])
    want, _ = _run(name, args, dtype, [(6, 5, 2)], kernels=False)
    _assert_close(got, want, TOLERANCE[dtype])


@needs_kernels
@pytest.mark.parametrize("exclude", [False, True], ids=["all-decay", "one-excluded"])
@pytest.mark.parametrize("name, args", PIPELINE, ids=_ids(PIPELINE))
def test_pipeline_around_the_kernel(name, args, exclude):
    """Clipping, weight decay (also when one variable is excluded, which stops the flat
    update), EMA, loss scaling and schedules act as they do around the rule."""
    got, _ = _run(name, args, "float32", SHAPES, exclude=exclude)
    want, _ = _run(name, args, "float32", SHAPES, kernels=False, exclude=exclude)
    _assert_close(got, want, TOLERANCE["float32"])


class _Counting:
    """Wraps the hook to count the updates its kernels made."""

    def __init__(self, hook):
        self.hook, self.updates = hook, 0

    def __call__(self, name):
        kernel = self.hook(name)
        if kernel is None:
            return None

        def counted(*args, **kwargs):
            ran = kernel(*args, **kwargs)
            self.updates += bool(ran)
            return ran

        return counted


def _kernel_updates(monkeypatch, make, steps=3, scope=None):
    """How many of `steps` updates of two float32 variables by optimizer `make()` ran a kernel."""
    counting = _Counting(ops.optimizer_kernel)
    monkeypatch.setattr(ops, "optimizer_kernel", counting)
    variables = [
        ops.Variable(np.ones(s, "float32"), name=f"w{i}") for i, s in enumerate([(3, 2), (2,)])
    ]
    optimizer = make()
    for _ in range(steps):
        grads = [ops.ones((3, 2)), ops.ones((2,))]
        if scope is None:
            optimizer.apply(grads, variables)
        else:
            with scope():
                optimizer.apply(grads, variables)
    return counting.updates


@needs_kernels
@pytest.mark.parametrize("name, args", RULES, ids=_ids(RULES))
def test_every_update_runs_the_kernel(monkeypatch, name, args):
    assert _kernel_updates(monkeypatch, lambda: getattr(optimizers, name)(**args)) == 3


class _OwnAdam(optimizers.Adam):
    """A user's Adam with its own rule: its override must run, not the kernel."""

    def update_step(self, gradient, variable, learning_rate):
        variable.assign_sub(ops.multiply(gradient, learning_rate))


STEPPING_ASIDE = {
    "amsgrad": lambda: optimizers.Adam(amsgrad=True),
    "accumulation": lambda: optimizers.SGD(momentum=0.9, gradient_accumulation_steps=2),
    "loss-scale-optimizer": lambda: optimizers.LossScaleOptimizer(optimizers.Adam()),
    "overridden-rule": _OwnAdam,
    "no-kernel-for-nadam": optimizers.Nadam,
}


@needs_kernels
@pytest.mark.parametrize("make", STEPPING_ASIDE.values(), ids=STEPPING_ASIDE.keys())
def test_kernel_steps_aside(monkeypatch, make):
    """Configurations a kernel does not compute, and updates recorded by a pure step, run the rule."""
    assert _kernel_updates(monkeypatch, make) == 0


@needs_kernels
def test_stateless_updates_run_the_rule(monkeypatch):
    assert _kernel_updates(monkeypatch, optimizers.Adam, scope=stateless.StatelessScope) == 0


def test_overridden_rule_is_the_one_applied():
    variable = ops.Variable(np.ones(3, "float32"), name="w")
    _OwnAdam(learning_rate=0.5).apply([ops.ones((3,))], [variable])
    np.testing.assert_allclose(variable.numpy(), np.full(3, 0.5))


@pytest.mark.skipif(
    HAS_KERNELS, reason=f"the {config.backend()} backend has kernels: the tests above check them"
)
def test_backends_without_kernels_answer_none():
    assert all(ops.optimizer_kernel(name) is None for name in NAMES)


@needs_kernels
def test_variables_stay_independent_and_savable():
    """After kernel updates of the flat buffers, each variable still reads its own slice, an
    assignment to one leaves the others alone, and the state saves and loads."""
    got, optimizer = _run("Adam", {}, "float32", SHAPES, steps=5)
    variables = optimizer._trainable_variables
    for value, variable in zip(got, variables):
        np.testing.assert_array_equal(value, variable.numpy())
    variables[0].assign(np.zeros(SHAPES[0], "float32"))
    np.testing.assert_array_equal(variables[1].numpy(), got[1])
    store = {}
    optimizer.save_own_variables(store)
    restored = optimizers.Adam(learning_rate=0.01)
    restored.build(
        [ops.Variable(np.zeros(s, "float32"), name=f"w{i}") for i, s in enumerate(SHAPES)]
    )
    restored.load_own_variables(store)
    for a, b in zip(restored.variables, optimizer.variables):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
