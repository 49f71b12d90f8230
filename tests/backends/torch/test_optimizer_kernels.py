"""Torch's fused optimizer kernels on their own: when the hook offers them, and the updates they
decline (leaving every tensor as it was) so the optimizer runs its rule instead. Their results
against the rule are checked in tests/training/optimizers/test_kernels.py."""

import numpy as np
import pytest

from tripod.backends import active, config
from tripod.training import optimizers

if config.backend() != "torch":
    pytest.skip("torch's optimizer kernels", allow_module_level=True)

import torch  # only once the torch backend is known to be active

from tripod.backends.torch import optimizer_kernels

ops = active()

NUMBERS = {
    "adam": {"step_size": 0.1, "beta_1": 0.9, "beta_2": 0.999, "epsilon": 1e-7},
    "sgd": {"learning_rate": 0.1, "momentum": 0.9, "nesterov": True},
    "rmsprop": {
        "learning_rate": 0.1,
        "rho": 0.9,
        "momentum": 0.5,
        "epsilon": 1e-7,
        "centered": True,
    },
    "adagrad": {"learning_rate": 0.1, "epsilon": 1e-7},
}
SLOTS = {"adam": 2, "sgd": 1, "rmsprop": 3, "adagrad": 1}


def _tensors(count, dtype):
    return [torch.full((3, 2), 0.5, dtype=dtype) for _ in range(count)]


@pytest.mark.parametrize("name", NUMBERS)
def test_the_hook_offers_each_kernel(name):
    assert ops.optimizer_kernel(name) is optimizer_kernels.KERNELS[name]


def test_no_kernel_for_other_rules():
    assert ops.optimizer_kernel("nadam") is None


@pytest.mark.parametrize("name", NUMBERS)
@pytest.mark.parametrize(
    "grad_dtype, variable_dtype",
    [(torch.float64, torch.float32), (torch.float32, torch.float16), (torch.int32, torch.int32)],
    ids=["float64-grads", "float16-variables", "integers"],
)
def test_kernels_decline_what_they_cannot_update(name, grad_dtype, variable_dtype):
    """Mixed dtypes (the rule would promote them) and integers: False, and nothing changed."""
    variables, slots = (
        _tensors(2, variable_dtype),
        [_tensors(2, variable_dtype) for _ in range(SLOTS[name])],
    )
    grads = [torch.ones((3, 2), dtype=grad_dtype) for _ in range(2)]
    kernel = optimizer_kernels.KERNELS[name]
    assert kernel(variables, grads, *slots, **NUMBERS[name]) is False
    for tensor in variables + [t for slot in slots for t in slot]:
        assert torch.equal(tensor, torch.full((3, 2), 0.5, dtype=variable_dtype))


@pytest.mark.parametrize("name", NUMBERS)
def test_kernels_leave_no_variables_to_the_rule(name):
    """A model without weights updates nothing: the rule's empty loop handles it."""
    assert (
        optimizer_kernels.KERNELS[name]([], [], *[[] for _ in range(SLOTS[name])], **NUMBERS[name])
        is False
    )


def test_no_kernel_inside_a_torch_compile_trace(monkeypatch):
    """torch.compile traces the rule itself (the kernels read Python numbers off tensors)."""
    monkeypatch.setattr(torch.compiler, "is_compiling", lambda: True)
    assert ops.optimizer_kernel("adam") is None


def test_no_kernel_under_a_distribution_engine(monkeypatch):
    """Distributed parameters may be DTensors, which the kernels do not update."""
    monkeypatch.setattr(optimizer_kernels.distribution, "engaged", lambda: True)
    assert ops.optimizer_kernel("sgd") is None


def test_sgd_kernel_by_hand():
    """Nesterov momentum with numbers small enough to follow: m = 0.9 m - 0.1 g, then
    w += 0.9 m - 0.1 g."""
    variables, momentums = [torch.tensor([1.0, 2.0])], [torch.tensor([0.5, -0.5])]
    grads = [torch.tensor([1.0, -2.0])]
    assert optimizer_kernels.sgd(
        variables, grads, momentums, learning_rate=0.1, momentum=0.9, nesterov=True
    )
    np.testing.assert_allclose(momentums[0].numpy(), [0.35, -0.25], rtol=1e-6)
    np.testing.assert_allclose(
        variables[0].numpy(), [1.0 + 0.315 - 0.1, 2.0 - 0.225 + 0.2], rtol=1e-6
    )


def test_fused_float64_variables_keep_their_dtype():
    """Fusing keeps the variables' dtype: the flat buffer was once made in floatx, so float64
    variables silently came to hold float32 storage."""
    variables = [
        ops.Variable(np.ones(s), dtype="float64", name=f"w{i}")
        for i, s in enumerate([(3, 2), (2,)])
    ]
    optimizers.SGD(0.1).apply([ops.ones((3, 2), "float64"), ops.ones((2,), "float64")], variables)
    assert [v.value.dtype for v in variables] == [torch.float64, torch.float64]
