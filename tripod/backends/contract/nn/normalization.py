"""Neural-network ops that normalize: batch, layer and RMS normalization, moments, and
attention."""


def batch_normalization(x, mean, variance, axis, offset=None, scale=None, epsilon=0.001):
    """`(x - mean) / sqrt(variance + epsilon) * scale + offset`, stats shaped along `axis`."""


def dot_product_attention(
    query,
    key,
    value,
    bias=None,
    mask=None,
    scale=None,
    is_causal=False,
    flash_attention=None,
    attn_logits_soft_cap=None,
):
    """Scaled dot-product attention of (batch, seq, heads, dim) query/key/value.

    For each query position, the weights `softmax(scale * query @ key^T + bias)` over the key
    positions (masked ones excluded) average the values: `out = weights @ value`, per batch
    entry and head. This is the core of multi-head attention.

    Args:
        query: tensor of shape `(batch, T, heads, depth)`, or `(T, heads, depth)` unbatched.
        key: tensor of shape `(batch, S, kv_heads, depth)` (unbatched: without `batch`).
            `kv_heads` must divide `heads`; when it is smaller, each key head serves `heads //
            kv_heads` query heads (grouped-query attention).
        value: tensor of `key`'s shape.
        bias: optional tensor broadcastable to `(batch, heads, T, S)`, added to the scaled
            logits before the softmax; default None.
        mask: optional bool tensor broadcastable to `(batch, heads, T, S)`: True where a query
            may attend to a key. Masked logits are replaced by a very negative number, so a row
            with every key masked attends to all of them uniformly. Default None, no mask.
        scale: float multiplying the logits; default None, `1 / sqrt(depth)`.
        is_causal: bool, default False. True masks, in addition, every key after the query's
            own position (query `t` sees keys `0..t`), as a decoder needs.
        flash_attention: None, True or False: whether a fused kernel may be used where the
            backend has one for these inputs (on a GPU); default None, the global setting
            (`tripod.config.enable_flash_attention()` and `disable_flash_attention()`). It does
            not change the result beyond rounding.
        attn_logits_soft_cap: optional float `c`; when given, the logits are squashed to
            `c * tanh(logits / c)` before the bias and mask, keeping them within `(-c, c)`.
            Default None, no cap.

    Returns:
        A tensor of `query`'s shape (batched or not, as the inputs), in the promoted dtype of
        `query`, `key` and `value`.

    Raises:
        ValueError: ranks other than 3 or 4, `key` and `value` shapes that differ, or head
            counts and depths that do not match as stated above.

    Examples:
        >>> q = np.ones((1, 2, 1, 4), "float32")  # batch 1, 2 positions, 1 head, depth 4
        >>> v = np.arange(8, dtype="float32").reshape(1, 2, 1, 4)
        >>> out = tripod.ops.dot_product_attention(q, q, v)  # equal logits: the mean of v
        >>> print(tripod.ops.convert_to_numpy(out)[0, :, 0])
        [[2. 3. 4. 5.]
         [2. 3. 4. 5.]]
        >>> out = tripod.ops.dot_product_attention(q, q, v, is_causal=True)
        >>> print(tripod.ops.convert_to_numpy(out)[0, :, 0])  # position 0 sees only itself
        [[0. 1. 2. 3.]
         [2. 3. 4. 5.]]
    """


def layer_normalization(x, gamma=None, beta=None, axis=-1, epsilon=None, **kwargs):
    """`x` normalized to zero mean, unit variance over `axis`, then scaled and shifted."""


def moments(x, axes, keepdims=False, synchronized=False):
    """The mean and variance of `x` over `axes`."""


def normalize(x, axis=-1, order=2, epsilon=None):
    """`x` divided by its `order`-norm over `axis` (norm floored at `epsilon`).

    Each slice along `axis` is scaled to norm 1; a slice whose norm is below `epsilon` (an
    all-zero one, say) is divided by `epsilon` instead, which keeps it finite.

    Args:
        x: tensor to normalize.
        axis: int, or tuple of ints, the axis (axes) whose norm is taken; default -1, the last.
        order: the norm, as `ord` of `tripod.ops.norm`: default 2 (Euclidean); 1 is the sum of
            absolute values, `float("inf")` the largest absolute value.
        epsilon: float, the smallest norm divided by; default None, `tripod.config.epsilon()`
            (1e-7 unless changed).

    Returns:
        A tensor of `x`'s shape; float inputs keep their dtype, integers give floatx.

    Examples:
        >>> x = np.array([[3.0, 4.0], [0.0, 0.0]], "float32")
        >>> print(np.round(tripod.ops.convert_to_numpy(tripod.ops.normalize(x)), 4))
        [[0.6 0.8]
         [0.  0. ]]
        >>> print(np.round(tripod.ops.convert_to_numpy(tripod.ops.normalize(x, order=1)), 4))
        [[0.4286 0.5714]
         [0.     0.    ]]
    """


def rms_normalization(x, scale=None, axis=-1, epsilon=None):
    """`x` divided by its root mean square over `axis`, times `scale`."""
