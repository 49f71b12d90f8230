"""Neural-network ops over windows: convolutions, pooling and sliding blocks."""


def adaptive_average_pool(inputs, output_size, data_format=None):
    """Average pooling with windows chosen so the output has `output_size` spatial dims."""


def adaptive_max_pool(inputs, output_size, data_format=None):
    """Max pooling with windows chosen so the output has `output_size` spatial dims."""


def average_pool(inputs, pool_size, strides=None, padding="valid", data_format=None):
    """Mean over sliding `pool_size` windows of the spatial dims of `inputs`.

    Each channel is pooled on its own; the batch and channel axes keep their sizes.

    Args:
        inputs: tensor of rank 3, 4 or 5: a batch of inputs with 1, 2 or 3 spatial dims, laid out
            `(batch, spatial..., channels)` for "channels_last" or `(batch, channels,
            spatial...)` for "channels_first".
        pool_size: int, or tuple of one int per spatial dim, the size of the window.
        strides: int, or tuple of one int per spatial dim, the step between windows; default
            None, `pool_size` (windows side by side, without overlap).
        padding: "valid" (default: windows only where they fit, `floor((n - pool_size) /
            strides) + 1` per spatial dim) or "same" (`ceil(n / strides)` per spatial dim: the
            input is padded, the extra padding going after).
        data_format: "channels_last" or "channels_first"; default None, the global setting
            `tripod.config.image_data_format()` ("channels_last" unless changed).

    Returns:
        A tensor of `inputs`' rank and layout whose spatial dims are the pooled sizes. Float
        inputs keep their dtype; integer inputs give floatx. With "same" padding, the padded
        positions take no part in the average: a window at the border averages only the real
        values it covers.

    Examples:
        >>> x = np.arange(16, dtype="float32").reshape(1, 4, 4, 1)  # one 4x4 image
        >>> y = tripod.ops.average_pool(x, pool_size=2)
        >>> print(tripod.ops.convert_to_numpy(y)[0, :, :, 0])
        [[ 2.5  4.5]
         [10.5 12.5]]
        >>> tripod.ops.shape(tripod.ops.average_pool(x, 3, strides=1, padding="same"))
        (1, 4, 4, 1)
    """


def conv(inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    """N-D convolution (cross-correlation) of `inputs` with `kernel` (spatial..., in, out).

    As is usual in deep learning, the kernel slides over the input without being flipped.
    Each output channel sums, over a window and the input channels, the products of the
    inputs with that channel's kernel weights.

    Args:
        inputs: tensor of rank 3, 4 or 5: a batch of inputs with 1, 2 or 3 spatial dims, laid out
            `(batch, spatial..., channels)` for "channels_last" or `(batch, channels,
            spatial...)` for "channels_first".
        kernel: tensor of shape `spatial... + (in_channels, out_channels)`, of `inputs`' rank.
            `in_channels` is the input's channel count, or a divisor of it for a grouped
            convolution: the input channels then form `channels // in_channels` groups, each
            convolved with its share of the `out_channels` (which the groups must divide).
        strides: int, or tuple of one int per spatial dim, the step between windows; default 1.
        padding: "valid" (default: windows only where they fit) or "same" (zero padding so that
            each spatial dim gives `ceil(n / strides)` outputs, the extra padding going after).
        data_format: "channels_last" or "channels_first"; default None, the global setting
            `tripod.config.image_data_format()` ("channels_last" unless changed).
        dilation_rate: int, or tuple of one int per spatial dim, the spacing between the
            kernel's taps; default 1, adjacent taps. A kernel of size `k` then spans `(k - 1) *
            dilation_rate + 1` inputs.

    Returns:
        A tensor of `inputs`' rank and layout with `out_channels` channels; each spatial dim of
        size `n` gives `floor((n - span) / strides) + 1` outputs with "valid" padding (`span`
        the dilated kernel size), `ceil(n / strides)` with "same". Its dtype is the promoted
        dtype of `inputs` and `kernel`.

    Raises:
        ValueError: a rank other than 3, 4 or 5, a kernel of another rank, or channel counts
            that do not divide as stated above.

    Examples:
        >>> x = np.array([1.0, 2.0, 3.0, 4.0], "float32").reshape(1, 4, 1)  # (batch, width, ch)
        >>> kernel = np.ones((2, 1, 1), "float32")  # width 2, 1 channel in, 1 out
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.conv(x, kernel))[0, :, 0])
        [3. 5. 7.]
        >>> images = np.zeros((2, 8, 8, 3), "float32")  # 8x8 RGB images
        >>> kernel = np.zeros((3, 3, 3, 16), "float32")  # 3x3 windows, 3 channels in, 16 out
        >>> tripod.ops.shape(tripod.ops.conv(images, kernel, strides=2, padding="same"))
        (2, 4, 4, 16)
    """


def conv_transpose(
    inputs,
    kernel,
    strides=1,
    padding="valid",
    output_padding=None,
    data_format=None,
    dilation_rate=1,
):
    """N-D transposed convolution (the gradient of `conv`) with `kernel` (spatial..., out, in)."""


def depth_to_space(x, block_size, data_format="channels_last"):
    """Move blocks of channels into `block_size` x `block_size` spatial blocks."""


def depthwise_conv(inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    """Convolution applying a separate filter set to each input channel."""


def fold(x, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """Sum sliding-block columns `x` (N, C*prod(k), L) back into images of `output_size`."""


def max_pool(inputs, pool_size, strides=None, padding="valid", data_format=None):
    """Maximum over sliding `pool_size` windows of the spatial dims of `inputs`.

    Each channel is pooled on its own; the batch and channel axes keep their sizes.

    Args:
        inputs: tensor of rank 3, 4 or 5: a batch of inputs with 1, 2 or 3 spatial dims, laid out
            `(batch, spatial..., channels)` for "channels_last" or `(batch, channels,
            spatial...)` for "channels_first".
        pool_size: int, or tuple of one int per spatial dim, the size of the window.
        strides: int, or tuple of one int per spatial dim, the step between windows; default
            None, `pool_size` (windows side by side, without overlap).
        padding: "valid" (default: windows only where they fit, `floor((n - pool_size) /
            strides) + 1` per spatial dim) or "same" (`ceil(n / strides)` per spatial dim: the
            input is padded, the extra padding going after).
        data_format: "channels_last" or "channels_first"; default None, the global setting
            `tripod.config.image_data_format()` ("channels_last" unless changed).

    Returns:
        A tensor of `inputs`' rank, layout and dtype whose spatial dims are the pooled sizes.
        With "same" padding, the padded positions never win: a window at the border takes the
        maximum of the real values it covers.

    Examples:
        >>> x = np.arange(16, dtype="float32").reshape(1, 4, 4, 1)  # one 4x4 image
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.max_pool(x, 2))[0, :, :, 0])
        [[ 5.  7.]
         [13. 15.]]
        >>> y = tripod.ops.max_pool(x, 2, strides=1)  # overlapping windows
        >>> tripod.ops.shape(y)
        (1, 3, 3, 1)
    """


def separable_conv(
    inputs,
    depthwise_kernel,
    pointwise_kernel,
    strides=1,
    padding="valid",
    data_format=None,
    dilation_rate=1,
):
    """Depthwise convolution followed by a 1x1 pointwise convolution."""


def space_to_depth(x, block_size, data_format="channels_last"):
    """Move `block_size` x `block_size` spatial blocks into channels."""


def unfold(x, kernel_size, dilation=1, padding=0, stride=1):
    """Sliding `kernel_size` blocks of images `x` (N, C, H, W) as columns (N, C*prod(k), L)."""
