"""The merge layers and their functional forms against NumPy: values, broadcasting, masks, errors."""

import functools

import numpy as np
import pytest

import tripod
from tests.layers.harness import random_input, run_layer_test, to_numpy
from tripod import layers, ops

A, B, C = (random_input((2, 3, 4), seed=s) for s in range(3))

ELEMENTWISE = [
    (layers.Add, lambda xs: functools.reduce(np.add, xs)),
    (layers.Multiply, lambda xs: functools.reduce(np.multiply, xs)),
    (layers.Average, lambda xs: sum(xs) / len(xs)),
    (layers.Maximum, lambda xs: functools.reduce(np.maximum, xs)),
    (layers.Minimum, lambda xs: functools.reduce(np.minimum, xs)),
]


@pytest.mark.parametrize("cls,reference", ELEMENTWISE)
def test_elementwise_merges(cls, reference):
    out = run_layer_test(
        cls, input_data=[A, B], expected_output_shape=(2, 3, 4), supports_masking=True
    )
    np.testing.assert_allclose(out, reference([A, B]), rtol=1e-6)
    np.testing.assert_allclose(to_numpy(cls()([A, B, C])), reference([A, B, C]), rtol=1e-6)
    # A lower-rank input gets size-1 axes after the batch axis: (2, 4) -> (2, 1, 4).
    low = random_input((2, 4), seed=5)
    np.testing.assert_allclose(
        to_numpy(cls()([A, low])), reference([A, low[:, None, :]]), rtol=1e-6
    )
    assert cls().compute_output_shape([(None, 3, 4), (None, 1, 4)]) == (None, 3, 4)


def test_subtract():
    out = run_layer_test(layers.Subtract, input_data=[A, B], expected_output_shape=(2, 3, 4))
    np.testing.assert_allclose(out, A - B, rtol=1e-6)
    with pytest.raises(ValueError, match="exactly 2 inputs"):
        layers.Subtract()([A, B, C])


def test_merge_errors_name_the_layer_and_shapes():
    with pytest.raises(
        ValueError, match=r"Add 'my_add'.*incompatible shapes \[\(2, 3, 4\), \(2, 2, 4\)\]"
    ):
        layers.Add(name="my_add")([A, np.ones((2, 2, 4), "float32")])
    with pytest.raises(ValueError, match="list of inputs"):
        layers.Add()(A)


def test_merge_masks():
    ma = np.array([[True, False, True], [True, True, False]])
    mb = np.array([[True, True, False], [False, True, False]])
    layer = layers.Add()
    np.testing.assert_array_equal(to_numpy(layer.compute_mask([A, B], [ma, mb])), ma | mb)
    assert layer.compute_mask([A, B], [None, mb]) is None
    assert layer.compute_mask([A, B], None) is None
    x, y = layers.Input((3, 4)), layers.Input((3, 4))
    masked = [layers.Masking()(x), layers.Masking()(y)]
    assert tuple(layers.Add()(masked)._keras_mask.shape) == (None, 3)


def test_concatenate():
    out = run_layer_test(
        layers.Concatenate,
        input_data=[A, B],
        expected_output_shape=(2, 3, 8),
        supports_masking=True,
    )
    np.testing.assert_array_equal(out, np.concatenate([A, B], axis=-1))
    d = random_input((2, 5, 4))
    out = to_numpy(layers.Concatenate(axis=1)([A, d]))
    np.testing.assert_array_equal(out, np.concatenate([A, d], axis=1))
    assert layers.Concatenate(axis=1).compute_output_shape([(None, 3, 4), (None, None, 4)]) == (
        None,
        None,
        4,
    )
    with pytest.raises(
        ValueError, match=r"Concatenate 'cat'.*matching shapes.*\(2, 3, 4\), \(2, 5, 4\)"
    ):
        layers.Concatenate(name="cat")([A, d])


def test_concatenate_masks():
    ma = np.array([[True, False, True], [True, True, False]])
    mb = np.array([[True, True, False], [False, False, False]])
    along_features = layers.Concatenate(axis=-1)
    np.testing.assert_array_equal(to_numpy(along_features.compute_mask([A, B], [ma, mb])), ma | mb)
    np.testing.assert_array_equal(
        to_numpy(along_features.compute_mask([A, B], [None, mb])), np.ones((2, 3), bool)
    )
    along_time = layers.Concatenate(axis=1)
    np.testing.assert_array_equal(
        to_numpy(along_time.compute_mask([A, B], [ma, mb])), np.concatenate([ma, mb], 1)
    )
    assert along_time.compute_mask([A, B], [None, None]) is None


