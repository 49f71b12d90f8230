"""The argument checks of the random ops, shared by the backends."""

import pytest

from tripod.backends import config
from tripod.backends.common import random_args


def test_float_and_int_dtypes():
    assert random_args.float_dtype(None, "normal") == config.floatx()
    assert random_args.float_dtype("float16", "normal") == "float16"
    assert random_args.int_dtype("uint8", "randint") == "uint8"
    with pytest.raises(ValueError, match="normal needs a float dtype, received 'int32'"):
        random_args.float_dtype("int32", "normal")
    with pytest.raises(ValueError, match="randint needs an integer dtype, received 'float32'"):
        random_args.int_dtype("float32", "randint")


def test_static_shape():
    assert random_args.static_shape(3) == (3,)
    assert random_args.static_shape([2, 3.0]) == (2, 3)
    assert random_args.static_shape(()) == ()


def test_dropout_args():
    assert random_args.dropout_args(0, None, (2, 3)) == (0.0, (2, 3))
    assert random_args.dropout_args(0.25, (None, 1), (2, 3)) == (0.25, (2, 1))
    assert random_args.dropout_args(1, None, (2,)) == (1.0, (2,))  # drops everything, as Keras
    for rate in (1.5, -0.1):
        with pytest.raises(ValueError, match=r"rate must lie in \[0, 1\]"):
            random_args.dropout_args(rate, None, (2,))
