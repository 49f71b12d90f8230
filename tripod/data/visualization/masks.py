"""`draw_segmentation_masks`: class masks painted onto a batch of images in one colour per class,
blended with the images or drawn over them."""

import numpy as np

from tripod.backends import dtypes
from tripod.data.visualization import arrays

#: the multipliers of the default palette: class i gets (i * PALETTE) % 255
PALETTE = np.array([2**25 - 1, 2**15 - 1, 2**21 - 1])


def palette(num_classes):
    """The default colours of classes 0..num_classes-1 (class 0 black), as Keras makes them."""
    return [((i * PALETTE) % 255).tolist() for i in range(num_classes)]


def _host_masks(segmentation_masks, fmt):
    """The masks as an integer (batch, height, width) NumPy array; a TypeError for floats."""
    masks = arrays.ops.convert_to_numpy(segmentation_masks)
    masks = np.asarray(masks)
    if not dtypes.standardize_dtype(masks.dtype).startswith(("int", "uint")):
        raise TypeError(
            "draw_segmentation_masks: `segmentation_masks` must be in integer dtype. "
            f"Received: segmentation_masks.dtype={dtypes.standardize_dtype(masks.dtype)}"
        )
    if masks.ndim == 4:  # one channel, channels last or first
        masks = masks[..., 0] if fmt == "channels_last" else masks[:, 0]
    return masks


def _class_count(masks, ignore_index):
    """The number of classes a mask shows: its largest class index not ignored, plus one."""
    valid = masks[masks != ignore_index]
    return max(1, int(valid.max()) + 1 if valid.size else 0)


def _painted(images, masks, colors):
    """Float32 copies of `images` with each class's pixels set to that class's colour."""
    painted = images.copy()
    for index, color in enumerate(colors):
        painted[masks == index] = arrays.channel_color(color, images.shape[-1])
    return painted


def draw_segmentation_masks(
    images,
    segmentation_masks,
    num_classes=None,
    color_mapping=None,
    alpha=0.8,
    blend=True,
    ignore_index=-1,
    data_format=None,
):
    """Draw segmentation masks on a batch of images, one colour per class.

    Each pixel of class `c` (0 <= c < num_classes) takes class c's colour; pixels equal to
    `ignore_index` (or outside the classes) keep the image. With `blend`, the result is
    `image * (1 - alpha) + colour * alpha` there, truncated to uint8; without, the colours
    replace the pixels and the result stays float32. The default palette gives class `i` the
    colour `(i * (2^25 - 1, 2^15 - 1, 2^21 - 1)) % 255`, as Keras's does.

    Args:
        images: a batch of images, (batch, height, width, channels) or channels first, with
            values in [0, 255].
        segmentation_masks: integer class indices, (batch, height, width) or with a channel
            axis of 1 in `data_format`'s place.
        num_classes: the number of classes (default: the largest class index not ignored,
            plus one).
        color_mapping: a dict from class index to RGB colour, for every class below
            `num_classes` (default: the palette).
        alpha: the masks' opacity when blending, in [0, 1].
        blend: blend the colours with the images (True) or paint them over (False).
        ignore_index: the mask value left undrawn.
        data_format: "channels_last" or "channels_first" (default: the configured one).

    Returns:
        A NumPy array in the images' layout: uint8 with `blend`, float32 without.

    Raises:
        ValueError: `images` is not 4-D.
        TypeError: `segmentation_masks` is not of an integer dtype.

    Examples:
        >>> images = np.full((1, 2, 2, 3), 100, dtype="uint8")
        >>> masks = np.array([[[0, 1], [-1, 1]]])
        >>> drawn = tripod.visualization.draw_segmentation_masks(
        ...     images, masks, color_mapping={0: (0, 0, 0), 1: (200, 100, 0)}, alpha=0.5
        ... )
        >>> drawn[0, :, :, 0].tolist(), drawn.dtype
        ([[50, 150], [100, 150]], dtype('uint8'))
    """
    fmt = arrays.data_format(data_format)
    images = arrays.batched_images(images, "draw_segmentation_masks")
    images = arrays.channels_last(images, fmt).astype("float32")
    masks = _host_masks(segmentation_masks, fmt)
    if num_classes is None:
        num_classes = _class_count(masks, ignore_index)
    if color_mapping is None:
        colors = palette(num_classes)
    else:
        colors = [color_mapping[i] for i in range(num_classes)]
    outputs = _painted(images, masks, colors)
    if blend:
        mixed = images * np.float32(1 - alpha) + outputs * np.float32(alpha)
        valid = (masks != ignore_index)[..., None]
        outputs = np.clip(np.where(valid, mixed, images), 0, 255).astype("uint8")
    return arrays.restore_layout(outputs, fmt)
