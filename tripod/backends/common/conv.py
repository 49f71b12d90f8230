"""Shape math of convolutions and pooling windows, shared by every backend.

Everything here works on plain Python ints and tuples (static shapes); no framework is involved.
Conventions follow Keras 3: `padding` is "valid" or "same" (TensorFlow's rule, the extra padding
going after), kernels are laid out spatial..., in_channels, out_channels (conv_transpose:
spatial..., out_channels, in_channels), and `data_format` is "channels_last" or
"channels_first" (None means `config.image_data_format()`).
"""

from tripod.backends import config

PADDINGS = ("valid", "same")


standardize_data_format = config.standardize_data_format


def standardize_padding(padding):
    """`padding` lower-cased and checked to be 'valid' or 'same'."""
    name = padding.lower() if isinstance(padding, str) else padding
    if name not in PADDINGS:
        raise ValueError(f"padding must be 'valid' or 'same', received {padding!r}.")
    return name


def normalize_tuple(value, rank, name):
    """An int or a sequence of `rank` positive ints (strides, dilations, sizes) as a tuple."""
    values = (value,) * rank if isinstance(value, int) else tuple(value)
    if len(values) != rank or not all(isinstance(v, int) and v > 0 for v in values):
        raise ValueError(
            f"{name} must be a positive int or {rank} positive ints, received {value!r}."
        )
    return values


def spatial_rank(ndim, name="inputs"):
    """The number of spatial dims of a rank-`ndim` batched, channelled tensor (1, 2 or 3)."""
    if ndim not in (3, 4, 5):
        raise ValueError(
            f"{name} must have rank 3, 4 or 5 (batch, spatial dims, channels), got rank {ndim}."
        )
    return ndim - 2


def conv_args(ndim, kernel_ndim, strides, data_format, dilation_rate, name):
    """(data_format, strides, dilation) of op `name` convolving a rank-`ndim` input with a
    rank-`kernel_ndim` kernel, checked and normalized."""
    rank = spatial_rank(ndim)
    if kernel_ndim != rank + 2:
        raise ValueError(f"{name}: the kernel must have rank {rank + 2}, received {kernel_ndim}.")
    return (
        standardize_data_format(data_format),
        normalize_tuple(strides, rank, "strides"),
        normalize_tuple(dilation_rate, rank, "dilation_rate"),
    )


def pool_window(rank, pool_size, strides):
    """(pool_size, strides) of a pool over `rank` spatial dims; strides default to the window."""
    pool_size = normalize_tuple(pool_size, rank, "pool_size")
    return pool_size, pool_size if strides is None else normalize_tuple(strides, rank, "strides")


def adaptive_args(ndim, output_size, data_format):
    """(data_format, output_size) of an adaptive pool over a rank-`ndim` input, normalized."""
    rank = spatial_rank(ndim)
    return standardize_data_format(data_format), normalize_tuple(output_size, rank, "output_size")


def spatial_shape(shape, data_format):
    """The spatial dims of a batched, channelled shape."""
    return tuple(shape[2:]) if data_format == "channels_first" else tuple(shape[1:-1])


def channels(shape, data_format):
    """The channel count of a batched, channelled shape."""
    return shape[1] if data_format == "channels_first" else shape[-1]


def effective_kernel_size(kernel_size, dilation):
    """The span of a dilated kernel: (k - 1) * d + 1."""
    return (kernel_size - 1) * dilation + 1


