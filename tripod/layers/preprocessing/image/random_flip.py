"""`RandomFlip`: flip each image left-right and/or top-bottom with probability one half."""

from tripod.layers.preprocessing import random_draws
from tripod.layers.preprocessing.image.base import BaseImagePreprocessingLayer
from tripod.layers.preprocessing.image.warp import move_boxes

HORIZONTAL, VERTICAL, BOTH = "horizontal", "vertical", "horizontal_and_vertical"


class RandomFlip(BaseImagePreprocessingLayer):
    """Randomly flip images left-right, top-bottom, or both.

    In training, each image (with its segmentation masks and bounding boxes) is flipped with
    probability one half: left-right for `mode="horizontal"`, top-bottom for `"vertical"`, and both
    at once for `"horizontal_and_vertical"`. At inference (`training=False`) the images pass
    through, cast to the compute dtype. The layer takes images `(batch, height, width, channels)`,
    one image without the batch axis, or a dict with "images" and optionally "labels" (unchanged),
    "segmentation_masks" and "bounding_boxes" (a dict of "boxes" and "labels"). Images come back
    as floats.

    Args:
        mode: "horizontal", "vertical" or "horizontal_and_vertical" (default).
        seed: int, the seed of the layer's random draws (default None: a random one).
        data_format: "channels_last" or "channels_first"; default
            `tripod.config.image_data_format()`.
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...), and `bounding_box_format`
            (e.g. "xyxy"), needed when the input has bounding boxes.

    Raises:
        ValueError: an unknown `mode`, images not of rank 3 or 4, or bounding boxes without a
            `bounding_box_format`.

    Examples:
        >>> layer = tripod.layers.RandomFlip(mode="horizontal", seed=1)
        >>> images = np.arange(6.0).reshape(1, 1, 6, 1)
        >>> y = tripod.ops.convert_to_numpy(layer(images, training=True))
        >>> bool(np.array_equal(y, images) or np.array_equal(y, images[:, :, ::-1]))
        True
        >>> tripod.ops.convert_to_numpy(layer(images, training=False)).ravel().tolist()
        [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
    """

    def __init__(self, mode=BOTH, seed=None, data_format=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        if mode not in (HORIZONTAL, VERTICAL, BOTH):
            raise ValueError(
                f"RandomFlip '{self.name}': mode must be one of {(HORIZONTAL, VERTICAL, BOTH)}, "
                f"received {mode!r}."
            )
        self.mode = mode

    def get_random_transformation(self, data, training=True, seed=None):
        images = data["images"] if isinstance(data, dict) else data
        shape = (self.batch_size(images), 1, 1, 1)
        flips = random_draws.bernoulli(self.backend, self.random_key(), shape, 0.5)
        return {"flips": flips, "size": self.image_size(images)}

    def transform_images(self, images, transformation, training=True):
        return self._flip(self.backend.cast(images, self.compute_dtype), transformation["flips"])

    def transform_segmentation_masks(self, segmentation_masks, transformation, training=True):
        return self._flip(segmentation_masks, transformation["flips"])

    def transform_bounding_boxes(self, bounding_boxes, transformation, training=True):
        ops = self.backend
        height, width = transformation["size"]
        flips = ops.squeeze(transformation["flips"], -1)  # (batch, 1, 1) against (batch, boxes, 4)

        def move(boxes):
            x1, y1, x2, y2 = ops.split(boxes, 4, axis=-1)
            right, bottom = ops.cast(width, "float32"), ops.cast(height, "float32")
            if self.mode != VERTICAL:
                x1, x2 = ops.subtract(right, x2), ops.subtract(right, x1)
            if self.mode != HORIZONTAL:
                y1, y2 = ops.subtract(bottom, y2), ops.subtract(bottom, y1)
            return ops.where(flips, ops.concatenate([x1, y1, x2, y2], axis=-1), boxes)

        return move_boxes(self, bounding_boxes, (height, width), move)

    def _flip(self, images, flips):
        """`images` flipped where `flips` (batch, 1, 1, 1) is True."""
        ops = self.backend
        _, h_axis, w_axis, _ = self.image_axes(images)
        axes = {HORIZONTAL: (w_axis,), VERTICAL: (h_axis,), BOTH: (h_axis, w_axis)}[self.mode]
        return ops.where(flips, ops.flip(images, axis=axes), images)

    def get_config(self):
        return {**super().get_config(), "mode": self.mode}
