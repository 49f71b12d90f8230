"""Intersection over union of boxes: `compute_iou` (pairwise tables) and `compute_ciou`
(elementwise complete IoU)."""

import math

from tripod.backends import config
from tripod.layers.preprocessing.image.bounding_boxes._backend import ops_for
from tripod.layers.preprocessing.image.bounding_boxes.formats import check_format, convert


def _image_size(name, bounding_box_format, image_shape):
    """(height, width) from `image_shape`, required for a relative format."""
    if image_shape is None:
        if check_format(name, bounding_box_format).startswith("rel_"):
            raise ValueError(
                f"{name}: relative bounding box formats need `image_shape` (height, width, "
                "channels), received None."
            )
        return None, None
    return tuple(image_shape)[:2]


def _check_rank(name, which, boxes):
    if len(boxes.shape) not in (2, 3):
        raise ValueError(
            f"{name}: {which} must have shape (N, 4) or (batch, N, 4), received "
            f"{tuple(boxes.shape)}."
        )


def _area(ops, x1, y1, x2, y2):
    return ops.multiply(ops.subtract(x2, x1), ops.subtract(y2, y1))


def _pairwise(ops, boxes1, boxes2):
    """The IoU table (..., M, N) of xyxy `boxes1` (..., M, 4) and `boxes2` (..., N, 4)."""
    first = ops.unstack(ops.expand_dims(boxes1, -2), 4, axis=-1)  # (..., M, 1) each
    second = ops.unstack(ops.expand_dims(boxes2, -3), 4, axis=-1)  # (..., 1, N) each
    low_x, low_y = ops.maximum(first[0], second[0]), ops.maximum(first[1], second[1])
    high_x, high_y = ops.minimum(first[2], second[2]), ops.minimum(first[3], second[3])
    overlap = ops.multiply(
        ops.maximum(ops.subtract(high_x, low_x), 0.0), ops.maximum(ops.subtract(high_y, low_y), 0.0)
    )
    union = ops.subtract(ops.add(_area(ops, *first), _area(ops, *second)), overlap)
    return ops.divide(overlap, ops.add(union, config.epsilon()))


def compute_iou(
    boxes1, boxes2, bounding_box_format, use_masking=False, mask_val=-1, image_shape=None
):
    """The pairwise IoU table of `boxes1` (M, 4) or (batch, M, 4) and `boxes2` (N, 4) or
    (batch, N, 4): (M, N), or (batch, M, N) when either is batched. With `use_masking`, pairs
    where either box has all coordinates negative (padding) get `mask_val`. Relative formats
    need `image_shape` (height, width, channels)."""
    ops = ops_for(boxes1, boxes2)
    boxes1, boxes2 = ops.convert_to_tensor(boxes1), ops.convert_to_tensor(boxes2)
    _check_rank("compute_iou", "boxes1", boxes1)
    _check_rank("compute_iou", "boxes2", boxes2)
    height, width = _image_size("compute_iou", bounding_box_format, image_shape)
    boxes1 = convert(ops, boxes1, bounding_box_format, "xyxy", height, width)
    boxes2 = convert(ops, boxes2, bounding_box_format, "xyxy", height, width)
    table = _pairwise(ops, boxes1, boxes2)
    if not use_masking:
        return table
    padded1 = ops.expand_dims(ops.less(ops.max(boxes1, axis=-1), 0.0), -1)
    padded2 = ops.expand_dims(ops.less(ops.max(boxes2, axis=-1), 0.0), -2)
    return ops.where(ops.logical_or(padded1, padded2), ops.cast(mask_val, ops.dtype(table)), table)


def compute_ciou(boxes1, boxes2, bounding_box_format, image_shape=None):
    """The complete IoU of matching boxes in `boxes1` and `boxes2` (..., 4): IoU minus the
    squared center distance over the squared diagonal of the enclosing box, minus an
    aspect-ratio term. Shape (...)."""
    ops = ops_for(boxes1, boxes2)
    eps = config.epsilon()
    height, width = _image_size("compute_ciou", bounding_box_format, image_shape)
    x1a, y1a, x2a, y2a = ops.unstack(
        convert(ops, boxes1, bounding_box_format, "xyxy", height, width), 4, axis=-1
    )
    x1b, y1b, x2b, y2b = ops.unstack(
        convert(ops, boxes2, bounding_box_format, "xyxy", height, width), 4, axis=-1
    )
    wa, ha = ops.subtract(x2a, x1a), ops.add(ops.subtract(y2a, y1a), eps)
    wb, hb = ops.subtract(x2b, x1b), ops.add(ops.subtract(y2b, y1b), eps)
    overlap_w = ops.maximum(ops.subtract(ops.minimum(x2a, x2b), ops.maximum(x1a, x1b)), 0.0)
    overlap_h = ops.maximum(ops.subtract(ops.minimum(y2a, y2b), ops.maximum(y1a, y1b)), 0.0)
    overlap = ops.multiply(overlap_w, overlap_h)
    union = ops.add(ops.subtract(ops.add(ops.multiply(wa, ha), ops.multiply(wb, hb)), overlap), eps)
    iou = ops.divide(overlap, ops.add(union, eps))
    hull_w = ops.subtract(ops.maximum(x2a, x2b), ops.minimum(x1a, x1b))
    hull_h = ops.subtract(ops.maximum(y2a, y2b), ops.minimum(y1a, y1b))
    diagonal = ops.add(ops.add(ops.square(hull_w), ops.square(hull_h)), eps)
    center_dx = ops.divide(ops.subtract(ops.add(x1a, x2a), ops.add(x1b, x2b)), 2.0)
    center_dy = ops.divide(ops.subtract(ops.add(y1a, y2a), ops.add(y1b, y2b)), 2.0)
    distance = ops.add(ops.square(center_dx), ops.square(center_dy))
    angle_gap = ops.subtract(ops.arctan(ops.divide(wb, hb)), ops.arctan(ops.divide(wa, ha)))
    v = ops.multiply(4.0 / math.pi**2, ops.square(angle_gap))
    alpha = ops.divide(v, ops.add(ops.subtract(v, iou), 1.0 + eps))
    return ops.subtract(iou, ops.add(ops.divide(distance, diagonal), ops.multiply(v, alpha)))
