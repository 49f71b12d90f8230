"""CategoryEncoding, Discretization, Hashing and HashedCrossing against NumPy references."""

import numpy as np
import pytest

from tests.backends.ops.harness import stored_dtype
from tests.layers.harness import ops, run_layer_test, to_numpy
from tripod.layers import CategoryEncoding, Discretization, HashedCrossing, Hashing, Input


def _counts(x, depth):
    out = np.zeros((x.shape[0], depth), "float32")
    for i, row in enumerate(x):
        for v in row:
            out[i, v] += 1
    return out


@pytest.mark.parametrize("mode", ["one_hot", "multi_hot", "count"])
def test_category_encoding(mode):
    x = np.array([[0, 1, 1], [3, 3, 2]], "int32")
    if mode == "one_hot":
        x = x[:, :1]
    out = run_layer_test(
        CategoryEncoding,
        {"num_tokens": 4, "output_mode": mode},
        input_data=x,
        input_dtype="int32",
        expected_output_dtype="float32",
    )
    expected = _counts(x, 4)
    np.testing.assert_array_equal(out, np.minimum(expected, 1) if mode == "multi_hot" else expected)


def test_category_encoding_one_hot_1d_and_errors():
    out = to_numpy(CategoryEncoding(4, output_mode="one_hot")(np.array([0, 1, 3])))
    np.testing.assert_array_equal(out, np.eye(4, dtype="float32")[[0, 1, 3]])
    with pytest.raises(ValueError, match="output_mode"):
        CategoryEncoding(4, output_mode="tf_idf")
    with pytest.raises(ValueError, match="num_tokens"):
        CategoryEncoding(None)


def test_discretization():
    x = np.array([[-1.0, 0.0, 0.5, 1.0, 2.0]], "float32")
    out = run_layer_test(
        Discretization, {"bin_boundaries": [0.0, 1.0]}, input_data=x, expected_output_dtype="int32"
    )
    np.testing.assert_array_equal(out, np.digitize(x, [0.0, 1.0]))
    out = to_numpy(Discretization([0.0, 1.0], output_mode="one_hot")(np.array([-1.0, 0.5, 2.0])))
    np.testing.assert_array_equal(out, np.eye(3))


def test_discretization_adapt():
    layer = Discretization(num_bins=4)
    layer.adapt(np.arange(20.0))
    assert layer.bin_boundaries == [4.0, 9.0, 14.0]
    assert layer.get_config()["bin_boundaries"] == [4.0, 9.0, 14.0]
    np.testing.assert_array_equal(to_numpy(layer(np.array([3.0, 4.0, 100.0]))), [0, 1, 3])
    with pytest.raises(ValueError, match="not both"):
        Discretization([0.0], num_bins=2)


def _fmix32(h):
    h = np.uint32(h)
    h ^= h >> np.uint32(16)
    h = np.uint32((int(h) * 0x85EBCA6B) & 0xFFFFFFFF)
    h ^= h >> np.uint32(13)
    h = np.uint32((int(h) * 0xC2B2AE35) & 0xFFFFFFFF)
    return int(h ^ (h >> np.uint32(16)))


def _reference_bin(value, num_bins, salts=()):
    h = value & 0xFFFFFFFF
    for s in salts or [None]:
        h = _fmix32(h if s is None else h ^ s)
    return (h & 0x7FFFFFFF) % num_bins


def test_hashing_matches_reference():
    x = np.array([[0, 1, 2, -1, 2**31 - 1, -(2**31)]], "int32")
    out = run_layer_test(
        Hashing, {"num_bins": 7}, input_data=x, input_dtype="int32", expected_output_dtype="int64"
    )
    np.testing.assert_array_equal(out, [[_reference_bin(int(v), 7) for v in x[0]]])
    # int64 inputs in the int32 range hash like int32 inputs
    np.testing.assert_array_equal(to_numpy(Hashing(7)(x.astype("int64"))), out)
    salted = to_numpy(Hashing(7, salt=[3, 5])(x))
    np.testing.assert_array_equal(salted, [[_reference_bin(int(v), 7, (3, 5)) for v in x[0]]])


def test_hashing_mask_strings_and_modes():
    x = np.array([[1, 0, 2, 0]], "int32")
    out = to_numpy(Hashing(5, mask_value=0)(x))
    assert out[0, 1] == out[0, 3] == 0 and out[0, 0] > 0 and out[0, 2] > 0
    strings = to_numpy(Hashing(5)(np.array([["a", "b", "a"]])))
    assert strings.shape == (1, 3) and strings[0, 0] == strings[0, 2]
    counts = to_numpy(Hashing(5, output_mode="count")(x))
    assert counts.shape == (1, 5) and counts.sum() == 4
    with pytest.raises(ValueError, match="salt"):
        Hashing(5, salt=[1, 2, 3])


@pytest.mark.parametrize(
    ("kwargs", "dtype"),
    [
        ({}, "int64"),
        ({"dtype": "int32"}, "int32"),
        ({"output_mode": "one_hot"}, "float32"),
        ({"output_mode": "multi_hot"}, "float32"),
        ({"output_mode": "count", "dtype": "int32"}, "int32"),
    ],
)
def test_hashing_outputs_the_layer_dtype_as_keras_does(kwargs, dtype):
    """Keras 3 gives int64 bins by default (floatx encodings), in the layer's dtype."""
    x = np.array([[0, 1, 2, -1]], "int32")
    layer = Hashing(7, **kwargs)
    out = layer(x)
    assert ops.dtype(out) == stored_dtype(dtype)
    assert layer(Input((4,), dtype="int32")).dtype == dtype
    bins = [_reference_bin(int(v), 7) for v in x[0]]
    expected = {"int": [bins], "one_hot": np.eye(7)[[bins]], "multi_hot": [np.eye(7)[bins].max(0)]}
    expected["count"] = [np.eye(7)[bins].sum(0)]
    np.testing.assert_array_equal(to_numpy(out), expected[kwargs.get("output_mode", "int")])


def test_hashing_int_mode_refuses_a_float_dtype():
    with pytest.raises(ValueError, match="'int32' or 'int64'"):
        Hashing(7, dtype="float32")


@pytest.mark.parametrize(
    ("kwargs", "dtype"),
    [({}, "int64"), ({"dtype": "int32"}, "int32"), ({"output_mode": "one_hot"}, "float32")],
)
def test_hashed_crossing_outputs_the_layer_dtype_as_keras_does(kwargs, dtype):
    a, b = np.array([1, 2], "int32"), np.array([3, 4], "int32")
    assert ops.dtype(HashedCrossing(5, **kwargs)((a, b))) == stored_dtype(dtype)
    symbolic = (Input((), dtype="int32"), Input((), dtype="int32"))
    assert HashedCrossing(5, **kwargs)(symbolic).dtype == dtype


def test_hashed_crossing():
    a, b = np.array([1, 2, 1], "int32"), np.array([3, 4, 3], "int32")
    out = run_layer_test(HashedCrossing, {"num_bins": 11}, input_data=(a, b), input_dtype="int32")
    assert out.shape == (3,) and out[0] == out[2] and ((out >= 0) & (out < 11)).all()
    one_hot = to_numpy(HashedCrossing(11, output_mode="one_hot")((a, b)))
    np.testing.assert_array_equal(one_hot, np.eye(11)[out])
    strings = to_numpy(HashedCrossing(11)((np.array(["x", "y", "x"]), b)))
    assert strings[0] == strings[2]
    with pytest.raises(ValueError, match="same shape"):
        HashedCrossing(3)((a, np.array([1, 2], "int32")))
