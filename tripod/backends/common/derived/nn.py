"""Neural-network ops written over a backend's other ops (activations, convs, norms, layouts)."""

from tripod.backends import config
from tripod.backends.common.derived import helpers as c

__all__ = [
    "celu",
    "depth_to_space",
    "glu",
    "hard_shrink",
    "hard_sigmoid",
    "hard_silu",
    "hard_swish",
    "hard_tanh",
    "multi_hot",
    "normalize",
    "polar",
    "psnr",
    "relu6",
    "rms_normalization",
    "selu",
    "separable_conv",
    "soft_shrink",
    "softsign",
    "space_to_depth",
    "sparse_plus",
    "sparse_sigmoid",
    "sparsemax",
    "squareplus",
    "swish",
    "tanh_shrink",
    "threshold",
]

_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


# -- activations ---------------------------------------------------------------------------------
def glu(ops, x, axis=-1):
    x = c.to_float(ops, x)
    axis = c.axis_of("glu", axis, c.rank(ops, x))
    size = c.shape(ops, x)[axis]
    if size is not None and size % 2:
        raise ValueError(
            f"ops.glu: the size of axis {axis} must be even, got shape {c.shape(ops, x)}."
        )
    value, gate = ops.split(x, 2, axis=axis)
    return ops.multiply(value, ops.sigmoid(gate))


def hard_sigmoid(ops, x):
    return ops.clip(ops.add(ops.divide(c.to_float(ops, x), 6.0), 0.5), 0.0, 1.0)


def hard_silu(ops, x):
    x = c.to_float(ops, x)
    return ops.multiply(x, ops.hard_sigmoid(x))


def hard_swish(ops, x):
    return ops.hard_silu(x)


def hard_tanh(ops, x):
    return ops.clip(x, -1, 1)


def hard_shrink(ops, x, threshold=0.5):
    x = c.to_float(ops, x)
    return ops.where(ops.greater(ops.abs(x), threshold), x, 0.0)


def soft_shrink(ops, x, threshold=0.5):
    x = c.to_float(ops, x)
    shrunk = ops.where(ops.less(x, -threshold), ops.add(x, threshold), 0.0)
    return ops.where(ops.greater(x, threshold), ops.subtract(x, threshold), shrunk)


def tanh_shrink(ops, x):
    x = c.to_float(ops, x)
    return ops.subtract(x, ops.tanh(x))


def squareplus(ops, x, b=4):
    x = c.to_float(ops, x)
    return ops.multiply(ops.add(x, ops.sqrt(ops.add(ops.square(x), b))), 0.5)


def sparse_plus(ops, x):
    x = c.to_float(ops, x)
    middle = ops.multiply(ops.square(ops.add(x, 1.0)), 0.25)
    return ops.where(ops.less_equal(x, -1.0), 0.0, ops.where(ops.greater_equal(x, 1.0), x, middle))


def sparse_sigmoid(ops, x):
    x = c.to_float(ops, x)
    return ops.clip(ops.multiply(ops.add(x, 1.0), 0.5), 0.0, 1.0)


def sparsemax(ops, x, axis=-1):
    x = c.to_float(ops, x)
    rank = c.rank(ops, x)
    axis = c.axis_of("sparsemax", axis, rank)
    size = c.shape(ops, x)[axis]
    descending = ops.flip(ops.sort(x, axis=axis), axis=axis)
    running = ops.cumsum(descending, axis=axis)
    ranks = c.along(ops, ops.arange(1, size + 1, dtype=c.dtype_of(ops, x)), axis, rank)
    in_support = ops.greater(ops.add(ops.multiply(ranks, descending), 1.0), running)
    support = ops.sum(ops.cast(in_support, "int32"), axis=axis, keepdims=True)
    support_sum = ops.take_along_axis(running, ops.subtract(support, 1), axis=axis)
    tau = ops.divide(ops.subtract(support_sum, 1.0), ops.cast(support, c.dtype_of(ops, x)))
    return ops.maximum(ops.subtract(x, tau), 0.0)


def celu(ops, x, alpha=1.0):
    x = c.to_float(ops, x)
    negative = ops.minimum(ops.multiply(ops.expm1(ops.divide(x, alpha)), alpha), 0.0)
    return ops.add(ops.maximum(x, 0.0), negative)


def selu(ops, x):
    return ops.multiply(ops.elu(c.to_float(ops, x), alpha=_SELU_ALPHA), _SELU_SCALE)


def threshold(ops, x, threshold, default_value):
    return ops.where(ops.greater(x, threshold), x, default_value)


def relu6(ops, x):
    return ops.clip(x, 0, 6)


def softsign(ops, x):
    x = c.to_float(ops, x)
    return ops.divide(x, ops.add(ops.abs(x), 1.0))


def swish(ops, x):
    return ops.silu(x)


# -- convolution ---------------------------------------------------------------------------------
def separable_conv(
    ops,
    inputs,
    depthwise_kernel,
    pointwise_kernel,
    strides=1,
    padding="valid",
    data_format=None,
    dilation_rate=1,
):
    depthwise = ops.depthwise_conv(
        inputs, depthwise_kernel, strides, padding, data_format, dilation_rate
    )
    return ops.conv(depthwise, pointwise_kernel, 1, "valid", data_format, 1)


