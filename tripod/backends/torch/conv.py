"""The torch backend: convolution, pooling and sliding-block ops, sharing one layout scheme.

Tensors arrive in Keras layouts: channels_last unless `data_format` says otherwise, conv kernels
shaped (spatial..., in, out), conv_transpose kernels (spatial..., out, in). They are permuted as
views into torch's (N, C, spatial...) and (out, in, spatial...) layouts for the native kernels and
back; 'same' padding follows TensorFlow's rule (extra padding after), padded explicitly when it is
asymmetric.
"""

import math

import torch
import torch.nn.functional as F

from tripod.backends.common import conv as conv_math
from tripod.backends.torch.helpers import as_floatx
from tripod.backends.torch.tensors import convert_to_tensor, dtype_name, torch_result_type

__all__ = [
    "adaptive_average_pool",
    "adaptive_max_pool",
    "average_pool",
    "conv",
    "conv_transpose",
    "depthwise_conv",
    "fold",
    "max_pool",
    "separable_conv",
    "unfold",
]

_CONV = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}
_CONV_TRANSPOSE = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}
_MAX_POOL = {1: F.max_pool1d, 2: F.max_pool2d, 3: F.max_pool3d}
_AVG_POOL = {1: F.avg_pool1d, 2: F.avg_pool2d, 3: F.avg_pool3d}
_ADAPTIVE_MAX = {1: F.adaptive_max_pool1d, 2: F.adaptive_max_pool2d, 3: F.adaptive_max_pool3d}
_ADAPTIVE_AVG = {1: F.adaptive_avg_pool1d, 2: F.adaptive_avg_pool2d, 3: F.adaptive_avg_pool3d}


# ---------------------------------------------------------------- dtypes and layouts


def _exact_float(dtype):
    """The float dtype torch's kernels compute `dtype` values in: itself, float64 for ints."""
    return dtype if dtype.is_floating_point else torch.float64


def _conv_operands(*xs):
    """Tensors in the dtype torch convolves them in, and their result dtype."""
    xs = [convert_to_tensor(x) for x in xs]
    dtype = torch_result_type(*(dtype_name(x) for x in xs))
    return [x.to(_exact_float(dtype)) for x in xs], dtype


def _layout(x, data_format, name="inputs"):
    """The standardized data format and the number of spatial dims of batched tensor `x`."""
    return conv_math.standardize_data_format(data_format), conv_math.spatial_rank(x.ndim, name)


def _channels_first(x, data_format):
    """A (N, C, spatial...) view of `x`."""
    return x.movedim(-1, 1) if data_format == "channels_last" else x


def _restore(y, data_format, dtype):
    """A (N, C, spatial...) result back in `data_format`, cast to `dtype`."""
    y = y.movedim(1, -1) if data_format == "channels_last" else y
    return y.to(dtype)


# ---------------------------------------------------------------- convolution


def _window_args(rank, strides, dilation_rate):
    return (
        conv_math.normalize_tuple(strides, rank, "strides"),
        conv_math.normalize_tuple(dilation_rate, rank, "dilation_rate"),
    )


def _check_kernel(kernel, rank, name="kernel"):
    if kernel.ndim != rank + 2:
        raise ValueError(
            f"{name} must have rank {rank + 2} (spatial..., in, out) for inputs with {rank} "
            f"spatial dims, got shape {tuple(kernel.shape)}."
        )


def _torch_weight(kernel):
    """A Keras (spatial..., a, b) kernel as torch's (b, a, spatial...) weight (a view)."""
    rank = kernel.ndim - 2
    return kernel.permute(rank + 1, rank, *range(rank))


def _pad(x, pads, value=0.0):
    """Channels-first `x` padded by per-spatial-dim (before, after) amounts."""
    flat = [amount for pair in reversed(pads) for amount in pair]
    return F.pad(x, flat, value=value)


def _torch_padding(x, pads, value=0.0):
    """(x, padding): torch's symmetric `padding` argument where it suffices, else `x` padded."""
    if all(before == after for before, after in pads):
        return x, tuple(before for before, _ in pads)
    return _pad(x, pads, value), 0


def _conv_nd(x, weight, strides, padding, dilation, groups=1, bias=None):
    """A channels-first convolution with Keras 'valid'/'same' padding (plus `bias`, if given)."""
    pads = conv_math.conv_padding(x.shape[2:], weight.shape[2:], strides, padding, dilation)
    x, torch_padding = _torch_padding(x, pads)
    return _CONV[x.ndim - 2](x, weight, bias, strides, torch_padding, dilation, groups)


