"""`abs_max_quantize_grouped_with_zero_point`: asymmetric quantization of a 2-D kernel with one
scale and one zero point per group of rows and column, as Keras 3's int4 kernels are quantized.

The formula is Keras's default (device) path, computed with one backend's ops: the active one,
or the NumPy reference backend on the host when `to_numpy=True` (the same values either way).
"""

import math

from tripod.backends import active, config, dtypes, load

ops = active()


def _group_range(xp, inputs, block_size, n_groups):
    """Per group of `block_size` rows and per column: (min, max), each (n_groups, columns).

    With more than one group the last is zero-padded first (the padding counts in its min and
    max); a single group takes the rows as they are.
    """
    if n_groups == 1:
        return (
            xp.min(inputs, axis=0, keepdims=True),
            xp.max(inputs, axis=0, keepdims=True),
        )
    grouped = _grouped_rows(xp, inputs, block_size, n_groups)
    return xp.min(grouped, axis=1), xp.max(grouped, axis=1)


def _grouped_rows(xp, inputs, block_size, n_groups):
    """`inputs` zero-padded to `n_groups * block_size` rows, shaped (n_groups, block, columns)."""
    rows, columns = inputs.shape
    padding = n_groups * block_size - rows
    if padding:
        zeros = xp.zeros((padding, columns), dtype=xp.dtype(inputs))
        inputs = xp.concatenate([inputs, zeros], axis=0)
    return xp.reshape(inputs, (n_groups, block_size, columns))


def _scale_and_zero_point(xp, low, high, bits, epsilon, dtype):
    """The scale and the signed int8 zero point mapping [low, high] onto `bits`-bit levels."""
    flat = xp.equal(low, high)  # a constant group still gets a usable range
    low = xp.where(flat, xp.subtract(low, 1), low)
    high = xp.where(flat, xp.add(high, 1), high)
    levels = xp.convert_to_tensor(2**bits - 1, dtype=dtype)
    spread = xp.subtract(high, low)
    if epsilon > 0:
        spread = xp.add(spread, epsilon)
    scale = xp.divide(spread, levels)
    scale = xp.where(xp.less_equal(scale, 0), xp.convert_to_tensor(1e-8, dtype=dtype), scale)
    qmin, qmax = -(2 ** (bits - 1)), 2 ** (bits - 1) - 1
    zero = xp.add(xp.round(xp.divide(xp.negative(low), scale)), qmin)
    return scale, xp.cast(xp.clip(zero, qmin, qmax), "int8")


def _quantize(xp, inputs, block_size, value_range, dtype, epsilon):
    """(quantized, scale, zero_point) of the 2-D `inputs`, computed with backend ops `xp`."""
    rows = inputs.shape[0]
    qmin, qmax = value_range
    bits = int(math.log2(qmax - qmin + 1))
    n_groups = math.ceil(rows / block_size)
    low, high = _group_range(xp, inputs, block_size, n_groups)
    scale, zero = _scale_and_zero_point(xp, low, high, bits, epsilon, xp.dtype(inputs))
    grouped = _grouped_rows(xp, inputs, block_size, n_groups)
    levels = xp.add(
        xp.round(xp.divide(grouped, xp.expand_dims(scale, 1))),
        xp.cast(xp.expand_dims(zero, 1), xp.dtype(scale)),
    )
    quantized = xp.cast(xp.clip(levels, qmin, qmax), dtype)
    quantized = xp.reshape(quantized, (n_groups * block_size, inputs.shape[1]))[:rows]
    return quantized, scale, zero


def abs_max_quantize_grouped_with_zero_point(
    inputs, block_size, value_range=(-8, 7), dtype="int8", epsilon=None, to_numpy=False
):
    """Quantize a 2-D kernel asymmetrically, one scale and zero point per group of rows.

    The rows (axis 0, the contracted axis) form groups of `block_size`; in each group each column
    maps its range [min, max] onto the `value_range` levels: `scale = (max - min + epsilon) /
    (2^bits - 1)` (a constant group is widened by 1 both ways first), `zero_point =
    clip(round(-min / scale) + qmin)` and `quantized = clip(round(x / scale) + zero_point)`, so
    `(quantized - zero_point) * scale` approximates `x`. With more than one group, the last one's
    min and max count the zero rows that pad it to `block_size`.

    Args:
        inputs: a 2-D float tensor `(input_dim, output_dim)`.
        block_size: the number of rows per group.
        value_range: `(qmin, qmax)`, the quantized levels (`(-8, 7)`: signed 4 bits).
        dtype: the dtype of the quantized tensor.
        epsilon: added to each range before dividing (default `tripod.config.epsilon()`).
        to_numpy: compute on the host with NumPy (spares device memory; same values).

    Returns:
        `(quantized, scale, zero_point)`: `quantized` of `inputs`' shape and dtype `dtype`,
        `scale` `(n_groups, output_dim)` of `inputs`' dtype, `zero_point` `(n_groups,
        output_dim)` int8, where `n_groups = ceil(input_dim / block_size)`.

    Examples:
        >>> kernel = np.array([[0.0, -1.0], [1.0, 1.0], [3.0, 2.0]], dtype="float32")
        >>> q, scale, zero = tripod.quantizers.abs_max_quantize_grouped_with_zero_point(
        ...     kernel, block_size=4
        ... )
        >>> tripod.ops.convert_to_numpy(q).tolist(), tripod.ops.convert_to_numpy(zero).tolist()
        ([[-8, -8], [-3, 2], [7, 7]], [[-8, -3]])
    """
    epsilon = config.epsilon() if epsilon is None else epsilon
    source_dtype = dtypes.standardize_dtype(inputs.dtype)
    if not to_numpy:
        return _quantize(
            ops, ops.convert_to_tensor(inputs), block_size, value_range, dtype, epsilon
        )
    host = load("numpy")
    values = host.convert_to_tensor(ops.convert_to_numpy(inputs), dtype=source_dtype)
    results = _quantize(host, values, block_size, value_range, dtype, epsilon)
    return tuple(ops.convert_to_tensor(r) for r in results)
