"""`draw_bounding_boxes`: box outlines (and, with OpenCV, class labels) drawn onto a batch of
images, returned as a uint8 NumPy array."""

import numpy as np

from tripod.data.visualization import arrays
from tripod.layers.preprocessing.image.bounding_boxes import convert_format


def _clipped(low, high, size):
    """The slice of [low, high] (inclusive) that lies inside [0, size), or None if empty."""
    low, high = max(low, 0), min(high, size - 1)
    return slice(low, high + 1) if low <= high else None


def _paint(image, rows, cols, color):
    """Set the pixels `image[rows, cols]` (inclusive ranges, clipped to the image) to `color`."""
    height, width = image.shape[:2]
    row_slice, col_slice = _clipped(*rows, height), _clipped(*cols, width)
    if row_slice is not None and col_slice is not None:
        image[row_slice, col_slice] = color


def draw_rectangle(image, corners, color, thickness):
    """Draw the outline of the box `corners` = (x1, y1, x2, y2) onto the (height, width,
    channels) `image` in place: each side a band `thickness` pixels wide centred on the edge's
    pixel row or column (from `thickness // 2` before it); a negative `thickness` fills the box."""
    x1, y1, x2, y2 = corners
    x1, x2 = sorted((x1, x2))
    y1, y2 = sorted((y1, y2))
    if thickness < 0:
        _paint(image, (y1, y2), (x1, x2), color)
        return
    before, after = thickness // 2, thickness - 1 - thickness // 2
    outer_rows, outer_cols = (y1 - before, y2 + after), (x1 - before, x2 + after)
    for y in (y1, y2):  # top and bottom sides
        _paint(image, (y - before, y + after), outer_cols, color)
    for x in (x1, x2):  # left and right sides
        _paint(image, outer_rows, (x - before, x + after), color)


def text_origin(x, y, font_scale, thickness):
    """Where a label's baseline starts: 8 pixels above the box's top-left corner when two text
    heights fit above it, else just inside the box below that corner (as Keras places it)."""
    text_height = int(font_scale * 12)
    if y - 8 - 2 * text_height > 0:
        return x, y - 8
    return x + 3, y + 2 * text_height + thickness + 3


def _label_text(name, confidence):
    """A box's label: its class name, then `| confidence` to two decimals when there is one."""
    return name if confidence is None else f"{name} | {confidence:.2f}"


def _check_boxes(bounding_boxes):
    """Reject a `bounding_boxes` that is not a dict holding "boxes" and "labels"."""
    if not isinstance(bounding_boxes, dict):
        raise TypeError(
            "draw_bounding_boxes: `bounding_boxes` should be a dict. Received: "
            f"bounding_boxes of type {type(bounding_boxes)}"
        )
    if "boxes" not in bounding_boxes or "labels" not in bounding_boxes:
        raise ValueError(
            "draw_bounding_boxes: `bounding_boxes` should be a dict containing 'boxes' and "
            f"'labels' keys. Received keys: {sorted(bounding_boxes)}"
        )


def _host_boxes(bounding_boxes, bounding_box_format, height, width):
    """(boxes as int32 xyxy pixels, labels, confidences or None), as NumPy arrays."""
    xyxy = convert_format(bounding_boxes["boxes"], bounding_box_format, "xyxy", height, width)
    boxes = np.asarray(arrays.ops.convert_to_numpy(xyxy)).astype("int32")
    labels = np.asarray(arrays.ops.convert_to_numpy(bounding_boxes["labels"])).astype("int32")
    confidences = bounding_boxes.get("confidences")
    if confidences is not None:
        confidences = np.asarray(arrays.ops.convert_to_numpy(confidences))
    return boxes, labels, confidences


def _draw_label(cv2, image, text, corner, color, style):
    """Write `text` (OpenCV's Hershey simplex font) near the box corner `corner` = (x, y)."""
    font_scale, thickness = style
    origin = text_origin(*corner, font_scale, thickness)
    image[...] = cv2.putText(
        np.ascontiguousarray(image),
        text,
        origin,
        cv2.FONT_HERSHEY_SIMPLEX,
        font_scale,
        tuple(float(c) for c in color),
        thickness,
    )


