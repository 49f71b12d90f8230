"""Under `mixed_bfloat16` the torch backend computes as its accelerator kernels want it: read
from the aten operations a layer call dispatches, convolutions and fused attention take bfloat16
operands (their kernels accumulate in float32) and the explicit attention path forms float32
logits."""

import numpy as np
import pytest

import tripod
from tripod import layers
from tripod.backends import config

if config.backend() != "torch":
    pytest.skip("the torch backend's compute dtypes, read from dispatch", allow_module_level=True)

import torch
from torch.utils._python_dispatch import TorchDispatchMode


class _Recorder(TorchDispatchMode):
    """Records (aten operation name, dtypes of its tensor arguments, dtype of its result)."""

    def __init__(self):
        super().__init__()
        self.calls = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        first = out[0] if isinstance(out, (tuple, list)) else out
        dtypes = [a.dtype for a in args if isinstance(a, torch.Tensor)]
        self.calls.append((func.overloadpacket.__name__, dtypes, getattr(first, "dtype", None)))
        return out


def _dispatched(call, *inputs):
    """The aten calls of `call(*inputs)`, after a first call that builds the layer."""
    call(*inputs)
    with _Recorder() as recorder:
        call(*inputs)
    return recorder.calls


def test_convolutions_take_bfloat16_operands(bfloat16_policy):
    x = np.ones((2, 8, 8, 3), "float32")
    convs = [c for c in _dispatched(layers.Conv2D(4, 3), x) if c[0].startswith("convolution")]
    assert convs, "no convolution dispatched"
    assert all(set(dtypes) == {torch.bfloat16} for _, dtypes, _ in convs)


def test_masked_attention_takes_the_fused_kernel_with_bfloat16_heads(bfloat16_policy):
    x = np.ones((2, 6, 8), "float32")
    attention = layers.MultiHeadAttention(num_heads=2, key_dim=4)
    calls = _dispatched(lambda q, v: attention(q, v, use_causal_mask=True), x, x)
    fused = [c for c in calls if "scaled_dot_product" in c[0]]
    assert fused, "no fused attention dispatched"
    assert all(dtypes[:3] == [torch.bfloat16] * 3 for _, dtypes, _ in fused)
    assert not [c for c in calls if "softmax" in c[0]], "a softmax outside the fused kernel"


def test_explicit_attention_forms_and_normalizes_float32_logits(bfloat16_policy):
    x = np.ones((2, 6, 8), "float32")
    attention = layers.MultiHeadAttention(num_heads=2, key_dim=4)
    calls = _dispatched(lambda q, v: attention(q, v, return_attention_scores=True), x, x)
    softmaxes = [c for c in calls if "softmax" in c[0]]
    assert softmaxes, "no softmax dispatched"
    assert {dtypes[0] for _, dtypes, _ in softmaxes} == {torch.float32}
    _, scores = attention(x, x, return_attention_scores=True)
    assert scores.dtype == torch.bfloat16


def test_soft_capped_attention_forms_float32_logits():
    q = torch.ones((1, 4, 2, 8), dtype=torch.bfloat16)
    calls = _dispatched(
        lambda q: tripod.ops.dot_product_attention(q, q, q, attn_logits_soft_cap=20.0), q
    )
    products = [c for c in calls if c[0] in ("bmm", "mm", "matmul")]
    assert products and products[0][1] == [torch.float32, torch.float32]
    assert calls[-1][2] == torch.bfloat16  # the result in the inputs' dtype
