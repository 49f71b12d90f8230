"""dot_product_attention written once over a NumPy-like array module (numpy or jax.numpy)."""

import math

import numpy as np

#: a finite stand-in for -inf on masked logits: a row with every key masked attends uniformly
MASKED = -0.7 * float(np.finfo(np.float32).max)


def _keep(xp, mask, is_causal, logits_shape):
    """The boolean (B, N, T, S) mask of logits that take part, or None for all of them."""
    keep = None if mask is None else xp.broadcast_to(mask.astype(bool), logits_shape)
    if is_causal:
        t, s = logits_shape[-2:]
        causal = xp.tril(xp.ones((t, s), dtype=bool))
        keep = causal if keep is None else keep & causal
    return keep


def batched(q, k, v):
    """(`q`, `k`, `v` with a batch axis, whether it was added): checked to be (batch, length,
    heads, depth) arrays, or unbatched ones, whose key heads divide the query heads."""
    unbatched = q.ndim == 3
    if unbatched:
        q, k, v = q[None], k[None], v[None]
    if q.ndim != 4 or k.ndim != 4 or v.ndim != 4:
        raise ValueError(
            "query, key and value must have rank 3 or 4 (batch, length, heads, depth)."
        )
    heads, kv_heads = q.shape[2], k.shape[2]
    if k.shape != v.shape or heads % kv_heads or q.shape[-1] != k.shape[-1]:
        raise ValueError(f"incompatible query {q.shape}, key {k.shape} and value {v.shape} shapes.")
    return q, k, v, unbatched


def default_scale(q, scale):
    """`scale`, or 1 / sqrt(depth) of the query heads when None."""
    return 1.0 / math.sqrt(q.shape[-1]) if scale is None else scale


def attend(xp, softmax, q, k, v, bias, mask, scale, is_causal, soft_cap):
    """dot_product_attention of (batch, length, heads, depth) or unbatched `q`, `k`, `v` arrays of
    one float dtype; `bias` and `mask` are arrays or None, `softmax` normalizes the last axis."""
    q, k, v, unbatched = batched(q, k, v)
    heads, kv_heads = q.shape[2], k.shape[2]
    k, v = xp.repeat(k, heads // kv_heads, axis=2), xp.repeat(v, heads // kv_heads, axis=2)
    scale = default_scale(q, scale)
    logits = xp.einsum("btnh,bsnh->bnts", q, k) * scale
    if soft_cap is not None:
        logits = soft_cap * xp.tanh(logits / soft_cap)
    if bias is not None:
        logits = logits + bias
    keep = _keep(xp, mask, is_causal, logits.shape)
    if keep is not None:
        logits = xp.where(keep, logits, MASKED)
    out = xp.einsum("bnts,bsnh->btnh", softmax(logits), v)
    return out[0] if unbatched else out
