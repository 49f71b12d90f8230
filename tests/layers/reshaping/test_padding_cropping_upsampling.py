"""Cropping, ZeroPadding and UpSampling in 1D/2D/3D, both data formats, against NumPy."""

import numpy as np
import pytest

from tests.layers.harness import random_input, run_layer_test, to_numpy
from tripod import layers

FORMATS = ["channels_last", "channels_first"]


def spatial(rank, data_format):
    first = 2 if data_format == "channels_first" else 1
    return list(range(first, first + rank))


def np_crop(x, pairs, axes):
    index = [slice(None)] * x.ndim
    for axis, (a, b) in zip(axes, pairs):
        index[axis] = slice(a, x.shape[axis] - b)
    return x[tuple(index)]


def np_pad(x, pairs, axes):
    widths = [(0, 0)] * x.ndim
    for axis, pair in zip(axes, pairs):
        widths[axis] = pair
    return np.pad(x, widths)


def np_upsample(x, sizes, axes):
    for axis, size in zip(axes, sizes):
        x = np.repeat(x, size, axis=axis)
    return x


def test_cropping1d():
    x = random_input((2, 6, 3))
    out = run_layer_test(
        layers.Cropping1D, {"cropping": (1, 2)}, input_data=x, expected_output_shape=(2, 3, 3)
    )
    np.testing.assert_array_equal(out, x[:, 1:4])
    assert layers.Cropping1D(2).get_config()["cropping"] == (2, 2)
    with pytest.raises(ValueError, match="cropping"):
        layers.Cropping1D((3, 3))(x)


@pytest.mark.parametrize("data_format", FORMATS)
def test_cropping2d_3d(data_format):
    x = random_input((2, 5, 6, 7))
    pairs = ((1, 2), (0, 3))
    out = run_layer_test(
        layers.Cropping2D, {"cropping": pairs, "data_format": data_format}, input_data=x
    )
    np.testing.assert_array_equal(out, np_crop(x, pairs, spatial(2, data_format)))
    x = random_input((1, 4, 5, 6, 3))
    out = to_numpy(layers.Cropping3D(1, data_format=data_format)(x))
    np.testing.assert_array_equal(out, np_crop(x, ((1, 1),) * 3, spatial(3, data_format)))
    run_layer_test(layers.Cropping3D, {"data_format": data_format}, input_data=x)


def test_cropping_arguments_and_errors():
    assert layers.Cropping2D(1).cropping == ((1, 1), (1, 1))
    assert layers.Cropping2D((1, 2)).cropping == ((1, 1), (2, 2))
    with pytest.raises(ValueError, match="cropping"):
        layers.Cropping2D((1, 2, 3))
    with pytest.raises(ValueError, match="cropping"):
        layers.Cropping2D(((1, 1), (1, 1)))(np.ones((1, 2, 5, 1), "float32"))
    with pytest.raises(ValueError, match="expected ndim=4"):
        layers.Cropping2D()(np.ones((1, 2, 5), "float32"))


@pytest.mark.parametrize("data_format", FORMATS)
def test_zero_padding(data_format):
    x = random_input((2, 4, 3))
    out = run_layer_test(
        layers.ZeroPadding1D, {"padding": (1, 2), "data_format": data_format}, input_data=x
    )
    np.testing.assert_array_equal(out, np_pad(x, ((1, 2),), spatial(1, data_format)))
    x = random_input((2, 3, 4, 2))
    pairs = ((1, 0), (2, 3))
    out = run_layer_test(
        layers.ZeroPadding2D, {"padding": pairs, "data_format": data_format}, input_data=x
    )
    np.testing.assert_array_equal(out, np_pad(x, pairs, spatial(2, data_format)))
    x = random_input((1, 2, 3, 2, 2))
    out = run_layer_test(
        layers.ZeroPadding3D, {"padding": (1, 2, 0), "data_format": data_format}, input_data=x
    )
    np.testing.assert_array_equal(out, np_pad(x, ((1, 1), (2, 2), (0, 0)), spatial(3, data_format)))


def test_zero_padding_config_and_errors():
    assert layers.ZeroPadding1D(2).get_config()["padding"] == (2, 2)
    assert layers.ZeroPadding2D(1).get_config()["padding"] == ((1, 1), (1, 1))
    with pytest.raises(ValueError, match="padding"):
        layers.ZeroPadding2D(-1)


@pytest.mark.parametrize("data_format", FORMATS)
def test_upsampling_nearest(data_format):
    x = random_input((2, 3, 2))
    out = run_layer_test(
        layers.UpSampling1D, {"size": 3}, input_data=x, expected_output_shape=(2, 9, 2)
    )
    np.testing.assert_array_equal(out, np.repeat(x, 3, axis=1))
    x = random_input((2, 3, 4, 2))
    out = run_layer_test(
        layers.UpSampling2D, {"size": (2, 3), "data_format": data_format}, input_data=x
    )
    np.testing.assert_array_equal(out, np_upsample(x, (2, 3), spatial(2, data_format)))
    x = random_input((1, 2, 3, 2, 2))
    out = run_layer_test(
        layers.UpSampling3D, {"size": (1, 2, 3), "data_format": data_format}, input_data=x
    )
    np.testing.assert_array_equal(out, np_upsample(x, (1, 2, 3), spatial(3, data_format)))


def np_bilinear_axis(x, factor, axis):
    """Resize one axis by `factor` with half-pixel centres and edge clamping."""
    n = x.shape[axis]
    centres = (np.arange(n * factor) + 0.5) / factor - 0.5
    centres = np.clip(centres, 0, n - 1)
    low = np.floor(centres).astype(int)
    high = np.minimum(low + 1, n - 1)
    w = (centres - low).reshape([-1 if a == axis else 1 for a in range(x.ndim)])
    return np.take(x, low, axis=axis) * (1 - w) + np.take(x, high, axis=axis) * w


@pytest.mark.parametrize("data_format", FORMATS)
def test_upsampling2d_bilinear(data_format):
    x = random_input((1, 3, 4, 2))
    init = {"size": (2, 3), "data_format": data_format, "interpolation": "bilinear"}
    out = run_layer_test(layers.UpSampling2D, init, input_data=x)
    h, w = spatial(2, data_format)
    expected = np_bilinear_axis(np_bilinear_axis(x, 2, h), 3, w)
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5)
    grid = np.arange(4, dtype="float32").reshape(1, 2, 2, 1)
    out = to_numpy(layers.UpSampling2D(2, interpolation="bilinear")(grid))[0, :, :, 0]
    np.testing.assert_allclose(out[0], [0.0, 0.25, 0.75, 1.0], atol=1e-6)


def test_upsampling_config_and_errors():
    assert layers.UpSampling1D(3).get_config()["size"] == 3
    assert layers.UpSampling2D(3).get_config()["size"] == (3, 3)
    assert layers.UpSampling3D().get_config()["size"] == (2, 2, 2)
    with pytest.raises(ValueError, match="interpolation"):
        layers.UpSampling2D(interpolation="cubic-ish")
    with pytest.raises(ValueError, match="size"):
        layers.UpSampling2D(0)
