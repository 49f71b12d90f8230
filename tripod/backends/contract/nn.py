"""Neural-network ops: activations, convolution, pooling, normalization, losses."""


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


def batch_normalization(x, mean, variance, axis, offset=None, scale=None, epsilon=0.001):
    """`(x - mean) / sqrt(variance + epsilon) * scale + offset`, stats shaped along `axis`."""


def binary_crossentropy(target, output, from_logits=False):
    """Element-wise binary cross-entropy between `target` and probabilities or logits.

    For a label `t` and a predicted probability `p` of the positive class, the loss is
    `-(t * log(p) + (1 - t) * log(1 - p))`. Nothing is averaged:
    `tripod.losses.BinaryCrossentropy` adds the reduction.

    Args:
        target: tensor of labels in [0, 1] (usually 0 or 1; soft labels are allowed).
        output: tensor of `target`'s shape: predicted probabilities in [0, 1], or logits (any
            real values) when `from_logits` is True.
        from_logits: bool, default False. False: `output` holds probabilities, clipped to
            `[epsilon, 1 - epsilon]` (`tripod.config.epsilon()`, 1e-7 by default) so that the
            logarithms stay finite. True: `output` holds logits, turned into probabilities by a
            sigmoid inside a formula that stays exact for large logits; prefer it when the
            model's last layer has no activation.

    Returns:
        A tensor of `target`'s shape holding the loss of each element, in the promoted float
        dtype of `target` and `output` (integers give floatx).

    Raises:
        ValueError: `target` and `output` differ in shape.

    Examples:
        >>> target = np.array([1.0, 0.0], "float32")
        >>> output = np.array([0.9, 0.2], "float32")
        >>> loss = tripod.ops.binary_crossentropy(target, output)
        >>> print(np.round(tripod.ops.convert_to_numpy(loss), 4))  # -log(0.9), -log(0.8)
        [0.1054 0.2231]
        >>> logits = np.array([0.0, 0.0], "float32")  # probability 0.5 either way
        >>> loss = tripod.ops.binary_crossentropy(target, logits, from_logits=True)
        >>> print(np.round(tripod.ops.convert_to_numpy(loss), 4))
        [0.6931 0.6931]
    """


def categorical_crossentropy(target, output, from_logits=False, axis=-1):
    """Cross-entropy between one-hot/soft `target` and `output` over class `axis`.

    For each example, `-sum(target * log(probabilities))` over the class axis: with a one-hot
    target, minus the log of the probability given to the true class. Nothing is averaged over
    the examples: `tripod.losses.CategoricalCrossentropy` adds the reduction.

    Args:
        target: tensor of class probabilities per example: one-hot rows, or soft labels
            summing to 1 along `axis`.
        output: tensor of `target`'s shape: predicted probabilities along `axis`, or logits
            when `from_logits` is True.
        from_logits: bool, default False. False: each row of `output` is rescaled to sum to 1
            and clipped to `[epsilon, 1 - epsilon]` (`tripod.config.epsilon()`) before its
            logarithm. True: `output` holds logits, normalized by a log-softmax, which is exact
            for large logits; prefer it when the model's last layer has no softmax.
        axis: int, the class axis; default -1, the last.

    Returns:
        A tensor of `output`'s shape without `axis` (one loss per example), in the promoted
        float dtype of `target` and `output`.

    Raises:
        ValueError: `target` and `output` differ in shape.

    Examples:
        >>> target = np.array([[0.0, 1.0, 0.0]], "float32")
        >>> probabilities = np.array([[0.25, 0.5, 0.25]], "float32")
        >>> loss = tripod.ops.categorical_crossentropy(target, probabilities)
        >>> print(np.round(tripod.ops.convert_to_numpy(loss), 4))  # -log(0.5)
        [0.6931]
        >>> logits = np.zeros((1, 3), "float32")  # a uniform guess over 3 classes
        >>> loss = tripod.ops.categorical_crossentropy(target, logits, from_logits=True)
        >>> print(np.round(tripod.ops.convert_to_numpy(loss), 4))  # log(3)
        [1.0986]
    """


