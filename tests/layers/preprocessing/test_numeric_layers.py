"""Rescaling, Normalization, CenterCrop and Resizing against NumPy references."""

import numpy as np
import pytest

import tripod
from tests.layers.harness import check_compiled_step, run_layer_test, to_numpy
from tripod.layers import CenterCrop, Input, Normalization, Rescaling, Resizing


def test_rescaling():
    x = np.arange(6, dtype="int32").reshape(2, 3)
    out = run_layer_test(
        Rescaling,
        {"scale": 1 / 255.0, "offset": -1.0},
        input_data=x,
        input_dtype="int32",
        expected_output_shape=(2, 3),
        expected_output_dtype="float32",
    )
    np.testing.assert_allclose(out, x / 255.0 - 1.0, rtol=1e-6)


def test_rescaling_per_channel():
    out = to_numpy(Rescaling([1.0, 2.0, 3.0])(np.ones((2, 3), "float32")))
    np.testing.assert_allclose(out, [[1, 2, 3]] * 2)


def test_rescaling_per_channel_channels_first():
    """Under the global channels_first format a per-channel scale (and offset) applies along the
    channels axis (-3), as Keras reshapes it, not along the width."""
    x = np.random.default_rng(0).uniform(size=(2, 3, 4, 3)).astype("float32")
    tripod.config.set_image_data_format("channels_first")
    try:
        out = to_numpy(Rescaling([1.0, 2.0, 3.0], offset=[0.0, 1.0, -1.0])(x))
    finally:
        tripod.config.set_image_data_format("channels_last")
    scale, offset = np.array([1.0, 2.0, 3.0]), np.array([0.0, 1.0, -1.0])
    np.testing.assert_allclose(out, x * scale[:, None, None] + offset[:, None, None], rtol=1e-6)


def test_normalization_given_mean_variance():
    x = np.random.default_rng(0).standard_normal((4, 3)).astype("float32")
    mean, var = [1.0, 2.0, 3.0], [4.0, 1.0, 0.25]
    out = run_layer_test(
        Normalization,
        {"mean": mean, "variance": var},
        input_data=x,
        run_compiled_check=False,
        expected_output_shape=(4, 3),
        expected_num_non_trainable_weights=0,
    )
    np.testing.assert_allclose(out, (x - mean) / np.sqrt(var), rtol=1e-5)
    back = to_numpy(Normalization(mean=mean, variance=var, invert=True)(out))
    np.testing.assert_allclose(back, x, rtol=1e-5, atol=1e-6)


def test_normalization_given_mean_variance_compiled():
    x = np.random.default_rng(0).standard_normal((4, 3)).astype("float32")
    check_compiled_step(Normalization(mean=[1.0, 2.0, 3.0], variance=[4.0, 1.0, 0.25]), x)


def test_normalization_adapt_and_weights():
    data = np.random.default_rng(1).standard_normal((10, 2, 3)).astype("float32") * 3 + 1
    layer = Normalization(axis=(1, 2))
    layer.adapt(data)
    assert [v.path.split("/")[-1] for v in layer.weights] == ["mean", "variance", "count"]
    assert not any(v.trainable for v in layer.weights)
    np.testing.assert_allclose(layer.adapt_mean.numpy(), data.mean(0), rtol=1e-5)
    np.testing.assert_allclose(layer.adapt_variance.numpy(), data.var(0), rtol=1e-5)
    out = to_numpy(layer(data))
    np.testing.assert_allclose(out, (data - data.mean(0)) / data.std(0), rtol=1e-4, atol=1e-5)
    # batches: same statistics as all at once
    batched = Normalization()
    batched.adapt(iter([data[:4].reshape(-1, 3), data[4:].reshape(-1, 3)]))
    np.testing.assert_allclose(batched.adapt_mean.numpy(), data.reshape(-1, 3).mean(0), rtol=1e-5)
    run_layer_test(
        Normalization,
        {"axis": -1},
        input_shape=(2, 3),
        expected_num_non_trainable_weights=3,
        expected_num_trainable_weights=0,
    )


def test_normalization_adapt_leaves_count_at_zero_as_keras_does(tmp_path):
    """Keras 3 keeps `count` only to load old saved models: adapt never updates it (it stays 0);
    a saved model keeps the adapted mean and variance, and that count."""
    model = tripod.Sequential([Input((3,)), Normalization()])
    model.layers[0].adapt(np.arange(12.0, dtype="float32").reshape(4, 3))
    model.save(tmp_path / "normalization.keras")
    loaded = tripod.models.load_model(tmp_path / "normalization.keras").layers[0]
    for layer in (model.layers[0], loaded):
        np.testing.assert_allclose(to_numpy(layer.adapt_mean), [4.5, 5.5, 6.5])
        np.testing.assert_allclose(to_numpy(layer.adapt_variance), [11.25, 11.25, 11.25])
        assert to_numpy(layer.count) == 0


def test_normalization_errors():
    with pytest.raises(ValueError, match="mean and variance"):
        Normalization(mean=1.0)
    with pytest.raises(ValueError, match="axis 3 is out of range"):
        Normalization(axis=3)(np.ones((2, 3), "float32"))
    assert Normalization().get_config()["axis"] == (-1,)


def test_center_crop():
    x = np.arange(2 * 5 * 6 * 1, dtype="float32").reshape(2, 5, 6, 1)
    out = run_layer_test(
        CenterCrop, {"height": 3, "width": 2}, input_data=x, expected_output_shape=(2, 3, 2, 1)
    )
    np.testing.assert_array_equal(out, x[:, 1:4, 2:4, :])
    first = np.transpose(x, (0, 3, 1, 2))
    out = to_numpy(CenterCrop(3, 2, data_format="channels_first")(first))
    np.testing.assert_array_equal(out, first[:, :, 1:4, 2:4])
    assert CenterCrop(8, 2)(x).shape == (2, 8, 2, 1)  # larger than the input: resized


def test_resizing():
    x = np.arange(16, dtype="float32").reshape(1, 4, 4, 1)
    out = run_layer_test(
        Resizing,
        {"height": 2, "width": 2, "interpolation": "nearest"},
        input_data=x,
        expected_output_shape=(1, 2, 2, 1),
    )
    assert out.shape == (1, 2, 2, 1)
    # bilinear halving (no antialias) samples between pixel pairs: the mean of each 2x2 block
    out = to_numpy(Resizing(2, 2)(x))[0, ..., 0]
    np.testing.assert_allclose(out, x[0, ..., 0].reshape(2, 2, 2, 2).mean(axis=(1, 3)), rtol=1e-5)
    first = to_numpy(Resizing(2, 2, data_format="channels_first")(np.transpose(x, (0, 3, 1, 2))))
    np.testing.assert_allclose(first[:, 0], out[None], rtol=1e-5)
    assert Resizing(3, 5)(Input(batch_shape=(None, 4, 4, 2))).shape == (None, 3, 5, 2)


def test_resizing_errors():
    with pytest.raises(ValueError, match="interpolation"):
        Resizing(2, 2, interpolation="cubic-ish")
    with pytest.raises(ValueError, match="height"):
        Resizing(0, 2)
    with pytest.raises(ValueError):
        Resizing(2, 2)(np.ones((4, 4), "float32"))
