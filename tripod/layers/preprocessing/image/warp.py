"""`WarpLayer`: the base of augmentation layers that resample images through a projective map
(translation, zoom, rotation, shear, perspective), moving masks and boxes with them."""

from tripod.layers.preprocessing.image.base import BaseImagePreprocessingLayer
from tripod.layers.preprocessing.image.bounding_boxes import formats, geometry
from tripod.layers.preprocessing.image.factors import FILL_MODES, INTERPOLATIONS, check_choice


class WarpLayer(BaseImagePreprocessingLayer):
    """In training, resample each image through a random map `sampling_transform` draws (rows
    (batch, 8) sending each output pixel to the input point it reads, as `affine_transform`
    takes them). Masks follow with nearest interpolation; boxes go through the inverse map and
    are clipped to the image (a box left empty gets the label -1)."""

    def __init__(self, interpolation="bilinear", fill_mode="reflect", fill_value=0.0, **kwargs):
        super().__init__(**kwargs)
        self.interpolation = check_choice(self, "interpolation", interpolation, INTERPOLATIONS)
        self.fill_mode = check_choice(self, "fill_mode", fill_mode, FILL_MODES)
        self.fill_value = fill_value

    def sampling_transform(self, batch, height, width):
        """The random maps (batch, 8) for a batch of `height` x `width` images."""
        raise NotImplementedError(f"{type(self).__name__} must implement sampling_transform.")

    def get_random_transformation(self, data, training=True, seed=None):
        images = data["images"] if isinstance(data, dict) else data
        height, width = self.image_size(images)
        transform = self.sampling_transform(self.batch_size(images), height, width)
        return {"transform": transform, "size": (height, width)}

    def _warp(self, images, transformation, interpolation):
        return self.backend.affine_transform(
            images,
            transformation["transform"],
            interpolation=interpolation,
            fill_mode=self.fill_mode,
            fill_value=self.fill_value,
            data_format=self.data_format,
        )

    def transform_images(self, images, transformation, training=True):
        images = self.backend.cast(images, self.compute_dtype)
        return self._warp(images, transformation, self.interpolation)

    def transform_segmentation_masks(self, segmentation_masks, transformation, training=True):
        return self._warp(segmentation_masks, transformation, "nearest")

    def transform_bounding_boxes(self, bounding_boxes, transformation, training=True):
        def move(boxes):
            return geometry.warp(self.backend, boxes, transformation["transform"])

        return move_boxes(self, bounding_boxes, transformation["size"], move)

    def warp_config(self):
        """The config entries every warp layer shares."""
        return {"interpolation": self.interpolation, "fill_value": self.fill_value}


def box_format(layer):
    """The layer's `bounding_box_format`, or a ValueError saying that boxes need one."""
    if layer.bounding_box_format is None:
        raise ValueError(
            f"{type(layer).__name__} '{layer.name}': the input has 'bounding_boxes' but the layer "
            "has no bounding_box_format; pass e.g. bounding_box_format='xyxy'."
        )
    return layer.bounding_box_format


def move_boxes(layer, bounding_boxes, size, move, new_size=None):
    """`bounding_boxes` (a dict of "boxes" (batch, N, 4) and "labels") in the layer's format,
    with `move` applied to their xyxy pixel coordinates in an image of `size` (height, width);
    the result is clipped to `new_size` (default `size`) and converted back."""
    ops, fmt = layer.backend, box_format(layer)
    height, width = size
    new_height, new_width = new_size or size
    boxes = formats.convert(ops, bounding_boxes["boxes"], fmt, "xyxy", height, width)
    moved = {**bounding_boxes, "boxes": move(boxes)}
    moved = geometry.clip(ops, moved, new_height, new_width, "xyxy")
    return {
        **moved,
        "boxes": formats.convert(ops, moved["boxes"], "xyxy", fmt, new_height, new_width),
    }