def celu(x, alpha=1.0):
    """Continuously differentiable ELU: `max(x, 0) + min(0, alpha * (exp(x / alpha) - 1))`."""


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


def ctc_decode(
    inputs,
    sequence_lengths,
    strategy="greedy",
    beam_width=100,
    top_paths=1,
    merge_repeated=True,
    mask_index=0,
):
    """Decoded label sequences and their scores from CTC logits (greedy or beam search)."""


def ctc_loss(target, output, target_length, output_length, mask_index=0):
    """The CTC loss per batch item, for padded `target` labels and logits `output`."""


def depth_to_space(x, block_size, data_format="channels_last"):
    """Move blocks of channels into `block_size` x `block_size` spatial blocks."""


def depthwise_conv(inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    """Convolution applying a separate filter set to each input channel."""


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


def elu(x, alpha=1.0):
    """Exponential linear unit: `x` if x > 0 else `alpha * (exp(x) - 1)`."""


def fold(x, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """Sum sliding-block columns `x` (N, C*prod(k), L) back into images of `output_size`."""


def gelu(x, approximate=True):
    """Gaussian error linear unit, with the tanh approximation when `approximate`.

    `gelu(x) = x * P(X <= x)` for a standard normal `X`: close to `relu` for large `|x|`, but
    smooth, and slightly negative just below 0.

    Args:
        x: tensor.
        approximate: bool, default True: the tanh approximation `0.5 * x * (1 + tanh(sqrt(2 /
            pi) * (x + 0.044715 * x^3)))`. False: the exact form `0.5 * x * (1 + erf(x /
            sqrt(2)))`. The two differ by less than 1e-3.

    Returns:
        A tensor of `x`'s shape; float inputs keep their dtype, integers give floatx.

    Examples:
        >>> x = np.array([-1.0, 0.0, 1.0], "float32")
        >>> print(np.round(tripod.ops.convert_to_numpy(tripod.ops.gelu(x)), 4))
        [-0.1588  0.      0.8412]
        >>> print(np.round(tripod.ops.convert_to_numpy(tripod.ops.gelu(x, approximate=False)), 4))
        [-0.1587  0.      0.8413]
    """


def glu(x, axis=-1):
    """Gated linear unit: the first half of `x` along `axis` times sigmoid of the second half."""


def hard_shrink(x, threshold=0.5):
    """`x` where |x| > `threshold`, else 0."""


def hard_sigmoid(x):
    """Piecewise-linear sigmoid: `clip(x / 6 + 0.5, 0, 1)`."""


def hard_silu(x):
    """`x * hard_sigmoid(x)`."""


def hard_swish(x):
    """`x * hard_sigmoid(x)` (the same as `hard_silu`)."""


def hard_tanh(x):
    """`x` clipped to [-1, 1]."""


def layer_normalization(x, gamma=None, beta=None, axis=-1, epsilon=None, **kwargs):
    """`x` normalized to zero mean, unit variance over `axis`, then scaled and shifted."""


def leaky_relu(x, negative_slope=0.2):
    """`x` if x >= 0 else `negative_slope * x`."""


def log_sigmoid(x):
    """The logarithm of the sigmoid of `x`, computed stably: `-softplus(-x)`."""


def log_softmax(x, axis=-1):
    """The logarithm of the softmax of `x` over `axis`, computed stably.

    `log_softmax(x) = x - logsumexp(x, axis)`: more accurate than `log(softmax(x))`, which
    underflows to `-inf` for very negative logits. Its exponentials sum to 1 over `axis`.

    Args:
        x: tensor of logits.
        axis: int, or tuple of ints, the axis (axes) to normalize over; default -1, the last.

    Returns:
        A tensor of `x`'s shape, all values <= 0; float inputs keep their dtype, integers give
        floatx.

    Examples:
        >>> x = np.array([1.0, 2.0, 3.0], "float32")
        >>> print(np.round(tripod.ops.convert_to_numpy(tripod.ops.log_softmax(x)), 4))
        [-2.4076 -1.4076 -0.4076]
        >>> big = np.array([0.0, 1000.0], "float32")  # log(softmax(big)) would give -inf
        >>> print(np.round(tripod.ops.convert_to_numpy(tripod.ops.log_softmax(big)), 4))
        [-1000.     0.]
    """


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


def moments(x, axes, keepdims=False, synchronized=False):
    """The mean and variance of `x` over `axes`."""


def multi_hot(inputs, num_classes=None, axis=-1, dtype=None, sparse=False, **kwargs):
    """Multi-hot encoding: per row of integer `inputs`, 1 at each class index present."""


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


def one_hot(x, num_classes, axis=-1, dtype=None, sparse=False):
    """One-hot encoding of integer `x` with `num_classes` classes placed on `axis`.

    Each index `i` becomes a vector of `num_classes` zeros with a 1 at position `i`.

    Args:
        x: int tensor of class indices, of any shape; float and bool labels are cast to int32.
            An index outside `[0, num_classes)` gives a vector of zeros.
        num_classes: int, the length of each encoding.
        axis: int, the position of the new class axis in the result; default -1, the last.
        dtype: the result's dtype; default None, floatx (float32 unless changed).
        sparse: bool, default False. True asks for a sparse tensor, which only the tensorflow
            backend has (`tf.SparseTensor`); the others raise a ValueError.

    Returns:
        A tensor of `dtype`, of `x`'s shape with an axis of size `num_classes` inserted at
        `axis`.

    Examples:
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.one_hot(np.array([0, 2]), 3)))
        [[1. 0. 0.]
         [0. 0. 1.]]
        >>> y = tripod.ops.one_hot(np.array([0, 2]), 3, axis=0, dtype="int32")
        >>> print(tripod.ops.convert_to_numpy(y))
        [[1 0]
         [0 0]
         [0 1]]
    """


def polar(abs_, angle):
    """The complex tensor with modulus `abs_` and argument `angle`."""


def psnr(x1, x2, max_val):
    """The peak signal-to-noise ratio in dB between `x1` and `x2` given the peak `max_val`."""


def relu(x):
    """Rectified linear unit: `max(x, 0)`.

    Negative values become 0; the others pass through unchanged.

    Args:
        x: tensor.

    Returns:
        A tensor of `x`'s shape and dtype (integers stay integers).

    Examples:
        >>> x = np.array([-2.0, 0.0, 3.0], "float32")
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.relu(x)))
        [0. 0. 3.]
        >>> tripod.ops.convert_to_numpy(tripod.ops.relu(np.array([-1, 5], "int32")))
        array([0, 5], dtype=int32)
    """


def relu6(x):
    """ReLU capped at 6: `min(max(x, 0), 6)`."""


def rms_normalization(x, scale=None, axis=-1, epsilon=None):
    """`x` divided by its root mean square over `axis`, times `scale`."""


def selu(x):
    """Scaled ELU with the fixed self-normalizing alpha and scale."""


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


def sigmoid(x):
    """The logistic function `1 / (1 + exp(-x))`.

    It maps any real number into (0, 1), with `sigmoid(0) = 0.5`: the usual way to turn a logit
    into a probability. It is computed without overflow for large `|x|`.

    Args:
        x: tensor.

    Returns:
        A tensor of `x`'s shape with values in [0, 1]; float inputs keep their dtype, integers
        give floatx.

    Examples:
        >>> x = np.array([-1.0, 0.0, 1.0], "float32")
        >>> print(np.round(tripod.ops.convert_to_numpy(tripod.ops.sigmoid(x)), 4))
        [0.2689 0.5    0.7311]
    """


def silu(x):
    """Sigmoid linear unit: `x * sigmoid(x)`.

    Also called swish (`tripod.ops.swish` is the same op): smooth, close to `relu` for large
    `|x|`, with a small dip below 0 for negative inputs (its minimum is about -0.28).

    Args:
        x: tensor.

    Returns:
        A tensor of `x`'s shape; float inputs keep their dtype, integers give floatx.

    Examples:
        >>> x = np.array([-1.0, 0.0, 1.0], "float32")
        >>> print(np.round(tripod.ops.convert_to_numpy(tripod.ops.silu(x)), 4))
        [-0.2689  0.      0.7311]
    """


def soft_shrink(x, threshold=0.5):
    """`x` moved `threshold` towards 0, and 0 where |x| <= `threshold`."""


def softmax(x, axis=-1):
    """`exp(x)` normalized to sum to 1 over `axis`.

    It turns logits into probabilities: each value is `exp(x) / sum(exp(x))` over `axis`. The
    largest value is subtracted first, so large logits do not overflow.

    Args:
        x: tensor of logits.
        axis: int, or tuple of ints, the axis (axes) to normalize over; default -1, the last.

    Returns:
        A tensor of `x`'s shape with values in [0, 1] summing to 1 over `axis`; float inputs
        keep their dtype, integers give floatx.

    Examples:
        >>> x = np.array([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]], "float32")
        >>> print(np.round(tripod.ops.convert_to_numpy(tripod.ops.softmax(x)), 4))
        [[0.09   0.2447 0.6652]
         [0.3333 0.3333 0.3333]]
    """


def softplus(x):
    """`log(1 + exp(x))`, computed stably."""


def softsign(x):
    """`x / (1 + |x|)`."""


def space_to_depth(x, block_size, data_format="channels_last"):
    """Move `block_size` x `block_size` spatial blocks into channels."""


def sparse_categorical_crossentropy(target, output, from_logits=False, axis=-1):
    """Cross-entropy between integer class `target` and `output` over `axis`.

    The same loss as `categorical_crossentropy` with the target given as class indices instead
    of one-hot rows: for each example, minus the log of the probability given to its class.

    Args:
        target: int tensor of class indices, of `output`'s shape without `axis` (a size-1 axis
            in its place is accepted and dropped); float labels are cast to int32. Indices
            must lie in `[0, output.shape[axis])`: one outside matches no class and gives a
            loss of 0 rather than an error.
        output: tensor of predicted probabilities along `axis`, or logits when `from_logits`
            is True.
        from_logits: bool, default False: as in `categorical_crossentropy` (probabilities are
            rescaled and clipped; logits go through a log-softmax).
        axis: int, the class axis of `output`; default -1, the last.

    Returns:
        A tensor of `output`'s shape without `axis` (one loss per example), in `output`'s float
        dtype.

    Raises:
        ValueError: `target`'s shape is not `output`'s without `axis`.

    Examples:
        >>> probabilities = np.array([[0.25, 0.5, 0.25], [0.8, 0.1, 0.1]], "float32")
        >>> target = np.array([1, 0], "int32")
        >>> loss = tripod.ops.sparse_categorical_crossentropy(target, probabilities)
        >>> print(np.round(tripod.ops.convert_to_numpy(loss), 4))  # -log(0.5), -log(0.8)
        [0.6931 0.2231]
        >>> logits = np.array([[2.0, 0.0, 0.0]], "float32")
        >>> loss = tripod.ops.sparse_categorical_crossentropy([0], logits, from_logits=True)
        >>> print(np.round(tripod.ops.convert_to_numpy(loss), 4))
        [0.2395]
    """


def sparse_plus(x):
    """0 for x <= -1, `(x + 1)^2 / 4` for |x| < 1, `x` for x >= 1."""


def sparse_sigmoid(x):
    """0 for x <= -1, `(x + 1) / 2` for |x| < 1, 1 for x >= 1."""


def sparsemax(x, axis=-1):
    """Euclidean projection of `x` onto the probability simplex over `axis` (sparse softmax)."""


def squareplus(x, b=4):
    """`(x + sqrt(x^2 + b)) / 2`, a smooth ReLU."""


def swish(x):
    """`x * sigmoid(x)` (the same as `silu`)."""


def tanh_shrink(x):
    """`x - tanh(x)`."""


def threshold(x, threshold, default_value):
    """`x` where x > `threshold`, else `default_value`."""


def unfold(x, kernel_size, dilation=1, padding=0, stride=1):
    """Sliding `kernel_size` blocks of images `x` (N, C, H, W) as columns (N, C*prod(k), L)."""
