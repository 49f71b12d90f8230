"""Element-wise NumPy-style ops: arithmetic, exponentials, trigonometry, rounding, comparison,
logic and bits."""


def abs(x):
    """Element-wise absolute value (modulus for complex `x`)."""


def absolute(x):
    """Element-wise absolute value; the same as `abs`."""


def add(x1, x2):
    """Element-wise sum of `x1` and `x2`, broadcasting."""


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


def bitwise_and(x, y):
    """Element-wise bitwise AND of integer or bool tensors."""


def bitwise_invert(x):
    """Element-wise bitwise NOT."""


def bitwise_left_shift(x, y):
    """Element-wise `x << y`."""


def bitwise_not(x):
    """Element-wise bitwise NOT; the same as `bitwise_invert`."""


def bitwise_or(x, y):
    """Element-wise bitwise OR of integer or bool tensors."""


def bitwise_right_shift(x, y):
    """Element-wise `x >> y`."""


def bitwise_xor(x, y):
    """Element-wise bitwise XOR of integer or bool tensors."""


def cbrt(x):
    """Element-wise cube root."""


def ceil(x):
    """Element-wise ceiling, the smallest integer >= x."""


def clip(x, x_min, x_max):
    """`x` with values limited to [x_min, x_max]."""


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
    """Element-wise true division `x1 / x2` (ints give floats)."""


def divide_no_nan(x1, x2):
    """Element-wise `x1 / x2`, with 0 where `x2` is 0."""


def equal(x1, x2):
    """Element-wise `x1 == x2`."""


def exp(x):
    """Element-wise natural exponential."""


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


def greater(x1, x2):
    """Element-wise `x1 > x2`."""


def greater_equal(x1, x2):
    """Element-wise `x1 >= x2`."""


def heaviside(x1, x2):
    """Element-wise step: 0 for x1 < 0, `x2` for x1 == 0, 1 for x1 > 0."""


def hypot(x1, x2):
    """Element-wise `sqrt(x1 ** 2 + x2 ** 2)`."""


def i0(x):
    """Element-wise modified Bessel function of the first kind, order 0."""


def imag(x):
    """Element-wise imaginary part."""


def isclose(x1, x2, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Element-wise `|x1 - x2| <= atol + rtol * |x2|`."""


def isfinite(x):
    """Element-wise test for finite values."""


def isinf(x):
    """Element-wise test for positive or negative infinity."""


def isnan(x):
    """Element-wise test for NaN."""


def isneginf(x):
    """Element-wise test for negative infinity."""


def isposinf(x):
    """Element-wise test for positive infinity."""


def isreal(x):
    """Element-wise test for a zero imaginary part."""


def lcm(x1, x2):
    """Element-wise least common multiple of integers."""


def ldexp(x1, x2):
    """Element-wise `x1 * 2 ** x2`."""


def left_shift(x, y):
    """Element-wise `x << y`; the same as `bitwise_left_shift`."""


def less(x1, x2):
    """Element-wise `x1 < x2`."""


def less_equal(x1, x2):
    """Element-wise `x1 <= x2`."""


def log(x):
    """Element-wise natural logarithm."""


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


def logical_and(x1, x2):
    """Element-wise truth of `x1 and x2`."""


def logical_not(x):
    """Element-wise truth of `not x`."""


def logical_or(x1, x2):
    """Element-wise truth of `x1 or x2`."""


def logical_xor(x1, x2):
    """Element-wise truth of `x1 xor x2`."""


def maximum(x1, x2):
    """Element-wise maximum of `x1` and `x2`, broadcasting."""


def minimum(x1, x2):
    """Element-wise minimum of `x1` and `x2`, broadcasting."""


def mod(x1, x2):
    """Element-wise remainder of `x1 // x2`, with the sign of `x2`."""


def multiply(x1, x2):
    """Element-wise product of `x1` and `x2`, broadcasting."""


def nan_to_num(x, nan=0.0, posinf=None, neginf=None):
    """`x` with NaN, +inf and -inf replaced by finite numbers."""


def negative(x):
    """Element-wise `-x`."""


def nextafter(x1, x2):
    """Element-wise next representable float after `x1` towards `x2`."""


def not_equal(x1, x2):
    """Element-wise `x1 != x2`."""


def power(x1, x2):
    """Element-wise `x1 ** x2`."""


def rad2deg(x):
    """Element-wise conversion of radians to degrees."""


def real(x):
    """Element-wise real part."""


def reciprocal(x):
    """Element-wise `1 / x`."""


def right_shift(x, y):
    """Element-wise `x >> y`; the same as `bitwise_right_shift`."""


def round(x, decimals=0):
    """Element-wise rounding to `decimals` places, halves to even."""


def select(condlist, choicelist, default=0):
    """Per element, the `choicelist` entry of the first true `condlist` entry, else `default`."""


def sign(x):
    """Element-wise sign: -1, 0 or 1."""


def signbit(x):
    """Element-wise test for a set sign bit (negative numbers and -0.0)."""


def sin(x):
    """Element-wise sine."""


def sinc(x):
    """Element-wise normalized sinc `sin(pi x) / (pi x)`."""


def sinh(x):
    """Element-wise hyperbolic sine."""


def sqrt(x):
    """Element-wise non-negative square root."""


def square(x):
    """Element-wise `x * x`."""


def subtract(x1, x2):
    """Element-wise difference `x1 - x2`, broadcasting."""


def tan(x):
    """Element-wise tangent."""


def tanh(x):
    """Element-wise hyperbolic tangent."""


def true_divide(x1, x2):
    """Element-wise true division; the same as `divide`."""


def trunc(x):
    """Element-wise rounding towards zero."""


def where(condition, x1=None, x2=None):
    """Per element `x1` where `condition` holds else `x2`; nonzero(condition) if both are None."""