def same_padding(input_size, kernel_size, stride, dilation=1):
    """(before, after) padding of one dim for 'same': output ceil(input/stride), extra after."""
    out = -(-input_size // stride)
    total = max((out - 1) * stride + effective_kernel_size(kernel_size, dilation) - input_size, 0)
    return total // 2, total - total // 2


def conv_padding(input_spatial, kernel_spatial, strides, padding, dilation_rate):
    """Per spatial dim (before, after) explicit padding equivalent to 'valid' or 'same'."""
    if standardize_padding(padding) == "valid":
        return [(0, 0)] * len(input_spatial)
    return [
        same_padding(n, k, s, d)
        for n, k, s, d in zip(input_spatial, kernel_spatial, strides, dilation_rate)
    ]


def conv_output_length(input_size, kernel_size, stride, padding, dilation=1):
    """The output length of one dim of a convolution or pooling window."""
    if standardize_padding(padding) == "same":
        return -(-input_size // stride)
    span = effective_kernel_size(kernel_size, dilation)
    return max((input_size - span) // stride + 1, 0)


def conv_output_shape(input_spatial, kernel_spatial, strides, padding, dilation_rate):
    """The spatial output shape of a convolution or pooling window."""
    return tuple(
        conv_output_length(n, k, s, padding, d)
        for n, k, s, d in zip(input_spatial, kernel_spatial, strides, dilation_rate)
    )


def conv_transpose_padding(kernel_size, stride, padding, output_padding=None, dilation=1):
    """(before, after) padding that turns one dim of a transposed conv into a plain conv.

    A transposed convolution equals: insert `stride - 1` zeros between input elements, pad by
    the returned amounts (negative means crop), then run a stride-1 convolution (correlation)
    with the spatially flipped kernel and the given dilation. The amounts reproduce Keras 3's
    output lengths: 'valid' gives input*stride + max(span - stride, 0), 'same' gives
    input*stride; an explicit `output_padding` gives (input - 1)*stride + span - crop +
    output_padding.
    """
    span = effective_kernel_size(kernel_size, dilation)
    if standardize_padding(padding) == "valid":
        extra = max(span, stride) - span if output_padding is None else output_padding
        return span - 1, span - 1 + extra
    total = stride + span - 2 if output_padding is None else span + span % 2 - 2 + output_padding
    before = min(total - total // 2, span - 1)
    return before, total - before


def _output_padding(value, rank):
    """conv_transpose's `output_padding` as `rank` non-negative ints, or `rank` Nones for None."""
    if value is None:
        return (None,) * rank
    values = (value,) * rank if isinstance(value, int) else tuple(value)
    if len(values) != rank or any(v < 0 for v in values):
        raise ValueError(f"output_padding must be {rank} non-negative ints, received {value!r}.")
    return values


def conv_transpose_paddings(kernel_spatial, strides, padding, output_padding, dilation_rate):
    """conv_transpose's (before, after) padding per spatial dim (`conv_transpose_padding`)."""
    extra = _output_padding(output_padding, len(strides))
    return [
        conv_transpose_padding(k, s, padding, p, d)
        for k, s, p, d in zip(kernel_spatial, strides, extra, dilation_rate)
    ]


def conv_transpose_output_length(
    input_size, kernel_size, stride, padding, output_padding=None, dilation=1
):
    """The output length of one dim of a transposed convolution (Keras 3 rule)."""
    before, after = conv_transpose_padding(kernel_size, stride, padding, output_padding, dilation)
    dilated = (input_size - 1) * stride + 1
    return dilated + before + after - effective_kernel_size(kernel_size, dilation) + 1


def adaptive_pool_windows(input_size, output_size):
    """The (start, stop) input window of each output position of an adaptive pool.

    Window i covers [floor(i * n / m), ceil((i + 1) * n / m)) for input size n, output size m,
    so windows may overlap and together cover the whole input.
    """
    if output_size <= 0:
        raise ValueError(f"output_size must be positive, received {output_size}.")
    return [
        ((i * input_size) // output_size, -(-((i + 1) * input_size) // output_size))
        for i in range(output_size)
    ]


def unfold_output_shape(spatial, kernel_size, dilation, padding, stride):
    """The number of sliding-block positions per spatial dim for fold/unfold (torch semantics)."""
    return tuple(
        (n + 2 * p - effective_kernel_size(k, d)) // s + 1
        for n, k, d, p, s in zip(spatial, kernel_size, dilation, padding, stride)
    )


def check_conv_channels(in_channels, kernel_in_channels, what="conv"):
    """The number of groups a conv input's channels form with a kernel's input channels."""
    if kernel_in_channels <= 0 or in_channels % kernel_in_channels:
        raise ValueError(
            f"{what}: the input has {in_channels} channels, not a multiple of the kernel's "
            f"{kernel_in_channels} input channels."
        )
    return in_channels // kernel_in_channels


__all__ = [
    "PADDINGS",
    "adaptive_args",
    "adaptive_pool_windows",
    "channels",
    "check_conv_channels",
    "conv_args",
    "conv_output_length",
    "conv_output_shape",
    "conv_padding",
    "conv_transpose_output_length",
    "conv_transpose_padding",
    "conv_transpose_paddings",
    "effective_kernel_size",
    "normalize_tuple",
    "pool_window",
    "same_padding",
    "spatial_rank",
    "spatial_shape",
    "standardize_data_format",
    "standardize_padding",
    "unfold_output_shape",
]