def _conv(operands, strides, padding, data_format, dilation_rate):
    """`ops.conv` of (inputs, kernel[, bias]): torch adds a bias inside its convolution kernel."""
    (x, kernel, *bias), dtype = _conv_operands(*operands)
    data_format, rank = _layout(x, data_format)
    _check_kernel(kernel, rank)
    strides, dilation = _window_args(rank, strides, dilation_rate)
    channels = conv_math.channels(x.shape, data_format)
    groups = conv_math.check_conv_channels(channels, kernel.shape[-2])
    if bias and tuple(bias[0].shape) != (kernel.shape[-1],):
        raise ValueError(
            f"the bias has shape {tuple(bias[0].shape)}; the kernel has {kernel.shape[-1]} filters."
        )
    x = _channels_first(x, data_format)
    y = _conv_nd(x, _torch_weight(kernel), strides, padding, dilation, groups, *bias)
    return _restore(y, data_format, dtype)


def conv(inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    return _conv((inputs, kernel), strides, padding, data_format, dilation_rate)


def _depthwise_weight(kernel, channels):
    """A (spatial..., in, multiplier) kernel as torch's grouped (in * multiplier, 1, spatial...)."""
    if kernel.shape[-2] != channels:
        raise ValueError(
            f"the depthwise kernel has {kernel.shape[-2]} input channels, the inputs {channels}."
        )
    return _torch_weight(kernel.reshape(*kernel.shape[:-2], 1, -1))


def _depthwise(x, kernel, strides, padding, data_format, dilation_rate):
    """Channels-first depthwise convolution of `x` (in `data_format`) and its layout facts."""
    data_format, rank = _layout(x, data_format)
    _check_kernel(kernel, rank, "depthwise_kernel")
    strides, dilation = _window_args(rank, strides, dilation_rate)
    channels = conv_math.channels(x.shape, data_format)
    weight = _depthwise_weight(kernel, channels)
    x = _channels_first(x, data_format)
    return _conv_nd(x, weight, strides, padding, dilation, groups=channels), data_format


def depthwise_conv(inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    (x, kernel), dtype = _conv_operands(inputs, kernel)
    y, data_format = _depthwise(x, kernel, strides, padding, data_format, dilation_rate)
    return _restore(y, data_format, dtype)


def separable_conv(
    inputs,
    depthwise_kernel,
    pointwise_kernel,
    strides=1,
    padding="valid",
    data_format=None,
    dilation_rate=1,
):
    (x, depthwise_kernel, pointwise_kernel), dtype = _conv_operands(
        inputs, depthwise_kernel, pointwise_kernel
    )
    y, data_format = _depthwise(x, depthwise_kernel, strides, padding, data_format, dilation_rate)
    _check_kernel(pointwise_kernel, y.ndim - 2, "pointwise_kernel")
    y = _CONV[y.ndim - 2](y, _torch_weight(pointwise_kernel))
    return _restore(y, data_format, dtype)


def _per_dim(value, rank, name):
    """None, or an int / `rank` non-negative ints as a tuple (output_padding)."""
    if value is None:
        return (None,) * rank
    values = (value,) * rank if isinstance(value, int) else tuple(value)
    if len(values) != rank or not all(isinstance(v, int) and v >= 0 for v in values):
        raise ValueError(f"{name} must be a non-negative int or {rank} of them, got {value!r}.")
    return values


def _transpose_geometry(size, kernel, stride, padding, output_padding, dilation):
    """(crop, torch output_padding, Keras output length) of one dim of a transposed conv.

    Torch's transposed conv crops `crop` from both ends of the full output and may add up to
    max(stride, dilation) - 1 back at the end; what that cannot express is fitted afterwards.
    """
    span = conv_math.effective_kernel_size(kernel, dilation)
    before, _ = conv_math.conv_transpose_padding(kernel, stride, padding, output_padding, dilation)
    length = conv_math.conv_transpose_output_length(
        size, kernel, stride, padding, output_padding, dilation
    )
    crop = span - 1 - before
    natural = (size - 1) * stride + span - 2 * crop
    extra = min(max(length - natural, 0), max(stride, dilation) - 1)
    return crop, extra, length


def _fit(y, lengths):
    """Channels-first `y` cut or zero-padded at the end of each spatial dim to `lengths`."""
    for dim, length in enumerate(lengths, start=2):
        if y.shape[dim] > length:
            y = y.narrow(dim, 0, length)
    pads = [(0, length - n) for n, length in zip(y.shape[2:], lengths)]
    return _pad(y, pads) if any(after for _, after in pads) else y


def conv_transpose(
    inputs,
    kernel,
    strides=1,
    padding="valid",
    output_padding=None,
    data_format=None,
    dilation_rate=1,
):
    (x, kernel), dtype = _conv_operands(inputs, kernel)
    data_format, rank = _layout(x, data_format)
    _check_kernel(kernel, rank)
    strides, dilation = _window_args(rank, strides, dilation_rate)
    channels = conv_math.channels(x.shape, data_format)
    if kernel.shape[-1] != channels:
        raise ValueError(
            f"the conv_transpose kernel (spatial..., out, in) has {kernel.shape[-1]} input "
            f"channels, the inputs {channels}."
        )
    geometry = [
        _transpose_geometry(n, k, s, padding, op, d)
        for n, k, s, op, d in zip(
            conv_math.spatial_shape(x.shape, data_format),
            kernel.shape[:-2],
            strides,
            _per_dim(output_padding, rank, "output_padding"),
            dilation,
        )
    ]
    crops, extras, lengths = zip(*geometry)
    x = _channels_first(x, data_format)
    y = _CONV_TRANSPOSE[rank](x, _torch_weight(kernel), None, strides, crops, extras, 1, dilation)
    return _restore(_fit(y, lengths), data_format, dtype)


# ---------------------------------------------------------------- pooling


def _pool_setup(inputs, pool_size, strides, data_format):
    """(channels-first x, data format, pool, strides) of a pooling op."""
    x = convert_to_tensor(inputs)
    data_format, rank = _layout(x, data_format)
    pool = conv_math.normalize_tuple(pool_size, rank, "pool_size")
    strides = pool if strides is None else conv_math.normalize_tuple(strides, rank, "strides")
    return _channels_first(x, data_format), data_format, pool, strides


def max_pool(inputs, pool_size, strides=None, padding="valid", data_format=None):
    x, data_format, pool, strides = _pool_setup(inputs, pool_size, strides, data_format)
    dtype = x.dtype
    x = x.to(_exact_float(dtype))
    pads = conv_math.conv_padding(x.shape[2:], pool, strides, padding, (1,) * len(pool))
    x, torch_padding = _torch_padding(x, pads, -math.inf)
    y = _MAX_POOL[len(pool)](x, pool, strides, torch_padding)
    return _restore(y, data_format, dtype)


def average_pool(inputs, pool_size, strides=None, padding="valid", data_format=None):
    x, data_format, pool, strides = _pool_setup(inputs, pool_size, strides, data_format)
    x = as_floatx(x)
    pads = conv_math.conv_padding(x.shape[2:], pool, strides, padding, (1,) * len(pool))
    pool_nd = _AVG_POOL[len(pool)]
    if all(before == after for before, after in pads):
        padding = tuple(before for before, _ in pads)
        y = pool_nd(x, pool, strides, padding, count_include_pad=False)
    else:
        # Average over the real elements only: window sums of x over window counts.
        ones = torch.ones((1, 1, *x.shape[2:]), dtype=x.dtype, device=x.device)
        y = pool_nd(_pad(x, pads), pool, strides) / pool_nd(_pad(ones, pads), pool, strides)
    return _restore(y, data_format, y.dtype)


def _adaptive_pool(pools, inputs, output_size, data_format):
    x = convert_to_tensor(inputs)
    data_format, rank = _layout(x, data_format)
    size = conv_math.normalize_tuple(output_size, rank, "output_size")
    return pools[rank](_channels_first(x, data_format), size), data_format


def adaptive_average_pool(inputs, output_size, data_format=None):
    y, data_format = _adaptive_pool(_ADAPTIVE_AVG, as_floatx(inputs), output_size, data_format)
    return _restore(y, data_format, y.dtype)


def adaptive_max_pool(inputs, output_size, data_format=None):
    x = convert_to_tensor(inputs)
    values = x.to(_exact_float(x.dtype))
    y, data_format = _adaptive_pool(_ADAPTIVE_MAX, values, output_size, data_format)
    return _restore(y, data_format, x.dtype)


# ---------------------------------------------------------------- sliding blocks


def _blocks_input(x, rank, name):
    x = convert_to_tensor(x)
    if x.ndim != rank:
        raise ValueError(f"{name} needs a rank-{rank} tensor, got shape {tuple(x.shape)}.")
    return x.to(_exact_float(x.dtype)), x.dtype


def unfold(x, kernel_size, dilation=1, padding=0, stride=1):
    x, dtype = _blocks_input(x, 4, "unfold")
    return F.unfold(x, kernel_size, dilation, padding, stride).to(dtype)


def fold(x, output_size, kernel_size, dilation=1, padding=0, stride=1):
    x, dtype = _blocks_input(x, 3, "fold")
    return F.fold(x, output_size, kernel_size, dilation, padding, stride).to(dtype)
