"""Images to and from files and arrays with Pillow (`pip install 'tripod[image]'`):
`load_img`, `img_to_array`, `array_to_img`, `save_img`, with Keras 3's semantics, and the
image reader of `image_dataset_from_directory(format="tripod")`."""

import io
import pathlib
import warnings

import numpy as np

import tripod.backends
from tripod.backends import config
from tripod.backends.common import optional

#: load_img's interpolation names -> Pillow resampling filter names
PIL_INTERPOLATIONS = {
    "nearest": "NEAREST",
    "bilinear": "BILINEAR",
    "bicubic": "BICUBIC",
    "hamming": "HAMMING",
    "box": "BOX",
    "lanczos": "LANCZOS",
}

#: color_mode -> channels
COLOR_MODES = {"grayscale": 1, "rgb": 3, "rgba": 4}


def pil_image():
    """Pillow's `PIL.Image` module, imported now (an ImportError naming the extra without it)."""
    return optional.require("PIL.Image", "image", "Reading and writing images")


def _open(path):
    """A Pillow image read from a path, bytes path or `io.BytesIO` (the file is closed)."""
    if isinstance(path, io.BytesIO):
        return pil_image().open(path)
    if not isinstance(path, (str, bytes, pathlib.Path)):
        raise TypeError(f"load_img: path must be path-like or io.BytesIO, not {type(path)}")
    with open(path, "rb") as file:
        return pil_image().open(io.BytesIO(file.read()))


def _to_color_mode(image, color_mode):
    """`image` converted to `color_mode` (8/16/32-bit grayscale images stay as they are)."""
    if color_mode not in COLOR_MODES:
        raise ValueError(
            f"color_mode must be one of {tuple(COLOR_MODES)}. Received: color_mode={color_mode!r}"
        )
    if color_mode == "grayscale":
        return image if image.mode in ("L", "I;16", "I") else image.convert("L")
    wanted = color_mode.upper()
    return image if image.mode == wanted else image.convert(wanted)


