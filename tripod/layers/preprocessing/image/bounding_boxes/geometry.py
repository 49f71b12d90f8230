"""Box geometry over a backend's ops: clipping to the image, crop and pad offsets, affine maps,
and moving boxes through the warps the image layers apply (`warp`)."""

import math

from tripod.layers.preprocessing.image.bounding_boxes._backend import ops_for
from tripod.layers.preprocessing.image.bounding_boxes.formats import check_format


def _columns(ops, boxes):
    """The four (..., 1) columns of `boxes`, as floats."""
    boxes = ops.convert_to_tensor(boxes)
    if "float" not in str(ops.dtype(boxes)):
        boxes = ops.cast(boxes, "float32")
    return ops.split(boxes, 4, axis=-1)


def _only_xyxy(name, bounding_box_format, allowed=("xyxy",)):
    if check_format(name, bounding_box_format) not in allowed:
        raise NotImplementedError(
            f"{name}: supports bounding_box_format in {allowed}, received {bounding_box_format!r}."
        )


def clip(ops, bounding_boxes, height=None, width=None, bounding_box_format="xyxy"):
    """`clip_to_image_size` with `ops`."""
    _only_xyxy("clip_to_image_size", bounding_box_format, ("xyxy", "rel_xyxy"))
    if bounding_box_format == "xyxy" and (height is None or width is None):
        raise ValueError(
            "clip_to_image_size: 'xyxy' boxes need the image height and width, received "
            f"height={height}, width={width}."
        )
    boxes = ops.convert_to_tensor(bounding_boxes["boxes"])
    dtype = ops.dtype(boxes)
    high_x, high_y = (1.0, 1.0) if bounding_box_format == "rel_xyxy" else (width, height)
    x1, y1, x2, y2 = _columns(ops, boxes)
    high_x, high_y = ops.cast(high_x, dtype), ops.cast(high_y, dtype)
    x1, x2 = ops.clip(x1, 0.0, high_x), ops.clip(x2, 0.0, high_x)
    y1, y2 = ops.clip(y1, 0.0, high_y), ops.clip(y2, 0.0, high_y)
    result = {**bounding_boxes, "boxes": ops.concatenate([x1, y1, x2, y2], axis=-1)}
    if bounding_boxes.get("labels") is not None:
        area = ops.squeeze(ops.multiply(ops.subtract(x2, x1), ops.subtract(y2, y1)), -1)
        labels = ops.convert_to_tensor(bounding_boxes["labels"])
        result["labels"] = ops.where(
            ops.greater(area, 0.0), labels, ops.cast(-1, ops.dtype(labels))
        )
    return result


def clip_to_image_size(bounding_boxes, height=None, width=None, bounding_box_format="xyxy"):
    """Boxes (a dict of "boxes" (..., N, 4) and optional "labels" (..., N)) clipped to the image;
    a box left with no area gets the label -1. Formats "xyxy" (needs `height`, `width`) and
    "rel_xyxy" (clipped to [0, 1])."""
    return clip(ops_for(bounding_boxes), bounding_boxes, height, width, bounding_box_format)


def _limit(ops, value, high):
    """`value` clipped below at 0 and, when `high` is not None, above at `high`."""
    value = ops.maximum(value, 0.0)
    return value if high is None else ops.minimum(value, ops.cast(high, ops.dtype(value)))


def shift(ops, boxes, top, left, size=None):
    """xyxy `boxes` moved by (-`left`, -`top`); then, if `size` (height, width) is given, clipped
    to [0, width] x [0, height] (no upper bound on a side given as None)."""
    x1, y1, x2, y2 = _columns(ops, boxes)
    dtype = ops.dtype(x1)
    left, top = ops.cast(left, dtype), ops.cast(top, dtype)
    x1, x2 = ops.subtract(x1, left), ops.subtract(x2, left)
    y1, y2 = ops.subtract(y1, top), ops.subtract(y2, top)
    if size is not None:
        height, width = size
        x1, x2 = _limit(ops, x1, width), _limit(ops, x2, width)
        y1, y2 = _limit(ops, y1, height), _limit(ops, y2, height)
    return ops.concatenate([x1, y1, x2, y2], axis=-1)


def crop(boxes, top, left, height, width, bounding_box_format="xyxy"):
    """ "xyxy" boxes in the frame of the crop of the image at (`top`, `left`) sized `height` x
    `width`: moved by the offsets and clipped to the crop."""
    _only_xyxy("crop", bounding_box_format)
    ops = ops_for(boxes)
    return shift(ops, boxes, top, left, (height, width))


def pad(boxes, top, left, height=None, width=None, bounding_box_format="xyxy"):
    """ "xyxy" boxes in the frame of the image padded by `top` rows and `left` columns
    (`height` and `width` are accepted for Keras compatibility and unused)."""
    _only_xyxy("pad", bounding_box_format)
    ops = ops_for(boxes)
    return shift(ops, boxes, ops.negative(top), ops.negative(left))


