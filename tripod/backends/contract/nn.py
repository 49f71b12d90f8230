"""Neural-network ops: activations, convolution, pooling, normalization, losses."""


def adaptive_average_pool(inputs, output_size, data_format=None):
    """Average pooling with windows chosen so the output has `output_size` spatial dims."""


def adaptive_max_pool(inputs, output_size, data_format=None):
    """Max pooling with windows chosen so the output has `output_size` spatial dims."""


def average_pool(inputs, pool_size, strides=None, padding="valid", data_format=None):
    """Mean over sliding `pool_size` windows of the spatial dims of `inputs`."""


def batch_normalization(x, mean, variance, axis, offset=None, scale=None, epsilon=0.001):
    """`(x - mean) / sqrt(variance + epsilon) * scale + offset`, stats shaped along `axis`."""


def binary_crossentropy(target, output, from_logits=False):
    """Element-wise binary cross-entropy between `target` and probabilities or logits."""


def categorical_crossentropy(target, output, from_logits=False, axis=-1):
    """Cross-entropy between one-hot/soft `target` and `output` over class `axis`."""


def celu(x, alpha=1.0):
    """Continuously differentiable ELU: `max(x, 0) + min(0, alpha * (exp(x / alpha) - 1))`."""


def conv(inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    """N-D convolution (cross-correlation) of `inputs` with `kernel` (spatial..., in, out)."""


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
    """Scaled dot-product attention of (batch, seq, heads, dim) query/key/value."""


def elu(x, alpha=1.0):
    """Exponential linear unit: `x` if x > 0 else `alpha * (exp(x) - 1)`."""


def fold(x, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """Sum sliding-block columns `x` (N, C*prod(k), L) back into images of `output_size`."""


def gelu(x, approximate=True):
    """Gaussian error linear unit, with the tanh approximation when `approximate`."""


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
    """The logarithm of the softmax of `x` over `axis`, computed stably."""


def max_pool(inputs, pool_size, strides=None, padding="valid", data_format=None):
    """Maximum over sliding `pool_size` windows of the spatial dims of `inputs`."""


def moments(x, axes, keepdims=False, synchronized=False):
    """The mean and variance of `x` over `axes`."""


def multi_hot(inputs, num_classes=None, axis=-1, dtype=None, sparse=False, **kwargs):
    """Multi-hot encoding: per row of integer `inputs`, 1 at each class index present."""


def normalize(x, axis=-1, order=2, epsilon=None):
    """`x` divided by its `order`-norm over `axis` (norm floored at `epsilon`)."""


def one_hot(x, num_classes, axis=-1, dtype=None, sparse=False):
    """One-hot encoding of integer `x` with `num_classes` classes placed on `axis`."""


def polar(abs_, angle):
    """The complex tensor with modulus `abs_` and argument `angle`."""


def psnr(x1, x2, max_val):
    """The peak signal-to-noise ratio in dB between `x1` and `x2` given the peak `max_val`."""


def relu(x):
    """Rectified linear unit: `max(x, 0)`."""


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
    """The logistic function `1 / (1 + exp(-x))`."""


def silu(x):
    """Sigmoid linear unit: `x * sigmoid(x)`."""


def soft_shrink(x, threshold=0.5):
    """`x` moved `threshold` towards 0, and 0 where |x| <= `threshold`."""


def softmax(x, axis=-1):
    """`exp(x)` normalized to sum to 1 over `axis`."""


def softplus(x):
    """`log(1 + exp(x))`, computed stably."""


def softsign(x):
    """`x / (1 + |x|)`."""


def space_to_depth(x, block_size, data_format="channels_last"):
    """Move `block_size` x `block_size` spatial blocks into channels."""


def sparse_categorical_crossentropy(target, output, from_logits=False, axis=-1):
    """Cross-entropy between integer class `target` and `output` over `axis`."""


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