def _crop_box(size, target):
    """The centred (left, top, right, bottom) box of `size` with `target`'s aspect ratio."""
    (width, height), (target_width, target_height) = size, target
    crop_height = min(height, (width * target_height) // target_width)
    crop_width = min(width, (height * target_width) // target_height)
    top, left = (height - crop_height) // 2, (width - crop_width) // 2
    return (left, top, left + crop_width, top + crop_height)


def load_img(
    path, color_mode="rgb", target_size=None, interpolation="nearest", keep_aspect_ratio=False
):
    """The image at `path` as a Pillow image in `color_mode`, resized to `target_size`
    (height, width) if given, after a centred crop to its aspect ratio with
    `keep_aspect_ratio`."""
    image = _to_color_mode(_open(path), color_mode)
    if target_size is None:
        return image
    size = (target_size[1], target_size[0])
    if image.size == size:
        return image
    if interpolation not in PIL_INTERPOLATIONS:
        raise ValueError(
            f"load_img: interpolation must be one of {tuple(PIL_INTERPOLATIONS)}. Received: "
            f"interpolation={interpolation!r}"
        )
    resample = getattr(pil_image().Resampling, PIL_INTERPOLATIONS[interpolation])
    box = _crop_box(image.size, size) if keep_aspect_ratio else None
    return image.resize(size, resample, box=box)


def img_to_array(img, data_format=None, dtype=None):
    """A Pillow image (or array) as a rank-3 NumPy array, channels last or first."""
    data_format = config.standardize_data_format(data_format)
    x = np.asarray(img, dtype=dtype or config.floatx())
    if x.ndim == 2:
        x = x[:, :, None]
    elif x.ndim != 3:
        raise ValueError(f"img_to_array: unsupported image shape {x.shape}, expected rank 2 or 3")
    return x.transpose(2, 0, 1) if data_format == "channels_first" else x


def array_to_img(x, data_format=None, scale=True, dtype=None):
    """A rank-3 array as a Pillow image (L, I, RGB or RGBA by its channels); with `scale`,
    values are first stretched to [0, 255]."""
    data_format = config.standardize_data_format(data_format)
    x = np.array(x, dtype=dtype or config.floatx())
    if x.ndim != 3:
        raise ValueError(
            f"array_to_img: expected a rank-3 array (one image), received shape {x.shape}"
        )
    if data_format == "channels_first":
        x = x.transpose(1, 2, 0)
    if scale:
        x = x - np.min(x)
        if np.max(x) != 0:
            x = x / np.max(x)
        x = x * 255
    channels = x.shape[2]
    image = pil_image()
    if channels in (3, 4):
        return image.fromarray(x.astype("uint8"), "RGB" if channels == 3 else "RGBA")
    if channels == 1:
        if np.max(x) > 255:  # 32-bit integer grayscale
            return image.fromarray(x[:, :, 0].astype("int32"), "I")
        return image.fromarray(x[:, :, 0].astype("uint8"), "L")
    raise ValueError(f"array_to_img: unsupported number of channels {channels}, expected 1, 3 or 4")


def save_img(path, x, data_format=None, file_format=None, scale=True, **kwargs):
    """Save the rank-3 array `x` as an image file (the format from the extension unless
    `file_format`; RGBA saved as JPEG is converted to RGB with a warning). `kwargs` go to
    Pillow's `Image.save`."""
    if file_format is None and isinstance(path, (str, pathlib.Path)):
        file_format = pathlib.Path(path).suffix[1:].lower() or None
    if file_format and file_format.lower() == "jpg":
        file_format = "jpeg"
    image = array_to_img(x, data_format=data_format, scale=scale)
    if image.mode == "RGBA" and file_format == "jpeg":
        warnings.warn("JPEG does not support RGBA images: converting to RGB.", stacklevel=2)
        image = image.convert("RGB")
    image.save(path, format=file_format, **kwargs)


def _fit_inside(height, width, target_height, target_width):
    """(resized height, resized width, top, left): `image` scaled to fit the target with its
    aspect ratio, centred (TensorFlow's `resize_with_pad` sizes)."""
    ratio = max(width / target_width, height / target_height)
    resized_height, resized_width = height / ratio, width / ratio
    top = max(0, int((target_height - resized_height) / 2))
    left = max(0, int((target_width - resized_width) / 2))
    return int(resized_height), int(resized_width), top, left


class ImageReader:
    """path -> float32 image for `image_dataset_from_directory(format="tripod")`: decoded by
    Pillow in `color_mode` and resized with the numpy backend's `image.resize` to the values
    the "tf" format gives (`pad` resizes the image to fit, then pads it with zeros, as
    TensorFlow's `resize_with_pad`)."""

    def __init__(self, image_size, color_mode, interpolation, data_format, crop, pad):
        self.image_size = tuple(image_size)
        self.color_mode = color_mode
        self.interpolation = interpolation
        self.data_format = data_format
        self.crop = crop
        self.pad = pad

    def _resize(self, array, size):
        resized = tripod.backends.load("numpy").resize(
            array,
            size,
            interpolation=self.interpolation,
            crop_to_aspect_ratio=self.crop,
            data_format="channels_last",
        )
        return np.asarray(resized, dtype="float32")

    def _resize_with_pad(self, array):
        height, width = self.image_size
        rows, cols, top, left = _fit_inside(*array.shape[:2], height, width)
        padded = np.zeros((height, width, array.shape[2]), "float32")
        padded[top : top + rows, left : left + cols] = self._resize(array, (rows, cols))
        return padded

    def __call__(self, path):
        image = _to_color_mode(_open(path), self.color_mode)
        array = img_to_array(image, "channels_last", "float32")
        array = self._resize_with_pad(array) if self.pad else self._resize(array, self.image_size)
        return array.transpose(2, 0, 1) if self.data_format == "channels_first" else array


def smart_resize(x, size, interpolation="bilinear", data_format="channels_last", **kwargs):
    """Resize an image (H, W, C) or a batch of them to `size` (height, width) without
    distorting it: the largest centered crop of the target's aspect ratio, then resized.

    The legacy `tripod.preprocessing.image.smart_resize`; it is `ops.image.resize` with
    `crop_to_aspect_ratio=True`.

    Args:
        x: an image or a batch of images, channels last unless `data_format` says otherwise.
        size: (height, width) of the result.
        interpolation: "bilinear" (default), "nearest", "bicubic", "lanczos3" or "lanczos5".
        data_format: "channels_last" (default) or "channels_first".
        **kwargs: `backend_module` (Keras's argument, accepted and ignored).

    Returns:
        The resized image(s), a tensor of x's float dtype.

    Examples:
        >>> image = np.arange(2 * 4 * 1, dtype="float32").reshape(2, 4, 1)
        >>> out = tripod.preprocessing.image.smart_resize(image, (2, 2), "nearest")
        >>> tripod.ops.convert_to_numpy(out)[..., 0].tolist()
        [[1.0, 2.0], [5.0, 6.0]]
    """
    unknown = set(kwargs) - {"backend_module"}
    if unknown:
        raise TypeError(f"smart_resize: unexpected arguments {sorted(unknown)}.")
    return tripod.backends.active().resize(
        x, size, interpolation=interpolation, crop_to_aspect_ratio=True, data_format=data_format
    )