def np_dot(x, y, axes):
    """Per-sample tensordot, as Keras's batch_dot."""
    out = np.stack([np.tensordot(a, b, axes=(axes[0] - 1, axes[1] - 1)) for a, b in zip(x, y)])
    return out[:, None] if out.ndim == 1 else out


def test_dot():
    x, y = random_input((2, 3)), random_input((2, 3), seed=1)
    out = run_layer_test(layers.Dot, {"axes": 1}, input_data=[x, y], expected_output_shape=(2, 1))
    np.testing.assert_allclose(out, np_dot(x, y, (1, 1)), rtol=1e-5)
    y3 = random_input((2, 4, 5), seed=2)
    out = to_numpy(layers.Dot(axes=(2, 1))([A, y3]))
    np.testing.assert_allclose(out, np_dot(A, y3, (2, 1)), rtol=1e-5, atol=1e-6)
    y4 = random_input((2, 5, 4), seed=3)
    out = to_numpy(layers.Dot(axes=-1)([A, y4]))
    np.testing.assert_allclose(out, np_dot(A, y4, (2, 2)), rtol=1e-5, atol=1e-6)
    assert layers.Dot(axes=(1, 1)).compute_output_shape([(None, 3, 4), (None, 3)]) == (None, 4)


def test_dot_normalize_and_errors():
    x, y = random_input((2, 3)), random_input((2, 3), seed=1)
    out = to_numpy(layers.Dot(axes=1, normalize=True)([x, y]))
    cosine = (x * y).sum(1) / np.linalg.norm(x, axis=1) / np.linalg.norm(y, axis=1)
    np.testing.assert_allclose(out[:, 0], cosine, rtol=1e-5)
    with pytest.raises(ValueError, match=r"axis values 3 \(at axis 1\) != 4"):
        layers.Dot(axes=1)([x, random_input((2, 4))])
    with pytest.raises(ValueError, match="axes"):
        layers.Dot(axes="last")
    with pytest.raises(ValueError, match="exactly 2 inputs"):
        layers.Dot(axes=1)([x, x, x])
    assert layers.Dot(axes=1).compute_mask([x, y], [None, None]) is None


def test_functional_forms():
    a, b = layers.Input((3,)), layers.Input((3,))
    checks = {
        layers.add: np.add,
        layers.subtract: np.subtract,
        layers.multiply: np.multiply,
        layers.maximum: np.maximum,
        layers.minimum: np.minimum,
        layers.average: lambda p, q: (p + q) / 2,
    }
    x, y = random_input((2, 3)), random_input((2, 3), seed=1)
    for fn, reference in checks.items():
        assert tuple(fn([a, b]).shape) == (None, 3)
        np.testing.assert_allclose(to_numpy(fn([x, y])), reference(x, y), rtol=1e-6)
    assert tuple(layers.concatenate([a, b], axis=1).shape) == (None, 6)
    np.testing.assert_allclose(
        to_numpy(layers.dot([x, y], axes=1)), np_dot(x, y, (1, 1)), rtol=1e-5
    )
    assert layers.add([x, y], name="named_add") is not None


def mask_as_output(tensor, mask=None):
    """A Lambda function that outputs the mask it receives (for the functional mask tests)."""
    return ops.cast(mask, "float32")


def test_masks_flow_through_merges_in_functional_models():
    x = layers.Input((3, 2))
    masked = layers.Masking()(x)
    model = tripod.Model(x, layers.Lambda(mask_as_output)(layers.Add()([masked, masked])))
    data = np.ones((1, 3, 2), "float32")
    data[0, 1] = 0.0
    np.testing.assert_array_equal(to_numpy(model(data)), [[1, 0, 1]])
    ids = layers.Input((4,), dtype="int32")
    embedded = layers.Embedding(5, 2, mask_zero=True)(ids)
    joined = layers.Concatenate()([embedded, embedded])
    model = tripod.Model(ids, layers.Lambda(mask_as_output)(joined))
    np.testing.assert_array_equal(to_numpy(model(np.array([[0, 1, 2, 0]]))), [[0, 1, 1, 0]])