# -- normalization and metrics -------------------------------------------------------------------
def normalize(ops, x, axis=-1, order=2, epsilon=None):
    x = c.to_float(ops, x)
    epsilon = config.epsilon() if epsilon is None else epsilon
    norm = ops.norm(x, ord=order, axis=axis, keepdims=True)
    return ops.divide(x, ops.maximum(norm, epsilon))


def rms_normalization(ops, x, scale=None, axis=-1, epsilon=None):
    x = c.to_float(ops, x)
    epsilon = config.epsilon() if epsilon is None else epsilon
    mean_square = ops.mean(ops.square(x), axis=axis, keepdims=True)
    result = ops.multiply(x, ops.rsqrt(ops.add(mean_square, epsilon)))
    return result if scale is None else ops.multiply(result, scale)


def psnr(ops, x1, x2, max_val):
    x1, x2 = c.promote(ops, x1, x2, floating=True)
    if not c.compatible(c.shape(ops, x1), c.shape(ops, x2)):
        raise ValueError(f"ops.psnr: shapes {c.shape(ops, x1)} and {c.shape(ops, x2)} must match.")
    mse = ops.mean(ops.square(ops.subtract(x1, x2)))
    peak = ops.log10(ops.cast(max_val, c.dtype_of(ops, x1)))
    return ops.subtract(ops.multiply(peak, 20.0), ops.multiply(ops.log10(mse), 10.0))


def polar(ops, abs_, angle):
    abs_, angle = c.promote(ops, abs_, angle, floating=True)
    real = ops.multiply(abs_, ops.cos(angle))
    return c.complex_from_parts(ops, real, ops.multiply(abs_, ops.sin(angle)))


# -- layouts -------------------------------------------------------------------------------------
def _blocks(name, x_shape, block_size, data_format):
    """(N, C, H, W) of a rank-4 image batch, checked for `space_to_depth`-style ops."""
    if len(x_shape) != 4:
        raise ValueError(f"ops.{name}: x must be a rank-4 image batch, got shape {x_shape}.")
    if not isinstance(block_size, int) or block_size < 1:
        raise ValueError(f"ops.{name}: block_size must be a positive int, received {block_size!r}.")
    if config.standardize_data_format(data_format) == "channels_last":
        n, h, w, ch = x_shape
    else:
        n, ch, h, w = x_shape
    return n, ch, h, w


def space_to_depth(ops, x, block_size, data_format="channels_last"):
    n, ch, h, w = _blocks("space_to_depth", c.shape(ops, x), block_size, data_format)
    b = block_size
    if h % b or w % b:
        raise ValueError(f"ops.space_to_depth: height {h} and width {w} must divide by {b}.")
    if config.standardize_data_format(data_format) == "channels_last":
        blocks = ops.reshape(x, c.static_shape((n, h // b, b, w // b, b, ch)))
        moved = ops.transpose(blocks, (0, 1, 3, 2, 4, 5))
        return ops.reshape(moved, c.static_shape((n, h // b, w // b, b * b * ch)))
    blocks = ops.reshape(x, c.static_shape((n, ch, h // b, b, w // b, b)))
    moved = ops.transpose(blocks, (0, 1, 3, 5, 2, 4))
    return ops.reshape(moved, c.static_shape((n, ch * b * b, h // b, w // b)))


def depth_to_space(ops, x, block_size, data_format="channels_last"):
    n, ch, h, w = _blocks("depth_to_space", c.shape(ops, x), block_size, data_format)
    b = block_size
    if ch % (b * b):
        raise ValueError(f"ops.depth_to_space: {ch} channels do not divide by {b}*{b}.")
    depth = ch // (b * b)
    if config.standardize_data_format(data_format) == "channels_last":
        blocks = ops.reshape(x, c.static_shape((n, h, w, b, b, depth)))
        moved = ops.transpose(blocks, (0, 1, 3, 2, 4, 5))
        return ops.reshape(moved, c.static_shape((n, h * b, w * b, depth)))
    blocks = ops.reshape(x, c.static_shape((n, depth, b, b, h, w)))
    moved = ops.transpose(blocks, (0, 1, 4, 2, 5, 3))
    return ops.reshape(moved, c.static_shape((n, depth, h * b, w * b)))


def multi_hot(ops, inputs, num_classes=None, axis=-1, dtype=None, sparse=False, **kwargs):
    num_tokens = kwargs.pop("num_tokens", None)
    if kwargs:
        raise TypeError(f"ops.multi_hot: unexpected arguments {sorted(kwargs)}.")
    if num_classes is None:
        num_classes = num_tokens
    if num_classes is None:
        raise ValueError("ops.multi_hot: num_classes is required.")
    inputs = ops.convert_to_tensor(inputs)
    encoded = ops.one_hot(inputs, num_classes, axis=axis, dtype=dtype, sparse=sparse)
    reduced_axis = 0 if c.rank(ops, inputs) <= 1 else 1
    return ops.max(encoded, axis=reduced_axis)
