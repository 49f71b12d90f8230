"""Element-wise NumPy-style ops: arithmetic, exponentials, trigonometry and rounding
(comparisons, logic and bits are in `comparison.py`)."""


def abs(x):
    """Element-wise absolute value (modulus for complex `x`).

    Args:
        x: a tensor, or a NumPy array, Python scalar or nested list to convert.

    Returns:
        A tensor of `x`'s shape holding `|x|`, in `x`'s dtype; complex `x` gives the modulus
        `sqrt(real ** 2 + imag ** 2)` as the matching real dtype (float32 for complex64, float64
        for complex128). Bool and unsigned tensors come back unchanged.

    Examples:
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.abs([-3, 0, 2])))
        [3 0 2]
        >>> tripod.ops.dtype(tripod.ops.abs(np.array([-1.5, 2.0], dtype="float16")))
        'float16'
    """


def absolute(x):
    """Element-wise absolute value; the same as `abs`."""


def add(x1, x2):
    """Element-wise sum of `x1` and `x2`, broadcasting.

    Args:
        x1: the first operand: a tensor, or a NumPy array, Python scalar or nested list.
        x2: the second operand, of a shape that broadcasts against `x1`'s.

    Returns:
        A tensor of the broadcast shape of `x1` and `x2` holding `x1 + x2`. Its dtype is the
        operands' promoted dtype (`tripod.backend.result_type`): `int8` and `int16` give `int16`,
        `int32` and `float16` give `float16`, and a Python scalar takes the other operand's
        dtype (`int8` tensor + `3` stays `int8`). Integer sums that overflow wrap around.

    Raises:
        OverflowError: a Python int operand outside the integer dtype it computes in (`int8`
            tensor + `300`), on every backend, as in NumPy 2.

    Examples:
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.add([1, 2, 3], [10, 20, 30])))
        [11 22 33]

        The operands broadcast, and a Python scalar does not widen the tensor's dtype:

        >>> column = np.array([[0.0], [1.0]], dtype="float32")
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.add(column, [0.5, 1.5, 2.5])))
        [[0.5 1.5 2.5]
         [1.5 2.5 3.5]]
        >>> tripod.ops.dtype(tripod.ops.add(np.array([1, 2], dtype="int8"), 3))
        'int8'
    """


def angle(x):
    """Element-wise argument (phase angle) in radians of complex `x`."""


def arccos(x):
    """Element-wise inverse cosine."""


def arccosh(x):
    """Element-wise inverse hyperbolic cosine."""


def arcsin(x):
    """Element-wise inverse sine."""


def arcsinh(x):
    """Element-wise inverse hyperbolic sine."""


def arctan(x):
    """Element-wise inverse tangent."""


def arctan2(x1, x2):
    """Element-wise angle of the point (x2, x1): the quadrant-aware `arctan(x1 / x2)`."""


def arctanh(x):
    """Element-wise inverse hyperbolic tangent."""


def cbrt(x):
    """Element-wise cube root."""


def ceil(x):
    """Element-wise ceiling, the smallest integer >= x."""


def clip(x, x_min, x_max):
    """`x` with values limited to [x_min, x_max].

    Args:
        x: the tensor to limit.
        x_min: the lower bound: a scalar, or a tensor that broadcasts against `x`.
        x_max: the upper bound: a scalar, or a tensor that broadcasts against `x`; it should not be
            less than `x_min`.

    Returns:
        A tensor of `x`'s shape (broadcast against the bounds' shapes when they are tensors) in
        `x`'s dtype (bool `x` gives `int32`): `x_min` where `x < x_min`, `x_max` where
        `x > x_max`, `x` elsewhere. The comparison is made in the dtype promoted from `x` and the
        bounds, and the result cast back to `x`'s dtype, so float bounds on an integer `x` are
        truncated towards zero.

    Examples:
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.clip([-2, 0, 3, 7], 0, 5)))
        [0 0 3 5]
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.clip([-1.5, 0.25, 4.0], -1.0, 1.0)))
        [-1.    0.25  1.  ]
    """


