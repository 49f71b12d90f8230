"""IntegerLookup (on tensors) and StringLookup (on host NumPy strings) against NumPy references."""

import numpy as np
import pytest

from tests.backends.ops.harness import stored_dtype
from tests.layers.harness import run_layer_test, to_numpy
from tripod.backends import active
from tripod.layers import IntegerLookup, StringLookup

ops = active()


def test_integer_lookup_int():
    x = np.array([[10, 99, 30, 20]], "int64")
    out = run_layer_test(
        IntegerLookup,
        {"vocabulary": [30, 10, 20]},
        input_data=x,
        input_dtype="int64",
        expected_output_dtype="int64",
    )
    np.testing.assert_array_equal(out, [[2, 0, 1, 3]])


def test_integer_lookup_mask_oov_invert():
    layer = IntegerLookup(vocabulary=[10, 20, 30], mask_token=0)
    assert layer.get_vocabulary() == [0, -1, 10, 20, 30] and layer.vocabulary_size() == 5
    np.testing.assert_array_equal(to_numpy(layer(np.array([[10, 0, 99, 30]]))), [[2, 0, 1, 4]])
    two_oov = IntegerLookup(vocabulary=[10, 20, 30], num_oov_indices=2)
    np.testing.assert_array_equal(to_numpy(two_oov(np.array([[10, 99, 98, -1]]))), [[2, 1, 0, 1]])
    inverse = IntegerLookup(vocabulary=[10, 20, 30], invert=True)
    np.testing.assert_array_equal(to_numpy(inverse(np.array([[1, 0, 3, 7]]))), [[10, -1, 30, -1]])


def test_integer_lookup_adapt_and_tf_idf():
    layer = IntegerLookup(output_mode="tf_idf")
    data = np.array([[5, 5, 7], [5, 9, 9]])
    layer.adapt(data)
    assert layer.get_vocabulary() == [-1, 5, 9, 7]
    idf = [np.log(1 + 2 / 3), np.log(2.0), np.log(2.0)]
    np.testing.assert_allclose(layer.get_config()["idf_weights"], idf)
    out = to_numpy(layer(np.array([[5, 7, 5, 4]])))
    np.testing.assert_allclose(out, [[np.mean(idf), 2 * idf[0], 0.0, idf[2]]], rtol=1e-6)
    capped = IntegerLookup(max_tokens=3)
    capped.adapt(np.array([5, 5, 5, 7, 7, 9, 9, 9, 9]))
    assert capped.get_vocabulary() == [-1, 9, 5]


@pytest.mark.parametrize("mode", ["one_hot", "multi_hot", "count"])
def test_integer_lookup_modes(mode):
    x = np.array([[10, 10, 99]], "int64") if mode != "one_hot" else np.array([10, 99, 30], "int64")
    out = run_layer_test(
        IntegerLookup,
        {"vocabulary": [10, 20, 30], "output_mode": mode},
        input_data=x,
        input_dtype="int64",
        expected_output_dtype="float32",
    )
    expected = {
        "one_hot": np.eye(4)[[1, 0, 3]],
        "multi_hot": [[1, 1, 0, 0]],
        "count": [[1, 2, 0, 0]],
    }[mode]
    np.testing.assert_array_equal(out, expected)


def test_integer_lookup_errors():
    with pytest.raises(ValueError, match="output_mode"):
        IntegerLookup(output_mode="bad")
    with pytest.raises(ValueError, match="repeated"):
        IntegerLookup(vocabulary=[1, 1])
    with pytest.raises(ValueError, match="adapt"):
        IntegerLookup()(np.array([1]))
    config = IntegerLookup(vocabulary=[1, 2]).get_config()
    assert IntegerLookup.from_config(config).get_vocabulary() == [-1, 1, 2]


def test_string_lookup_host_strings():
    """String inputs are host NumPy arrays; the result is a backend int64 tensor."""
    layer = StringLookup(vocabulary=["a", "b"])
    out = layer(np.array([["a", "c", "b"]]))
    assert ops.is_tensor(out) and ops.dtype(out) == stored_dtype("int64")
    np.testing.assert_array_equal(to_numpy(out), [[1, 0, 2]])
    np.testing.assert_array_equal(to_numpy(layer([["b", "a"]])), [[2, 1]])
    np.testing.assert_array_equal(to_numpy(layer(np.array([[b"a"]], dtype=object))), [[1]])
    inverse = StringLookup(vocabulary=["a", "b"], invert=True)
    np.testing.assert_array_equal(inverse(np.array([[1, 0, 2, 5]])), [["a", "[UNK]", "b", "[UNK]"]])
    config = layer.get_config()
    assert (
        config["vocabulary"] == ["a", "b"]
        and config["vocabulary_size"] == 3
        and config["encoding"] == "utf-8"
    )
    assert StringLookup.from_config(config).get_config() == config


def test_string_lookup_modes_mask_adapt():
    # As in Keras, outside output_mode "int" the mask token has no index and is dropped.
    layer = StringLookup(vocabulary=["a", "b"], output_mode="multi_hot", mask_token="")
    assert layer.get_vocabulary() == ["[UNK]", "a", "b"]
    out = to_numpy(layer(np.array([["a", "c", ""], ["b", "b", "b"]])))
    np.testing.assert_array_equal(out, [[1, 1, 0], [0, 0, 1]])
    adapted = StringLookup(output_mode="count")
    adapted.adapt(np.array([["x", "y", "x"], ["z", "x", "y"]]))
    assert adapted.get_vocabulary() == ["[UNK]", "x", "y", "z"]
    np.testing.assert_array_equal(to_numpy(adapted(np.array([["x", "x", "w"]]))), [[1, 2, 0, 0]])
    with pytest.raises(ValueError, match="not in the vocabulary"):
        StringLookup(vocabulary=["a"], num_oov_indices=0)(np.array(["q"]))
