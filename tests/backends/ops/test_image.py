"""Parity of the image ops, in both data formats, batched and single images."""

import numpy as np
import pytest

from tests.backends.ops import harness
from tests.backends.ops.cases import case, f32, ops_in, params
from tests.backends.ops.harness import randn, uniform

# Resampling sums a few weighted taps per output pixel; the weights are computed in float32 with
# framework-specific formulas (e.g. a*x + b vs a*(x + b/a)), which moves results by a few ulps.
RESAMPLE_TOL = 1e-4

IMG = uniform(2, 6, 8, 3)
IMG_CF = np.moveaxis(IMG, -1, 1).copy()
SINGLE = uniform(5, 7, 3)
ODD = uniform(2, 5, 9, 3)
BIG = uniform(2, 12, 13, 3)  # room for ssim's default 11x11 filter


def _dtype_and_values(ops, result):
    """The dtype, and the values as floats to compare within 1: integer images round the
    interpolated x.5 ties either way, depending on float rounding in the weights."""
    return ops.dtype(result), ops.cast(result, "float32")


def _both_formats(op, *args, **kwargs):
    """The case for a channels_last batch and the same batch as channels_first."""
    return [
        case(op, IMG, *args, **kwargs),
        case(op, IMG_CF, *args, data_format="channels_first", **kwargs),
    ]


COLOR = [
    *(c for op in ("rgb_to_grayscale", "rgb_to_hsv", "hsv_to_rgb") for c in _both_formats(op)),
    *(case(op, SINGLE) for op in ("rgb_to_grayscale", "rgb_to_hsv", "hsv_to_rgb")),
    case("rgb_to_grayscale", IMG.astype("float64")),
    case("rgb_to_grayscale", (IMG * 255).astype("uint8")).then(_dtype_and_values).tol(1.0, 0),
    case("rgb_to_hsv", f32([[[0.0, 0.0, 0.0], [1.0, 1.0, 1.0], [0.5, 0.2, 0.2], [0.2, 0.2, 0.9]]])),
    case("hsv_to_rgb", f32([[[0.0, 0.0, 0.5], [0.999, 1.0, 1.0], [0.5, 0.3, 0.2]]])),
    case("rgb_to_hsv", IMG.astype("float64")),
]

CROP_PAD = [
    case("crop_images", IMG, top_cropping=1, left_cropping=2, target_height=3, target_width=4),
    case("crop_images", IMG, 1, 2, 1, 2),
    case("crop_images", IMG, bottom_cropping=1, right_cropping=2, target_height=3, target_width=4),
    case("crop_images", IMG, top_cropping=1, bottom_cropping=2, left_cropping=0, target_width=3),
    case("crop_images", SINGLE, 0, 0, 2, 3),
    case(
        "crop_images", IMG_CF, 1, 1, target_height=2, target_width=5, data_format="channels_first"
    ),
    case("pad_images", IMG, top_padding=1, left_padding=2, target_height=9, target_width=10),
    case("pad_images", IMG, 1, 2, 1, 2),
    case("pad_images", IMG, bottom_padding=1, right_padding=2, target_height=9, target_width=10),
    case("pad_images", SINGLE, 0, 3, 2, 0),
    case("pad_images", IMG_CF, 2, 1, target_height=8, target_width=9, data_format="channels_first"),
    case("pad_images", (IMG * 10).astype("int32"), 1, 1, 1, 1),
]


def _resize_cases():
    for size in ((9, 12), (4, 5), (6, 8)):
        yield case("resize", IMG, size).tol(RESAMPLE_TOL)
    for interpolation in ("bilinear", "bicubic", "lanczos3", "lanczos5"):
        yield case("resize", IMG, (9, 11), interpolation).tol(RESAMPLE_TOL)
        yield case("resize", IMG, (4, 5), interpolation=interpolation).tol(RESAMPLE_TOL)
    # "nearest": sizes whose ratio in/out has an odd numerator, so no output pixel centre maps
    # exactly onto a boundary between two input pixels.
    yield case("resize", IMG, (12, 16), "nearest")
    yield case("resize", ODD, (3, 7), "nearest")
    yield case("resize", ODD, (10, 9), interpolation="nearest")
    for interpolation in ("bilinear", "bicubic", "lanczos3"):
        yield case("resize", IMG, (3, 5), interpolation, antialias=True).tol(RESAMPLE_TOL)
    yield case("resize", IMG_CF, (4, 12), data_format="channels_first").tol(RESAMPLE_TOL)
    yield case("resize", IMG_CF, (12, 8), "nearest", data_format="channels_first")
    yield case("resize", SINGLE, (10, 4)).tol(RESAMPLE_TOL)
    yield case("resize", IMG, (4, 4), crop_to_aspect_ratio=True).tol(RESAMPLE_TOL)
    yield case("resize", IMG, (4, 4), pad_to_aspect_ratio=True).tol(RESAMPLE_TOL)
    yield case("resize", IMG, (4, 4), pad_to_aspect_ratio=True, fill_value=0.5).tol(RESAMPLE_TOL)
    yield case(
        "resize", IMG_CF, (6, 4), "nearest", crop_to_aspect_ratio=True, data_format="channels_first"
    )
    yield (
        case("resize", (IMG * 255).astype("uint8"), (9, 11), "bilinear")
        .then(_dtype_and_values)
        .tol(1.0, 0)
    )