def conj(x):
    """Element-wise complex conjugate."""


def conjugate(x):
    """Element-wise complex conjugate; the same as `conj`."""


def copy(x):
    """A copy of `x`."""


def cos(x):
    """Element-wise cosine."""


def cosh(x):
    """Element-wise hyperbolic cosine."""


def deg2rad(x):
    """Element-wise conversion of degrees to radians."""


def divide(x1, x2):
    """Element-wise true division `x1 / x2` (ints give floats).

    Args:
        x1: the dividend: a tensor, or a NumPy array, Python scalar or nested list.
        x2: the divisor, of a shape that broadcasts against `x1`'s.

    Returns:
        A tensor of the broadcast shape of `x1` and `x2` holding the exact quotient (no rounding
        to an integer). Its dtype is the operands' promoted dtype when that is a float (`float16`
        stays `float16`); integer and bool operands give `floatx()` (`float32` by default).
        Dividing by zero gives `inf`, `-inf` or `nan`, not an error.

    Examples:
        >>> quotient = tripod.ops.divide([1, 3, 5], 2)
        >>> print(tripod.ops.convert_to_numpy(quotient))
        [0.5 1.5 2.5]
        >>> tripod.ops.dtype(quotient)
        'float32'
    """


def divide_no_nan(x1, x2):
    """Element-wise `x1 / x2`, with 0 where `x2` is 0."""


def exp(x):
    """Element-wise natural exponential.

    Args:
        x: a tensor, or a NumPy array, Python scalar or nested list.

    Returns:
        A tensor of `x`'s shape holding `e ** x` (`exp(-inf)` is 0, large inputs overflow to
        `inf`). Float (and complex) `x` keeps its dtype; integer and bool `x` gives `floatx()`
        (`float32` by default).

    Examples:
        >>> y = tripod.ops.exp([0.0, 1.0, -np.inf])
        >>> print(np.round(tripod.ops.convert_to_numpy(y), 4))
        [1.     2.7183 0.    ]
        >>> tripod.ops.dtype(tripod.ops.exp([0, 1]))
        'float32'
    """


def exp2(x):
    """Element-wise `2 ** x`."""


def expm1(x):
    """Element-wise `exp(x) - 1`, accurate near 0."""


def fabs(x):
    """Element-wise absolute value of real `x`."""


def floor(x):
    """Element-wise floor, the largest integer <= x."""


def floor_divide(x1, x2):
    """Element-wise `x1 // x2`, rounding towards minus infinity."""


def fmax(x1, x2):
    """Element-wise maximum, ignoring NaNs."""


def fmin(x1, x2):
    """Element-wise minimum, ignoring NaNs."""


def fmod(x1, x2):
    """Element-wise remainder of division with the sign of `x1` (C `fmod`)."""


def gcd(x1, x2):
    """Element-wise greatest common divisor of integers."""


def heaviside(x1, x2):
    """Element-wise step: 0 for x1 < 0, `x2` for x1 == 0, 1 for x1 > 0."""


def hypot(x1, x2):
    """Element-wise `sqrt(x1 ** 2 + x2 ** 2)`."""


def i0(x):
    """Element-wise modified Bessel function of the first kind, order 0."""


def imag(x):
    """Element-wise imaginary part."""


def lcm(x1, x2):
    """Element-wise least common multiple of integers."""


def ldexp(x1, x2):
    """Element-wise `x1 * 2 ** x2`."""


def log(x):
    """Element-wise natural logarithm.

    Args:
        x: a tensor, or a NumPy array, Python scalar or nested list.

    Returns:
        A tensor of `x`'s shape holding `ln(x)`: `log(0)` is `-inf` and a negative input gives
        `nan`, not an error. Float (and complex) `x` keeps its dtype; integer and bool `x` gives
        `floatx()` (`float32` by default).

    Examples:
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.log([1.0, 0.0, -1.0])))
        [  0. -inf  nan]
        >>> tripod.ops.dtype(tripod.ops.log([1, 2]))
        'float32'
    """