def _draw_one(image, boxes, labels, confidences, options):
    """Draw one image's boxes (skipping label -1) and their labels, in place."""
    class_mapping, color, line_thickness, style = options
    paint = arrays.channel_color(color, image.shape[-1])
    wanted = [i for i, label in enumerate(labels) if label != -1 and label in class_mapping]
    cv2 = arrays.require("cv2", "opencv-python", "draw_bounding_boxes's labels") if wanted else None
    for i, label in enumerate(labels):
        if label == -1:
            continue
        draw_rectangle(image, boxes[i].tolist(), paint, line_thickness)
        if i in wanted:
            confidence = None if confidences is None else confidences[i]
            text = _label_text(class_mapping[int(label)], confidence)
            _draw_label(cv2, image, text, boxes[i][:2].tolist(), paint, style)


def draw_bounding_boxes(
    images,
    bounding_boxes,
    bounding_box_format,
    class_mapping=None,
    color=(128, 128, 128),
    line_thickness=2,
    text_thickness=1,
    font_scale=1.0,
    data_format=None,
):
    """Draw bounding boxes, and optionally their class labels, on a batch of images.

    The images become uint8 first (floats at most 1.0 are taken as [0, 1] and scaled by 255,
    other floats clipped to [0, 255]). Each box whose label is not -1 is outlined in `color`:
    tripod rasterises the outline itself (each side `line_thickness` pixels wide, centred on the
    box edge, square corners; a negative thickness fills the box), so no OpenCV is needed for
    boxes. Keras draws them with OpenCV, whose thick lines can differ by a pixel at the edges
    and corners. Labels are text and need OpenCV (`pip install opencv-python`, or
    `pip install 'tripod[visualization]'`): a box whose label is in `class_mapping` gets its
    class name (and `| confidence` with "confidences") written by `cv2.putText`; without OpenCV
    that raises an ImportError, and boxes without `class_mapping` draw as before.

    Args:
        images: a batch of images, (batch, height, width, channels) or channels first.
        bounding_boxes: a dict with "boxes" (batch, num_boxes, 4) in `bounding_box_format`,
            "labels" (batch, num_boxes) (-1 marks padding, not drawn) and optionally
            "confidences" (batch, num_boxes).
        bounding_box_format: the boxes' format, as `tripod.utils.bounding_boxes.convert_format`
            names them ("xyxy", "yxyx", "xywh", "center_xywh", "center_yxhw", "rel_xyxy", ...).
        class_mapping: a dict from class id to name; those boxes get a text label.
        color: the RGB colour of the outlines and labels.
        line_thickness: the outline width in pixels (negative: filled boxes).
        text_thickness: the stroke width of the labels (None or 0: `line_thickness`).
        font_scale: the size of the labels' font.
        data_format: "channels_last" or "channels_first" (default: the configured one).

    Returns:
        A uint8 NumPy array of the images' shape with the boxes drawn.

    Raises:
        ValueError: `images` is not 4-D, or `bounding_boxes` lacks "boxes" or "labels".
        TypeError: `bounding_boxes` is not a dict.
        ImportError: labels are asked for (`class_mapping` names a box's class) and OpenCV is
            not installed.

    Examples:
        >>> images = np.zeros((1, 6, 6, 3), dtype="uint8")
        >>> boxes = {"boxes": np.array([[[1, 1, 4, 3]]]), "labels": np.array([[0]])}
        >>> drawn = tripod.visualization.draw_bounding_boxes(
        ...     images, boxes, "xyxy", color=(255, 0, 0), line_thickness=1
        ... )
        >>> (drawn[0, :, :, 0] > 0).astype(int)
        array([[0, 0, 0, 0, 0, 0],
               [0, 1, 1, 1, 1, 0],
               [0, 1, 0, 0, 1, 0],
               [0, 1, 1, 1, 1, 0],
               [0, 0, 0, 0, 0, 0],
               [0, 0, 0, 0, 0, 0]])
    """
    fmt = arrays.data_format(data_format)
    images = arrays.batched_images(images, "draw_bounding_boxes")
    _check_boxes(bounding_boxes)
    pictures = arrays.to_uint8(arrays.channels_last(images, fmt)).copy()
    height, width = pictures.shape[1:3]
    boxes, labels, confidences = _host_boxes(bounding_boxes, bounding_box_format, height, width)
    style = (font_scale, text_thickness or line_thickness)
    options = (class_mapping or {}, color, line_thickness, style)
    for i, picture in enumerate(pictures):
        scores = None if confidences is None else confidences[i]
        _draw_one(picture, boxes[i], labels[i], scores, options)
    return arrays.restore_layout(pictures, fmt)
