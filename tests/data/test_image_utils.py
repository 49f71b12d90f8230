"""load_img / img_to_array / array_to_img / save_img with Pillow, on real files."""

import io

import numpy as np
import pytest

from tests.data.builder_files import PIL_Image
from tripod.data.image_utils import array_to_img, img_to_array, load_img, save_img

PIXELS = (np.arange(4 * 6 * 3) * 3 % 256).astype(np.uint8).reshape(4, 6, 3)


@pytest.fixture
def png(tmp_path):
    path = tmp_path / "x.png"
    PIL_Image.fromarray(PIXELS).save(path)
    return path


def test_load_img_color_modes_and_sources(png):
    image = load_img(str(png))
    assert image.mode == "RGB" and image.size == (6, 4)
    np.testing.assert_array_equal(np.asarray(image), PIXELS)
    assert load_img(png, color_mode="rgba").mode == "RGBA"
    assert load_img(png, color_mode="grayscale").mode == "L"
    from_bytes = load_img(io.BytesIO(png.read_bytes()))
    np.testing.assert_array_equal(np.asarray(from_bytes), PIXELS)
    with pytest.raises(ValueError, match="color_mode"):
        load_img(png, color_mode="cmyk")
    with pytest.raises(TypeError, match="path-like"):
        load_img(3)


def test_load_img_resizes_with_pillow_and_keeps_aspect_ratio(png):
    resized = load_img(png, target_size=(2, 3))
    assert resized.size == (3, 2)
    np.testing.assert_array_equal(
        np.asarray(resized),
        np.asarray(PIL_Image.fromarray(PIXELS).resize((3, 2), PIL_Image.Resampling.NEAREST)),
    )
    square = load_img(png, target_size=(4, 4), keep_aspect_ratio=True)
    np.testing.assert_array_equal(np.asarray(square), PIXELS[:, 1:5])  # centred 4x4 crop
    assert load_img(png, target_size=(8, 12), interpolation="bicubic").size == (12, 8)
    with pytest.raises(ValueError, match="interpolation"):
        load_img(png, target_size=(2, 2), interpolation="area")


def test_img_to_array_layouts_and_dtypes(png):
    image = load_img(png)
    x = img_to_array(image)
    assert x.shape == (4, 6, 3) and x.dtype == np.float32
    np.testing.assert_array_equal(x, PIXELS)
    first = img_to_array(image, data_format="channels_first", dtype="uint8")
    assert first.shape == (3, 4, 6) and first.dtype == np.uint8
    gray = img_to_array(load_img(png, color_mode="grayscale"))
    assert gray.shape == (4, 6, 1)
    assert img_to_array(load_img(png, color_mode="grayscale"), "channels_first").shape == (1, 4, 6)
    with pytest.raises(ValueError, match="shape"):
        img_to_array(np.zeros((2, 2, 2, 2)))


def test_array_to_img_scales_and_picks_the_mode():
    x = np.array([[[0.0], [0.5]], [[1.0], [0.25]]])
    image = array_to_img(x)
    assert image.mode == "L"
    np.testing.assert_array_equal(np.asarray(image), [[0, 127], [255, 63]])
    raw = array_to_img(PIXELS.astype("float32"), scale=False)
    assert raw.mode == "RGB"
    np.testing.assert_array_equal(np.asarray(raw), PIXELS)
    rgba = array_to_img(np.ones((4, 2, 3)) * 9, data_format="channels_first", scale=False)
    assert rgba.mode == "RGBA" and rgba.size == (3, 2)
    assert array_to_img(np.full((2, 2, 1), 1000.0), scale=False).mode == "I"
    with pytest.raises(ValueError, match="rank-3"):
        array_to_img(np.zeros((2, 2)))
    with pytest.raises(ValueError, match="channels"):
        array_to_img(np.zeros((2, 2, 2)))


def test_save_img_round_trips_and_converts_rgba_for_jpeg(tmp_path):
    save_img(str(tmp_path / "a.png"), PIXELS, scale=False)
    np.testing.assert_array_equal(np.asarray(PIL_Image.open(tmp_path / "a.png")), PIXELS)
    save_img(tmp_path / "b.bin", PIXELS, file_format="png", scale=False)
    assert PIL_Image.open(tmp_path / "b.bin").format == "PNG"
    rgba = np.concatenate([PIXELS, np.full((4, 6, 1), 255, np.uint8)], axis=-1)
    with pytest.warns(UserWarning, match="RGBA"):
        save_img(str(tmp_path / "c.jpg"), rgba, scale=False, quality=95)
    reloaded = PIL_Image.open(tmp_path / "c.jpg")
    assert reloaded.format == "JPEG" and reloaded.mode == "RGB"