def _corners(ops, boxes):
    """The four (x, y) corners of xyxy `boxes` (..., 4), as (..., 4) x and (..., 4) y tensors."""
    x1, y1, x2, y2 = _columns(ops, boxes)
    return ops.concatenate([x1, x2, x2, x1], axis=-1), ops.concatenate([y1, y1, y2, y2], axis=-1)


def _enclosing(ops, xs, ys):
    """The xyxy box (..., 4) around the corner points `xs`, `ys` (..., 4)."""
    return ops.stack([ops.min(xs, -1), ops.min(ys, -1), ops.max(xs, -1), ops.max(ys, -1)], axis=-1)


def _per_image(ops, value, batched):
    """A scalar or per-image (batch,) float parameter shaped to broadcast against corner
    coordinates (batch, boxes, 4)."""
    value = ops.cast(ops.convert_to_tensor(value), "float32")
    return ops.reshape(value, (-1, 1, 1)) if batched and len(value.shape) > 0 else value


def affine(
    ops,
    boxes,
    angle,
    translate_x,
    translate_y,
    scale,
    shear_x,
    shear_y,
    height,
    width,
    center_x=None,
    center_y=None,
):
    """`affine_transform` with `ops` on "xyxy" boxes."""
    boxes = ops.cast(ops.convert_to_tensor(boxes), "float32")
    batched = len(boxes.shape) == 3

    def param(value, unit=1.0):
        return ops.multiply(_per_image(ops, value, batched), unit)

    radians = -math.pi / 180.0  # the boxes move by the inverse of the image's sampling map
    rot, sx, sy = param(angle, radians), param(shear_x, radians), param(shear_y, radians)
    width, height = ops.cast(width, "float32"), ops.cast(height, "float32")
    cx = param(0.5 if center_x is None else center_x, ops.subtract(width, 1.0))
    cy = param(0.5 if center_y is None else center_y, ops.subtract(height, 1.0))
    tx, ty = (
        param(translate_x, ops.subtract(1.0, width)),
        param(translate_y, ops.subtract(1.0, height)),
    )
    # the rotation-shear matrix [[a, b], [c, d]] (determinant 1) and its inverse, scaled
    a = ops.divide(ops.cos(ops.subtract(rot, sy)), ops.cos(sy))
    c = ops.negative(ops.divide(ops.sin(ops.subtract(rot, sy)), ops.cos(sy)))
    b = ops.add(ops.multiply(a, ops.tan(sx)), ops.sin(rot))
    d = ops.subtract(ops.cos(rot), ops.multiply(c, ops.tan(sx)))
    s = param(scale)
    xs, ys = _corners(ops, boxes)
    u, v = ops.subtract(xs, ops.add(cx, tx)), ops.subtract(ys, ops.add(cy, ty))
    new_x = ops.add(cx, ops.multiply(s, ops.subtract(ops.multiply(d, u), ops.multiply(b, v))))
    new_y = ops.add(cy, ops.multiply(s, ops.subtract(ops.multiply(a, v), ops.multiply(c, u))))
    return _enclosing(ops, new_x, new_y)


def affine_transform(
    boxes,
    angle,
    translate_x,
    translate_y,
    scale,
    shear_x,
    shear_y,
    height,
    width,
    center_x=None,
    center_y=None,
    bounding_box_format="xyxy",
):
    """ "xyxy" boxes (N, 4) or (batch, N, 4) moved with their image by an affine map: rotation by
    `angle` degrees, translation by fractions `translate_x`, `translate_y` of the image size,
    `scale`, shear by `shear_x`, `shear_y` degrees, about the center (`center_x`, `center_y`)
    given as fractions (default the image center). Parameters are scalars or one per image. Each
    box becomes the box around its four moved corners."""
    _only_xyxy("affine_transform", bounding_box_format)
    ops = ops_for(boxes, angle)
    return affine(
        ops,
        boxes,
        angle,
        translate_x,
        translate_y,
        scale,
        shear_x,
        shear_y,
        height,
        width,
        center_x,
        center_y,
    )


def warp(ops, boxes, transform):
    """xyxy `boxes` (batch, N, 4) moved as their images are by `affine_transform(images,
    transform)`: `transform` (batch, 8) maps each output pixel to the input pixel it samples, so
    the corners go through its inverse (pixel centers sit at half-integer box coordinates)."""
    rows = ops.cast(transform, "float32")
    matrix = ops.reshape(ops.concatenate([rows, ops.ones_like(rows[:, :1])], axis=-1), (-1, 3, 3))
    inverse = ops.reshape(ops.inv(matrix), (-1, 1, 9))
    m = [inverse[..., i : i + 1] for i in range(9)]
    xs, ys = (ops.subtract(v, 0.5) for v in _corners(ops, ops.cast(boxes, "float32")))

    def plane(p, q, r):
        return ops.add(ops.add(ops.multiply(p, xs), ops.multiply(q, ys)), r)

    scale = plane(m[6], m[7], m[8])
    new_x = ops.add(ops.divide(plane(m[0], m[1], m[2]), scale), 0.5)
    new_y = ops.add(ops.divide(plane(m[3], m[4], m[5]), scale), 0.5)
    return _enclosing(ops, new_x, new_y)