def log10(x):
    """Element-wise base-10 logarithm."""


def log1p(x):
    """Element-wise `log(1 + x)`, accurate near 0."""


def log2(x):
    """Element-wise base-2 logarithm."""


def logaddexp(x1, x2):
    """Element-wise `log(exp(x1) + exp(x2))`, computed stably."""


def logaddexp2(x1, x2):
    """Element-wise `log2(2 ** x1 + 2 ** x2)`, computed stably."""


def maximum(x1, x2):
    """Element-wise maximum of `x1` and `x2`, broadcasting.

    Args:
        x1: the first operand: a tensor, or a NumPy array, Python scalar or nested list.
        x2: the second operand, of a shape that broadcasts against `x1`'s.

    Returns:
        A tensor of the broadcast shape of `x1` and `x2` holding the larger of each pair, in the
        operands' promoted dtype (a Python scalar takes the other operand's dtype). A `nan` in
        either operand gives `nan`; `fmax` ignores NaNs instead.

    Examples:
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.maximum([1, 5, 3], [4, 2, 3])))
        [4 5 3]

        With a scalar, it is a floor on the values (as in a ReLU):

        >>> print(tripod.ops.convert_to_numpy(tripod.ops.maximum([-2.0, 0.5, np.nan], 0.0)))
        [0.  0.5 nan]
    """


def minimum(x1, x2):
    """Element-wise minimum of `x1` and `x2`, broadcasting.

    Args:
        x1: the first operand: a tensor, or a NumPy array, Python scalar or nested list.
        x2: the second operand, of a shape that broadcasts against `x1`'s.

    Returns:
        A tensor of the broadcast shape of `x1` and `x2` holding the smaller of each pair, in the
        operands' promoted dtype (a Python scalar takes the other operand's dtype). A `nan` in
        either operand gives `nan`; `fmin` ignores NaNs instead.

    Examples:
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.minimum([1, 5, 3], [4, 2, 3])))
        [1 2 3]

        With a scalar, it is a ceiling on the values:

        >>> print(tripod.ops.convert_to_numpy(tripod.ops.minimum([-2.0, 0.5, np.nan], 0.0)))
        [-2.  0. nan]
    """


def mod(x1, x2):
    """Element-wise remainder of `x1 // x2`, with the sign of `x2`."""


def multiply(x1, x2):
    """Element-wise product of `x1` and `x2`, broadcasting.

    Args:
        x1: the first operand: a tensor, or a NumPy array, Python scalar or nested list.
        x2: the second operand, of a shape that broadcasts against `x1`'s.

    Returns:
        A tensor of the broadcast shape of `x1` and `x2` holding `x1 * x2`, in the operands'
        promoted dtype (a Python scalar takes the other operand's dtype). Integer products that
        overflow wrap around.

    Examples:
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.multiply([1, 2, 3], 2)))
        [2 4 6]
        >>> rows = np.array([[1.0], [-1.0]], dtype="float32")
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.multiply(rows, [0.5, 2.0])))
        [[ 0.5  2. ]
         [-0.5 -2. ]]
    """


def nan_to_num(x, nan=0.0, posinf=None, neginf=None):
    """`x` with NaN, +inf and -inf replaced by finite numbers."""


def negative(x):
    """Element-wise `-x`."""


def nextafter(x1, x2):
    """Element-wise next representable float after `x1` towards `x2`."""


