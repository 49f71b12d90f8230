"""Neural-network activations (element-wise and along an axis), and `polar`."""


def celu(x, alpha=1.0):
    """Continuously differentiable ELU: `max(x, 0) + min(0, alpha * (exp(x / alpha) - 1))`."""


def elu(x, alpha=1.0):
    """Exponential linear unit: `x` if x > 0 else `alpha * (exp(x) - 1)`."""


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


def polar(abs_, angle):
    """The complex tensor with modulus `abs_` and argument `angle`."""


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


def selu(x):
    """Scaled ELU with the fixed self-normalizing alpha and scale."""


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
