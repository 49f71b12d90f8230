"""The torch backend's short cuts on the hot path of a transformer step: the fused dense step of
rank-3 inputs through torch's linear, layer normalization's scale and offset taken as they come,
attention operands of one float dtype passed without promotion, an embedding lookup as one
kernel, and batch normalization written in place when autograd records nothing. Each is checked
against NumPy and against the longer formula it replaces."""

import numpy as np
import pytest

from tripod.backends import config

if config.backend() != "torch":
    pytest.skip("the torch backend's own short cuts", allow_module_level=True)

import torch  # only once the torch backend is known to be active

from tripod.backends.torch import arrays, hooks
from tripod.backends.torch import nn as torch_nn

RNG = np.random.default_rng(7)


def randn(*shape, dtype="float32"):
    return RNG.standard_normal(shape).astype(dtype)


def _dense_by_rows(x, kernel, bias):
    """The dense step as it was written before: addmm over the rows of a reshaped input."""
    rows = torch.addmm(bias, x.reshape(-1, x.shape[-1]), kernel)
    return rows.reshape(*x.shape[:-1], kernel.shape[-1])


@pytest.mark.parametrize(
    "layout", ["rows", "contiguous_3d", "transposed_3d", "contiguous_4d", "float64_3d"]
)
def test_matmul_with_bias_matches_numpy_and_the_row_formula(layout):
    dtype = "float64" if layout == "float64_3d" else "float32"
    shape = {"rows": (6, 5), "contiguous_4d": (2, 3, 4, 5)}.get(layout, (2, 3, 5))
    x = torch.from_numpy(randn(*shape, dtype=dtype))
    if layout == "transposed_3d":
        x = torch.from_numpy(randn(3, 2, 5, dtype=dtype)).transpose(0, 1)
    kernel, bias = (torch.from_numpy(randn(*s, dtype=dtype)) for s in ((5, 4), (4,)))
    out = hooks.matmul_with_bias(x, kernel, bias)
    expected = x.numpy() @ kernel.numpy() + bias.numpy()
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-5, atol=1e-5)
    assert out.dtype == x.dtype and tuple(out.shape) == expected.shape
    assert torch.equal(out, _dense_by_rows(x, kernel, bias))


def test_matmul_with_bias_gradients_match_the_row_formula():
    values = [randn(*s) for s in ((2, 3, 5), (5, 4), (4,))]
    upstream = torch.from_numpy(randn(2, 3, 4))

    def grads(step):
        operands = [torch.from_numpy(v).requires_grad_() for v in values]
        (step(*operands) * upstream).sum().backward()
        return [t.grad for t in operands]

    for got, want in zip(grads(hooks.matmul_with_bias), grads(_dense_by_rows)):
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-6, atol=1e-6)


def _layer_norm_reference(x, gamma, beta, axes, epsilon):
    mean = x.mean(axis=axes, keepdims=True)
    normalized = (x - mean) / np.sqrt(x.var(axis=axes, keepdims=True) + epsilon)
    return normalized * gamma + beta


@pytest.mark.parametrize(
    "case", ["as_is", "float64_weights", "weights_with_unit_axes", "numpy_weights", "two_axes"]
)
def test_layer_normalization_takes_scale_and_offset_in_any_form(case):
    x = randn(2, 3, 4)
    axes = (1, 2) if case == "two_axes" else (2,)
    weight_shape = (3, 4) if case == "two_axes" else (4,)
    gamma, beta = randn(*weight_shape), randn(*weight_shape)
    expected = _layer_norm_reference(x.astype("float64"), gamma, beta, axes, 1e-3)
    if case == "float64_weights":
        gamma, beta = gamma.astype("float64"), beta.astype("float64")
    if case == "weights_with_unit_axes":
        gamma, beta = gamma.reshape(1, 4), beta.reshape(1, 4)
    if case != "numpy_weights":
        gamma, beta = torch.from_numpy(gamma), torch.from_numpy(beta)
    out = torch_nn.layer_normalization(torch.from_numpy(x), gamma, beta, axis=axes, epsilon=1e-3)
    assert out.dtype == torch.float32
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-5, atol=1e-5)


def _attention_reference(q, k, v):
    """Softmax attention of (B, T, N, H) heads, in float64."""
    logits = np.einsum("btnh,bsnh->bnts", q, k) / np.sqrt(q.shape[-1])
    weights = np.exp(logits - logits.max(-1, keepdims=True))
    weights /= weights.sum(-1, keepdims=True)
    return np.einsum("bnts,bsnh->btnh", weights, v)