def power(x1, x2):
    """Element-wise `x1 ** x2`.

    Args:
        x1: the base: a tensor, or a NumPy array, Python scalar or nested list.
        x2: the exponent, of a shape that broadcasts against `x1`'s.

    Returns:
        A tensor of the broadcast shape of `x1` and `x2` holding `x1` raised to `x2`, in the
        operands' promoted dtype: integer operands give an integer power (which wraps around on
        overflow), and a Python scalar takes the other operand's dtype. Use float operands for
        fractional or negative exponents: a negative base to a fractional power gives `nan`.

    Raises:
        ValueError: integer operands with a negative exponent ("Integers to negative integer
            powers are not allowed.", as NumPy says): the fraction would be truncated. Python
            ints and eager tensors are checked; inside a traced function (`jax.jit`,
            `tf.function`, `torch.compile`) a tensor exponent's values are unknown, and what a
            negative one gives there is unspecified.

    Examples:
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.power([2, 3, 4], 2)))
        [ 4  9 16]
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.power(4.0, [0.5, -1.0])))
        [2.   0.25]
    """


def rad2deg(x):
    """Element-wise conversion of radians to degrees."""


def real(x):
    """Element-wise real part."""


def reciprocal(x):
    """Element-wise `1 / x`."""


def round(x, decimals=0):
    """Element-wise rounding to `decimals` places, halves to even."""


def sign(x):
    """Element-wise sign: -1, 0 or 1."""


def sin(x):
    """Element-wise sine."""


def sinc(x):
    """Element-wise normalized sinc `sin(pi x) / (pi x)`."""


def sinh(x):
    """Element-wise hyperbolic sine."""


def sqrt(x):
    """Element-wise non-negative square root.

    Args:
        x: a tensor, or a NumPy array, Python scalar or nested list.

    Returns:
        A tensor of `x`'s shape holding the square root, `nan` for negative real inputs. Float
        (and complex) `x` keeps its dtype; integer and bool `x` gives `floatx()` (`float32` by
        default).

    Examples:
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.sqrt([0, 1, 4, 9])))
        [0. 1. 2. 3.]
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.sqrt([-1.0])))
        [nan]
    """


def square(x):
    """Element-wise `x * x`.

    Args:
        x: a tensor, or a NumPy array, Python scalar or nested list.

    Returns:
        A tensor of `x`'s shape and dtype holding `x * x` (integer squares that overflow wrap
        around); bool `x` gives `int32`.

    Examples:
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.square([-3, 2, 0])))
        [9 4 0]
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.square([0.5, -1.5])))
        [0.25 2.25]
    """


def subtract(x1, x2):
    """Element-wise difference `x1 - x2`, broadcasting.

    Args:
        x1: the minuend: a tensor, or a NumPy array, Python scalar or nested list.
        x2: the subtrahend, of a shape that broadcasts against `x1`'s.

    Returns:
        A tensor of the broadcast shape of `x1` and `x2` holding `x1 - x2`, in the operands'
        promoted dtype (a Python scalar takes the other operand's dtype). Integer differences
        that overflow wrap around, unsigned ones included.

    Examples:
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.subtract([5, 7, 9], [1, 2, 3])))
        [4 5 6]
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.subtract(1.0, [0.25, 0.5])))
        [0.75 0.5 ]
    """


def tan(x):
    """Element-wise tangent."""


def tanh(x):
    """Element-wise hyperbolic tangent.

    Args:
        x: a tensor, or a NumPy array, Python scalar or nested list.

    Returns:
        A tensor of `x`'s shape holding `tanh(x)`, in (-1, 1) for finite real `x` (`tanh(inf)` is
        1). Float (and complex) `x` keeps its dtype; integer and bool `x` gives `floatx()`
        (`float32` by default).

    Examples:
        >>> y = tripod.ops.tanh([-1.0, 0.0, 1.0, np.inf])
        >>> print(np.round(tripod.ops.convert_to_numpy(y), 4))
        [-0.7616  0.      0.7616  1.    ]
    """


def true_divide(x1, x2):
    """Element-wise true division; the same as `divide`."""


def trunc(x):
    """Element-wise rounding towards zero."""
