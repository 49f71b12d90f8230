"""`tripod.utils.bounding_boxes`: box formats, geometry, IoU and anchor deltas; the code lives in tripod/layers/preprocessing/image/bounding_boxes/."""

from tripod.layers.preprocessing.image.bounding_boxes import SUPPORTED_FORMATS
from tripod.layers.preprocessing.image.bounding_boxes.deltas import (
    decode_deltas_to_boxes,
    encode_box_to_deltas,
)
from tripod.layers.preprocessing.image.bounding_boxes.formats import convert_format
from tripod.layers.preprocessing.image.bounding_boxes.geometry import (
    affine_transform,
    clip_to_image_size,
    crop,
    pad,
)
from tripod.layers.preprocessing.image.bounding_boxes.iou import compute_ciou, compute_iou

__all__ = [
    "SUPPORTED_FORMATS",
    "affine_transform",
    "clip_to_image_size",
    "compute_ciou",
    "compute_iou",
    "convert_format",
    "crop",
    "decode_deltas_to_boxes",
    "encode_box_to_deltas",
    "pad",
]
