"""Bounding box formats and `convert_format`, written over a backend's ops.

Every conversion goes through "xyxy" (left, top, right, bottom in pixels); a "rel_" format holds
the same numbers divided by the image width (x values) and height (y values).
"""

from tripod.layers.preprocessing.image.bounding_boxes._backend import ops_for

SUPPORTED_FORMATS = (
    "xyxy",
    "yxyx",
    "xywh",
    "center_xywh",
    "center_yxhw",
    "rel_xyxy",
    "rel_yxyx",
    "rel_xywh",
    "rel_center_xywh",
)


def _centered(ops, cx, cy, w, h):
    half_w, half_h = ops.divide(w, 2.0), ops.divide(h, 2.0)
    return (
        ops.subtract(cx, half_w),
        ops.subtract(cy, half_h),
        ops.add(cx, half_w),
        ops.add(cy, half_h),
    )


def _center(ops, x1, y1, x2, y2):
    w, h = ops.subtract(x2, x1), ops.subtract(y2, y1)
    return ops.add(x1, ops.divide(w, 2.0)), ops.add(y1, ops.divide(h, 2.0)), w, h


def _swap_axes(a, b, c, d):
    """(x, y, w, h) columns as (y, x, h, w), or the reverse."""
    return b, a, d, c


# each base format's four columns -> (x1, y1, x2, y2), and back
_TO_XYXY = {
    "xyxy": lambda ops, a, b, c, d: (a, b, c, d),
    "yxyx": lambda ops, *columns: _swap_axes(*columns),
    "xywh": lambda ops, a, b, c, d: (a, b, ops.add(a, c), ops.add(b, d)),
    "center_xywh": lambda ops, a, b, c, d: _centered(ops, a, b, c, d),
    "center_yxhw": lambda ops, *columns: _centered(ops, *_swap_axes(*columns)),
}
_FROM_XYXY = {
    "xyxy": lambda ops, x1, y1, x2, y2: (x1, y1, x2, y2),
    "yxyx": lambda ops, *xyxy: _swap_axes(*xyxy),
    "xywh": lambda ops, x1, y1, x2, y2: (x1, y1, ops.subtract(x2, x1), ops.subtract(y2, y1)),
    "center_xywh": lambda ops, *xyxy: _center(ops, *xyxy),
    "center_yxhw": lambda ops, *xyxy: _swap_axes(*_center(ops, *xyxy)),
}


def _scaled(ops, columns, x_scale, y_scale, divide=False):
    """xyxy `columns` with x values scaled by `x_scale` and y values by `y_scale`."""
    op = ops.divide if divide else ops.multiply
    x1, y1, x2, y2 = columns
    return op(x1, x_scale), op(y1, y_scale), op(x2, x_scale), op(y2, y_scale)


def check_format(name, fmt):
    """`fmt` lower-cased, or a ValueError naming the supported formats."""
    if not isinstance(fmt, str) or fmt.lower() not in SUPPORTED_FORMATS:
        raise ValueError(
            f"{name}: unknown bounding box format {fmt!r}; supported formats are "
            f"{SUPPORTED_FORMATS}."
        )
    return fmt.lower()


def convert(ops, boxes, source, target, height=None, width=None, dtype="float32"):
    """`boxes` (..., 4) converted from format `source` to `target` with `ops` (see
    `convert_format`)."""
    source, target = check_format("convert_format", source), check_format("convert_format", target)
    boxes = ops.convert_to_tensor(boxes)
    if tuple(boxes.shape)[-1:] != (4,):
        raise ValueError(
            "convert_format: boxes must have a last axis of size 4, received shape "
            f"{tuple(boxes.shape)}."
        )
    relative = source.startswith("rel_") or target.startswith("rel_")
    if relative and (height is None or width is None):
        raise ValueError(
            f"convert_format: converting from {source!r} to {target!r} needs the image height and "
            f"width, received height={height}, width={width}."
        )
    boxes = ops.cast(boxes, dtype)
    if source == target:
        return boxes
    if source.startswith("rel_") and target.startswith("rel_"):
        source, target = source[4:], target[4:]
    columns = _TO_XYXY[source.removeprefix("rel_")](ops, *ops.split(boxes, 4, axis=-1))
    if relative:
        height, width = ops.cast(height, dtype), ops.cast(width, dtype)
    if source.startswith("rel_"):
        columns = _scaled(ops, columns, width, height)
    if target.startswith("rel_"):
        columns = _scaled(ops, columns, width, height, divide=True)
    return ops.concatenate(_FROM_XYXY[target.removeprefix("rel_")](ops, *columns), axis=-1)


def convert_with(ops, boxes, source, target, height=None, width=None, dtype="float32"):
    """`convert` on a tensor, or on the "boxes" entry of a dict of boxes and labels (a copy)."""
    if isinstance(boxes, dict):
        return {
            **boxes,
            "boxes": convert(ops, boxes["boxes"], source, target, height, width, dtype),
        }
    return convert(ops, boxes, source, target, height, width, dtype)


def convert_format(boxes, source, target, height=None, width=None, dtype="float32"):
    """Bounding boxes converted from format `source` to format `target`.

    Formats (case-insensitive): "xyxy" (left, top, right, bottom), "yxyx", "xywh" (left, top,
    width, height), "center_xywh", "center_yxhw", and the relative "rel_xyxy", "rel_yxyx",
    "rel_xywh", "rel_center_xywh" (divided by the image `width` and `height`, which a conversion
    between a relative and an absolute format needs). `boxes` is a tensor (..., 4) or a dict with
    "boxes" (and "labels"), returned in kind.

    >>> boxes = tripod.utils.bounding_boxes.convert_format(
    ...     np.array([[10, 20, 30, 40]]), "xyxy", "xywh"
    ... )
    >>> tripod.ops.convert_to_numpy(boxes).tolist()
    [[10.0, 20.0, 20.0, 20.0]]
    """
    return convert_with(ops_for(boxes), boxes, source, target, height, width, dtype)
