"""Pieces shared by the attention layers: argument checks, masks and the dense projections of
the heads."""

from tripod.backends import active
from tripod.layers.core.einsum_dense import EinsumDense

ops = active()


def positive_int(value, argument, label):
    """`value`, checked to be a positive int; ValueError naming the layer otherwise."""
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise ValueError(f"{label}: {argument} must be a positive integer, received {value!r}.")
    return value


def check_dropout(dropout, label):
    """Fail unless `dropout` is a number in [0, 1]."""
    if isinstance(dropout, bool) or not isinstance(dropout, (int, float)) or not 0 <= dropout <= 1:
        raise ValueError(
            f"{label}: dropout must be a number between 0 and 1, received {dropout!r}."
        )


def large_negative(dtype):
    """A finite value whose exponential is 0 in `dtype` (the float16 range is small)."""
    return -65504.0 if dtype == "float16" else -1e9


def positional_mask(query_length, key_length, causal, sliding_window):
    """A boolean (query_length, key_length) mask: key j visible from query i when j <= i (causal)
    and |i - j| < sliding_window (when given); one of the two must apply."""
    rows = ops.expand_dims(ops.arange(query_length, dtype="int32"), -1)
    cols = ops.expand_dims(ops.arange(key_length, dtype="int32"), 0)
    mask = None
    if causal:
        mask = ops.greater_equal(rows, cols)
    if sliding_window is not None:
        near = ops.less(ops.abs(ops.subtract(rows, cols)), sliding_window)
        mask = near if mask is None else ops.logical_and(mask, near)
    return mask


def _and(a, b):
    if a is None:
        return b
    if b is None:
        return a
    return ops.logical_and(a, b)


def combined_mask(
    query,
    value,
    query_mask=None,
    value_mask=None,
    key_mask=None,
    attention_mask=None,
    use_causal_mask=False,
    sliding_window=None,
):
    """The (batch, query_len, key_len) boolean mask from padding masks of the query (batch, T) and
    value/key (batch, S), a causal / sliding-window restriction and an explicit attention mask;
    None when nothing masks."""
    mask = None if attention_mask is None else ops.cast(attention_mask, "bool")
    if query_mask is not None:
        mask = _and(mask, ops.expand_dims(ops.cast(query_mask, "bool"), -1))
    for padding in (value_mask, key_mask):
        if padding is not None:
            mask = _and(mask, ops.expand_dims(ops.cast(padding, "bool"), -2))
    if use_causal_mask or sliding_window is not None:
        positional = positional_mask(
            ops.shape(query)[1], ops.shape(value)[1], use_causal_mask, sliding_window
        )
        mask = _and(mask, ops.expand_dims(positional, 0))
    return mask


def clone(obj):
    """A fresh copy of an initializer (None stays None)."""
    return None if obj is None else type(obj).from_config(obj.get_config())


def projection(layer, name, equation, output_shape, bias_axes, activation=None):
    """An EinsumDense sub-layer of an attention layer, with fresh copies of its initializers and
    its regularizers and constraints."""
    return EinsumDense(
        equation,
        output_shape,
        activation=activation,
        bias_axes=bias_axes if layer.use_bias else None,
        kernel_initializer=clone(layer.kernel_initializer),
        bias_initializer=clone(layer.bias_initializer),
        kernel_regularizer=layer.kernel_regularizer,
        bias_regularizer=layer.bias_regularizer,
        kernel_constraint=layer.kernel_constraint,
        bias_constraint=layer.bias_constraint,
        dtype=layer.dtype_policy,
        name=name,
    )