# Coefficients with several digits, so no sample lands on a pixel's half-way point, where
# "nearest" could round either way.
ROTATE = np.array([0.913, -0.317, 1.234, 0.291, 0.907, -0.713, 0.0, 0.0], "float32")
SHEAR = np.array(
    [
        [1.03, 0.247, -0.61, 0.013, 1.09, 0.31, 0.0, 0.0],
        [0.83, 0.021, 0.43, -0.19, 1.02, 0.87, 0.011, -0.017],
    ],
    "float32",
)
MIXED = np.stack([ROTATE, SHEAR[1]])
START = np.array([[0.0, 0.0], [7.0, 0.0], [0.0, 5.0], [7.0, 5.0]], "float32")
END = np.array([[0.6, 0.3], [6.5, 0.8], [0.2, 4.6], [7.3, 5.4]], "float32")
COORDS = np.stack([uniform(3, 4, low=-1.2, high=5.7), uniform(3, 4, low=-1.4, high=6.6)])


def _geometry_cases():
    for interpolation in ("nearest", "bilinear"):
        for fill_mode in ("constant", "nearest", "wrap", "mirror", "reflect"):
            yield case("affine_transform", IMG, MIXED, interpolation, fill_mode).tol(RESAMPLE_TOL)
        yield case("affine_transform", IMG, SHEAR, interpolation, fill_value=0.5).tol(RESAMPLE_TOL)
        yield case("perspective_transform", IMG, START, END, interpolation).tol(RESAMPLE_TOL)
    for order in (0, 1):
        for fill_mode in ("constant", "nearest", "wrap", "mirror", "reflect"):
            yield case("map_coordinates", IMG[0, :, :, 0], COORDS, order, fill_mode).tol(
                RESAMPLE_TOL
            )


GEOMETRY = [
    *_geometry_cases(),
    case("affine_transform", SINGLE, ROTATE).tol(RESAMPLE_TOL),
    case("affine_transform", IMG_CF, SHEAR, data_format="channels_first").tol(RESAMPLE_TOL),
    case("affine_transform", SINGLE, np.array([1, 0, 0, 0, 1, 0, 0, 0], "float32")),  # identity
    case(
        "perspective_transform",
        IMG,
        np.stack([START, START]),
        np.stack([END, START]),
        fill_value=0.25,
    ).tol(RESAMPLE_TOL),
    case("perspective_transform", IMG_CF, START, END, data_format="channels_first").tol(
        RESAMPLE_TOL
    ),
    case("perspective_transform", SINGLE, START, END).tol(RESAMPLE_TOL),
    case("map_coordinates", IMG[0, :, :, 0], COORDS, 1, fill_value=-1.0).tol(RESAMPLE_TOL),
    case(
        "map_coordinates", IMG[0], np.stack([COORDS[0], COORDS[1], np.ones((3, 4), "float32")]), 1
    ).tol(RESAMPLE_TOL),
    case("map_coordinates", uniform(7), uniform(1, 5, low=-1, high=7), 0),
    case(
        "scale_and_translate",
        IMG,
        (2, 9, 12, 3),
        np.array([1.5, 1.5], "float32"),
        np.array([0.0, 0.0], "float32"),
        (1, 2),
        "linear",
    ).tol(RESAMPLE_TOL),
    case(
        "scale_and_translate",
        IMG,
        (2, 3, 4, 3),
        np.array([0.5, 0.5], "float32"),
        np.array([0.2, -0.1], "float32"),
        (1, 2),
        "linear",
    ).tol(RESAMPLE_TOL),
    case(
        "scale_and_translate",
        IMG,
        (2, 3, 4, 3),
        np.array([0.5, 0.5], "float32"),
        np.array([0.0, 0.0], "float32"),
        (1, 2),
        "cubic",
        antialias=False,
    ).tol(RESAMPLE_TOL),
    case(
        "scale_and_translate",
        IMG[0, :, :, 0],
        (8, 8),
        np.array([1.3, 1.0], "float32"),
        np.array([0.5, 0.0], "float32"),
        (0, 1),
        "lanczos3",
    ).tol(RESAMPLE_TOL),
    case(
        "scale_and_translate",
        uniform(9),
        (5,),
        np.array([0.6], "float32"),
        np.array([0.0], "float32"),
        (0,),
        "lanczos5",
    ).tol(RESAMPLE_TOL),
    # alpha=0 means no displacement, so the result is the input whatever the random field.
    case("elastic_transform", IMG, 0.0, seed=3),
    case(
        "elastic_transform",
        IMG_CF,
        alpha=0.0,
        interpolation="nearest",
        seed=1,
        data_format="channels_first",
    ),
]

