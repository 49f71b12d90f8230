"""The array work the drawing and plotting functions share: layouts, value ranges and colours,
on NumPy arrays on the host (what a drawing or a plot needs, whatever the backend)."""

import numpy as np

from tripod.backends import active, config
from tripod.backends.common import optional

ops = active()


def require(module, package, feature):
    """The optional module `module`, imported now; an ImportError naming `feature`, the extra
    `tripod[visualization]` and the plain `pip install package` when it is missing."""
    try:
        return optional.require(module, "visualization", feature)
    except ImportError as error:
        raise ImportError(f"{error} (or: pip install {package})") from None


def data_format(value):
    """`value`, or the configured `image_data_format()` when it is None, validated."""
    return config.standardize_data_format(value)


def batched_images(images, caller):
    """`images` as a NumPy array, which must be a 4-D batch; a ValueError naming `caller` else."""
    array = np.asarray(ops.convert_to_numpy(images))
    if array.ndim != 4:
        raise ValueError(
            f"{caller}: `images` must be a batched 4D tensor. Received: images.shape={array.shape}"
        )
    return array


def channels_last(images, fmt):
    """A (batch, channels, height, width) batch as (batch, height, width, channels) when `fmt`
    is "channels_first"; a channels-last batch as it is."""
    return np.transpose(images, (0, 2, 3, 1)) if fmt == "channels_first" else images


def restore_layout(images, fmt):
    """The inverse of `channels_last`: a channels-last batch back in layout `fmt`."""
    return np.transpose(images, (0, 3, 1, 2)) if fmt == "channels_first" else images


def to_uint8(images):
    """Images as uint8 for drawing, as Keras scales them: floats whose maximum is at most 1.0
    are taken as [0, 1] and multiplied by 255; other floats are clipped to [0, 255]."""
    if images.dtype.kind == "f" and images.size > 0:
        images = np.clip(images, 0, 1) * 255 if images.max() <= 1.0 else np.clip(images, 0, 255)
    return images.astype("uint8")


def rescale(images, value_range, target=(0, 255)):
    """`images` mapped linearly from `value_range` onto `target`, as float32 (unchanged values,
    in float32, when the two ranges are the same)."""
    images = np.asarray(images, dtype="float32")
    if tuple(value_range) == tuple(target):
        return images
    low, high = (np.float32(v) for v in value_range)
    unit = (images - low) / (high - low)
    return unit * np.float32(target[1] - target[0]) + np.float32(target[0])


def channel_color(color, channels):
    """An RGB `color` fitted to an image's `channels`: its first entries, and opaque (255)
    for an alpha channel it lacks."""
    color = [float(c) for c in color][:channels]
    return np.array(color + [255.0] * (channels - len(color)))
