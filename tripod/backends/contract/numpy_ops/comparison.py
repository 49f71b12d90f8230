"""Element-wise NumPy-style ops that compare, test or select: comparisons, float tests,
logic, bits and `where`."""


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


def equal(x1, x2):
    """Element-wise `x1 == x2`.

    Args:
        x1: the first operand: a tensor, or a NumPy array, Python scalar or nested list.
        x2: the second operand, of a shape that broadcasts against `x1`'s.

    Returns:
        A bool tensor of the broadcast shape of `x1` and `x2`, true where the elements are equal.
        Both operands are compared in their promoted dtype (`2 == 2.0` is true); `nan` equals
        nothing, not even itself. A Python int outside an integer tensor's dtype is compared
        by value, as in NumPy 2 (an `int8` tensor equals 300 nowhere), never converted.

    Examples:
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.equal([1, 2, 3], [1, 5, 3])))
        [ True False  True]
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.equal([1.0, 2.0, np.nan], 2)))
        [False  True False]
    """


def greater(x1, x2):
    """Element-wise `x1 > x2`.

    Args:
        x1: the first operand: a tensor, or a NumPy array, Python scalar or nested list.
        x2: the second operand, of a shape that broadcasts against `x1`'s.

    Returns:
        A bool tensor of the broadcast shape of `x1` and `x2`, true where `x1` is greater. Both
        operands are compared in their promoted dtype; any comparison with `nan` is false. A
        Python int outside an integer tensor's dtype is compared by value, as in NumPy 2 (a
        `uint8` tensor is greater than -1 everywhere), never converted.

    Examples:
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.greater([1, 5, 3], 3)))
        [False  True False]
    """


def greater_equal(x1, x2):
    """Element-wise `x1 >= x2`, with operands compared as in `greater`."""


def isclose(x1, x2, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Element-wise `|x1 - x2| <= atol + rtol * |x2|`."""


def isfinite(x):
    """Element-wise test for finite values."""


def isinf(x):
    """Element-wise test for positive or negative infinity."""


def isnan(x):
    """Element-wise test for NaN.

    Args:
        x: a tensor, or a NumPy array, Python scalar or nested list.

    Returns:
        A bool tensor of `x`'s shape, true where `x` is NaN (not where it is infinite). Integer
        and bool tensors, which cannot hold NaN, give all false.

    Examples:
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.isnan([1.0, np.nan, np.inf])))
        [False  True False]
    """


def isneginf(x):
    """Element-wise test for negative infinity."""


def isposinf(x):
    """Element-wise test for positive infinity."""


def isreal(x):
    """Element-wise test for a zero imaginary part."""


def left_shift(x, y):
    """Element-wise `x << y`; the same as `bitwise_left_shift`."""


def less(x1, x2):
    """Element-wise `x1 < x2`.

    Args:
        x1: the first operand: a tensor, or a NumPy array, Python scalar or nested list.
        x2: the second operand, of a shape that broadcasts against `x1`'s.

    Returns:
        A bool tensor of the broadcast shape of `x1` and `x2`, true where `x1` is less. Both
        operands are compared in their promoted dtype; any comparison with `nan` is false. A
        Python int outside an integer tensor's dtype is compared by value, as in NumPy 2 (an
        `int8` tensor is less than 300 everywhere), never converted.

    Examples:
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.less([1, 5, 3], 3)))
        [ True False False]
    """


def less_equal(x1, x2):
    """Element-wise `x1 <= x2`, with operands compared as in `less`."""


def logical_and(x1, x2):
    """Element-wise truth of `x1 and x2`.

    Args:
        x1: the first operand: a bool tensor, or a tensor, NumPy array, Python scalar or nested
            list of any dtype, whose non-zero elements count as true.
        x2: the second operand, likewise, of a shape that broadcasts against `x1`'s.

    Returns:
        A bool tensor of the broadcast shape of `x1` and `x2`, true where both are true.

    Examples:
        >>> y = tripod.ops.logical_and([True, True, False], [True, False, False])
        >>> print(tripod.ops.convert_to_numpy(y))
        [ True False False]
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.logical_and([0, 1, 2], 3)))
        [False  True  True]
    """


def logical_not(x):
    """Element-wise truth of `not x`."""


def logical_or(x1, x2):
    """Element-wise truth of `x1 or x2`."""


def logical_xor(x1, x2):
    """Element-wise truth of `x1 xor x2`."""


def not_equal(x1, x2):
    """Element-wise `x1 != x2`, with operands compared as in `equal`."""


def right_shift(x, y):
    """Element-wise `x >> y`; the same as `bitwise_right_shift`."""


def select(condlist, choicelist, default=0):
    """Per element, the `choicelist` entry of the first true `condlist` entry, else `default`."""


def signbit(x):
    """Element-wise test for a set sign bit (negative numbers and -0.0)."""


def where(condition, x1=None, x2=None):
    """Per element `x1` where `condition` holds else `x2`; nonzero(condition) if both are None.

    Args:
        condition: a bool tensor (non-bool values count as true when non-zero), or a NumPy
            array or nested list; its shape broadcasts against those of `x1` and `x2`.
        x1: the values taken where `condition` is true: a tensor, NumPy array, Python scalar or
            nested list; default None.
        x2: the values taken where `condition` is false, likewise; default None. Give both `x1`
            and `x2`, or neither.

    Returns:
        With `x1` and `x2`: a tensor of the broadcast shape of `condition`, `x1` and `x2`, in the
        promoted dtype of `x1` and `x2`. With neither: what `nonzero(condition)` gives, a tuple
        with one 1-D `int32` tensor per axis of `condition` holding the coordinates of its true
        elements, in row-major order.

    Raises:
        ValueError: only one of `x1` and `x2` is given.

    Examples:
        >>> condition = [True, False, True]
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.where(condition, [1, 2, 3], 0)))
        [1 0 3]
        >>> rows, cols = tripod.ops.where([[0, 1], [1, 1]])
        >>> tripod.ops.convert_to_numpy(rows).tolist(), tripod.ops.convert_to_numpy(cols).tolist()
        ([0, 1, 1], [1, 0, 1])
    """