FILTERS = [
    *_both_formats("sobel_edges"),
    case("sobel_edges", IMG.astype("float64")),
    *_both_formats("gaussian_blur"),
    case("gaussian_blur", IMG, (5, 3), (2.0, 0.7)),
    case("gaussian_blur", IMG, kernel_size=(3, 5), sigma=(1.5, 1.5)),
    case("gaussian_blur", SINGLE, (3, 3), (0.5, 1.0)),
    case("ssim", IMG, uniform(2, 6, 8, 3), filter_size=3),
    case("ssim", BIG, BIG),
    case("ssim", BIG, np.clip(BIG + 0.1 * randn(2, 12, 13, 3), 0, 1)),
    case("ssim", IMG, np.clip(IMG + 0.1 * randn(2, 6, 8, 3), 0, 1), 1.0, 5, 1.0),
    case(
        "ssim", IMG * 255, uniform(2, 6, 8, 3) * 255, max_val=255.0, filter_size=3, k1=0.02, k2=0.05
    ),
    case("ssim", IMG_CF, np.clip(IMG_CF - 0.1, 0, 1), filter_size=3, data_format="channels_first"),
]


def _patches():
    images = uniform(2, 7, 6, 3)
    volumes = uniform(2, 5, 6, 4, 2)
    for padding in ("valid", "same"):
        yield case("extract_patches", images, 2, padding=padding)
        yield case("extract_patches", images, (3, 2), (2, 1), padding=padding)
        yield case("extract_patches", images, 2, 1, 2, padding)
        yield case(
            "extract_patches",
            np.moveaxis(images, -1, 1).copy(),
            (2, 3),
            2,
            padding=padding,
            data_format="channels_first",
        )
        yield case("extract_patches_3d", volumes, 2, padding=padding)
        yield case("extract_patches_3d", volumes, (2, 3, 2), (1, 2, 2), padding=padding)
        yield case(
            "extract_patches_3d",
            np.moveaxis(volumes, -1, 1).copy(),
            2,
            1,
            2,
            padding,
            "channels_first",
        )
    yield case("extract_patches", images[0], 3)
    yield case("extract_patches_3d", volumes[0], (3, 2, 2), strides=(2, 2, 1))


PATCHES = list(_patches())

CASES = COLOR + CROP_PAD + list(_resize_cases()) + GEOMETRY + FILTERS + PATCHES
TESTED = ops_in(CASES)


@pytest.mark.parametrize("c", params(CASES))
def test_parity(c):
    c.run()


def test_elastic_transform_is_seeded_and_keeps_shape_and_range():
    ops = harness.BACKEND
    images = ops.convert_to_tensor(IMG)
    first = harness.to_numpy(ops.elastic_transform(images, alpha=5.0, sigma=2.0, seed=7))
    again = harness.to_numpy(ops.elastic_transform(images, alpha=5.0, sigma=2.0, seed=7))
    other = harness.to_numpy(ops.elastic_transform(images, alpha=5.0, sigma=2.0, seed=8))
    assert first.shape == IMG.shape and first.dtype == np.float32
    np.testing.assert_array_equal(first, again)
    assert not np.allclose(first, other)
    assert not np.allclose(first, IMG)
    # bilinear interpolation with reflected borders never leaves the input's range
    assert IMG.min() - 1e-6 <= first.min() and first.max() <= IMG.max() + 1e-6