@pytest.mark.parametrize(
    "dtypes, result",
    [
        (("float32",) * 3, torch.float32),
        (("float64",) * 3, torch.float64),
        (("float16", "float32", "float32"), torch.float32),
        (("int32",) * 3, torch.float32),
    ],
)
def test_attention_operands_of_one_float_dtype_keep_it(dtypes, result):
    q, k, v = (randn(2, 3, 2, 4) for _ in range(3))
    if dtypes[0] == "int32":
        q, k, v = (np.round(t * 2) for t in (q, k, v))
    tensors = [torch.from_numpy(t.astype(d)) for t, d in zip((q, k, v), dtypes)]
    out = torch_nn.dot_product_attention(*tensors)
    assert out.dtype == result
    # The float16 query is rounded: compare against the values actually passed.
    exact = [t.double().numpy() for t in tensors]
    np.testing.assert_allclose(
        out.double().numpy(), _attention_reference(*exact), rtol=1e-4, atol=1e-4
    )


@pytest.mark.parametrize("index_dtype", ["int32", "int64"])
@pytest.mark.parametrize(
    "ids", [[[3, 0], [5, 3]], [[-1, 0], [2, -6]]], ids=["in_range", "negative"]
)
def test_take_rows_matches_numpy_and_the_index_select_gradient(index_dtype, ids):
    table = randn(6, 4)
    ids = np.array(ids, index_dtype)
    weights = torch.tensor(table, requires_grad=True)
    rows = arrays.take(weights, torch.from_numpy(ids), axis=0)
    np.testing.assert_array_equal(rows.detach().numpy(), np.take(table, ids, axis=0))
    (rows * torch.arange(rows.numel()).reshape(rows.shape)).sum().backward()
    expected = torch.zeros(6, 4).index_add_(
        0, torch.from_numpy(ids % 6).long().reshape(-1), torch.arange(16.0).reshape(4, 4)
    )
    torch.testing.assert_close(weights.grad, expected, rtol=0, atol=0)


def test_take_rows_out_of_range_still_raises():
    with pytest.raises((IndexError, RuntimeError)):
        arrays.take(torch.zeros(3, 2), torch.tensor([3]), axis=0)


@pytest.mark.parametrize("shape", [(3, -1), [2, 6], (np.int64(12),), 12])
def test_reshape_takes_every_shape_spelling(shape):
    x = np.arange(12.0, dtype="float32")
    np.testing.assert_array_equal(
        arrays.reshape(torch.from_numpy(x), shape).numpy(), x.reshape(shape)
    )


@pytest.mark.parametrize("offset", [True, False])
@pytest.mark.parametrize("grad_enabled", [True, False])
def test_batch_normalization_writes_in_place_only_outside_autograd(offset, grad_enabled):
    x, mean, var, scale, shift = randn(4, 3, 5), randn(5), randn(5) ** 2, randn(5), randn(5)
    expected = (x - mean) / np.sqrt(var + 1e-3) * scale + (shift if offset else 0)
    inputs = torch.from_numpy(x.copy()).requires_grad_(grad_enabled)
    mean, var, shift, scale = (
        None if p is None else torch.from_numpy(p)
        for p in (mean, var, shift if offset else None, scale)
    )
    with torch.set_grad_enabled(grad_enabled):
        got = torch_nn.batch_normalization(inputs, mean, var, -1, shift, scale)
    np.testing.assert_allclose(got.detach().numpy(), expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(inputs.detach().numpy(), x)  # the input itself is untouched
    assert got.requires_grad is grad_enabled
    if grad_enabled:  # autograd still differentiates it: d sum / dx is the per-feature factor
        got.sum().backward()
        factor = scale.numpy() / np.sqrt(var.numpy() + 1e-3)
        np.testing.assert_allclose(inputs.grad.numpy(), np.broadcast_to(factor, x.shape), rtol=1e-5)


def test_batch_normalization_off_the_fast_paths_writes_a_new_tensor(monkeypatch):
    """`TRIPOD_FAST_PATHS=0` turns the in-place write off (`fast_paths.SHORTCUTS`); the result is
    the same to the bit."""
    x, mean, var = (torch.from_numpy(a) for a in (randn(4, 5), randn(5), randn(5) ** 2))
    monkeypatch.setenv("TRIPOD_FAST_PATHS", "1")
    with torch.no_grad():
        assert torch_nn._writable_in_place()
        on = torch_nn.batch_normalization(x, mean, var, -1)
        monkeypatch.setenv("TRIPOD_FAST_PATHS", "0")
        assert not torch_nn._writable_in_place()
        off = torch_nn.batch_normalization(x, mean, var, -1)
    np.testing.assert_array_equal(on.numpy(), off.numpy())
