"""Box regression targets: boxes encoded as deltas from anchors, and decoded back."""

from tripod.backends import config
from tripod.layers.preprocessing.image.bounding_boxes._backend import ops_for
from tripod.layers.preprocessing.image.bounding_boxes.formats import convert

_ENCODINGS = ("center_xywh", "center_yxhw")


def _check(name, encoding, variance, ops):
    """`variance` as a float tensor of 4 (or None), after checking `encoding`."""
    if encoding not in _ENCODINGS:
        raise ValueError(
            f"{name}: the encoding must be one of {_ENCODINGS}, received {encoding!r}."
        )
    if variance is None:
        return None
    variance = ops.convert_to_tensor(variance, dtype="float32")
    if tuple(variance.shape)[-1:] != (4,):
        raise ValueError(
            f"{name}: variance must hold 4 numbers, received shape {tuple(variance.shape)}."
        )
    return variance


def _size(image_shape):
    return (None, None) if image_shape is None else tuple(image_shape)[:2]


def encode_box_to_deltas(
    anchors,
    boxes,
    anchor_format,
    box_format,
    encoding_format="center_yxhw",
    variance=None,
    image_shape=None,
):
    """`boxes` ((N, 4) or (batch, N, 4)) as deltas from `anchors` (N, 4), both first converted
    to `encoding_format` ("center_yxhw" or "center_xywh"): center offsets over the anchor size,
    then the log of the size ratios; divided by `variance` when given. Relative formats need
    `image_shape` (height, width, channels)."""
    ops = ops_for(anchors, boxes)
    variance = _check("encode_box_to_deltas", encoding_format, variance, ops)
    height, width = _size(image_shape)
    anchors = convert(ops, anchors, anchor_format, encoding_format, height, width)
    boxes = convert(ops, boxes, box_format, encoding_format, height, width)
    anchor_size = ops.maximum(anchors[..., 2:], config.epsilon())
    box_size = ops.maximum(boxes[..., 2:], config.epsilon())
    centers = ops.divide(ops.subtract(boxes[..., :2], anchors[..., :2]), anchor_size)
    deltas = ops.concatenate([centers, ops.log(ops.divide(box_size, anchor_size))], axis=-1)
    return deltas if variance is None else ops.divide(deltas, variance)


def decode_deltas_to_boxes(
    anchors,
    boxes_delta,
    anchor_format,
    box_format,
    encoded_format="center_yxhw",
    variance=None,
    image_shape=None,
):
    """The inverse of `encode_box_to_deltas`: boxes in `box_format` from `anchors` and their
    deltas. `anchors` and `boxes_delta` may be dicts of tensors (one entry per feature level),
    giving a dict."""
    ops = ops_for(anchors, boxes_delta)
    variance = _check("decode_deltas_to_boxes", encoded_format, variance, ops)
    height, width = _size(image_shape)

    def decode(anchor, delta):
        anchor = convert(ops, anchor, anchor_format, encoded_format, height, width)
        delta = ops.cast(ops.convert_to_tensor(delta), "float32")
        if variance is not None:
            delta = ops.multiply(delta, variance)
        centers = ops.add(ops.multiply(delta[..., :2], anchor[..., 2:]), anchor[..., :2])
        sizes = ops.multiply(ops.exp(delta[..., 2:]), anchor[..., 2:])
        box = ops.concatenate([centers, sizes], axis=-1)
        return convert(ops, box, encoded_format, box_format, height, width)

    if isinstance(anchors, dict) and isinstance(boxes_delta, dict):
        return {level: decode(anchor, boxes_delta[level]) for level, anchor in anchors.items()}
    return decode(anchors, boxes_delta)
