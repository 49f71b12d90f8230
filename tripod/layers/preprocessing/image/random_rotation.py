"""`RandomRotation`: rotate each image about its center by a random angle."""

import math

from tripod.layers.preprocessing import random_draws
from tripod.layers.preprocessing.image.factors import factor_range
from tripod.layers.preprocessing.image.warp import WarpLayer


class RandomRotation(WarpLayer):
    """Randomly rotate each image about its center.

    In training, each image (with its segmentation masks and bounding boxes) turns by an angle drawn
    per image from `factor`, in fractions of a full turn (positive is counter-clockwise); the
    corners left uncovered are filled per `fill_mode`. At inference (`training=False`) the images
    pass through, cast to the compute dtype. The layer takes images `(batch, height, width,
    channels)`, one image without the batch axis, or a dict with "images" and optionally "labels"
    (unchanged), "segmentation_masks" (resampled with nearest interpolation) and "bounding_boxes"
    (moved, clipped to the image; a box left empty gets the label -1). Images come back as floats.

    Args:
        factor: number, or a pair (lower, upper), within [-1, 1]: the range of the angle in
            turns; a number `f` means [-|f|, |f|] (0.5 is half a turn).
        fill_mode: how points outside the input are filled: "reflect" (default), "wrap",
            "constant" (with `fill_value`) or "nearest" (the nearest edge pixel).
        interpolation: "bilinear" (default) or "nearest".
        seed: int, the seed of the layer's random draws (default None: a random one).
        fill_value: number, the value of the outside points for `fill_mode="constant"`
            (default 0.0).
        data_format: "channels_last" or "channels_first"; default
            `tripod.config.image_data_format()`.
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...), and `bounding_box_format`
            (e.g. "xyxy"), needed when the input has bounding boxes.

    Raises:
        ValueError: `factor` is outside [-1, 1] (or not a number or pair of numbers), an unknown
            `fill_mode` or `interpolation`, images not of rank 3 or 4, or bounding boxes without a
            `bounding_box_format`.

    Examples:
        >>> layer = tripod.layers.RandomRotation(factor=(0.5, 0.5), interpolation="nearest")
        >>> images = np.array([[[[1.0], [2.0]], [[3.0], [4.0]]]])
        >>> tripod.ops.convert_to_numpy(layer(images, training=True)).ravel().tolist()
        [4.0, 3.0, 2.0, 1.0]
        >>> tuple(tripod.layers.RandomRotation(0.1)(np.zeros((2, 8, 8, 3)), training=True).shape)
        (2, 8, 8, 3)
    """

    def __init__(
        self,
        factor,
        fill_mode="reflect",
        interpolation="bilinear",
        seed=None,
        fill_value=0.0,
        data_format=None,
        **kwargs,
    ):
        super().__init__(
            interpolation=interpolation,
            fill_mode=fill_mode,
            fill_value=fill_value,
            seed=seed,
            data_format=data_format,
            **kwargs,
        )
        self.factor = factor_range(self, "factor", factor, -1.0, 1.0)

    def sampling_transform(self, batch, height, width):
        ops = self.backend
        lower, upper = self.factor
        turns = random_draws.uniform(ops, self.random_key(), (batch, 1), lower, upper)
        angle = ops.multiply(turns, 2.0 * math.pi)
        cos, sin = ops.cos(angle), ops.sin(angle)
        center_x = ops.multiply(ops.subtract(ops.cast(width, "float32"), 1.0), 0.5)
        center_y = ops.multiply(ops.subtract(ops.cast(height, "float32"), 1.0), 0.5)
        # output (x, y) reads the input at center + R(angle) (x - center, y - center)
        offset_x = ops.subtract(
            center_x, ops.subtract(ops.multiply(cos, center_x), ops.multiply(sin, center_y))
        )
        offset_y = ops.subtract(
            center_y, ops.add(ops.multiply(sin, center_x), ops.multiply(cos, center_y))
        )
        zero = ops.zeros_like(cos)
        return ops.concatenate(
            [cos, ops.negative(sin), offset_x, sin, cos, offset_y, zero, zero], axis=1
        )

    def get_config(self):
        return {
            **super().get_config(),
            **self.warp_config(),
            "factor": self.factor,
            "fill_mode": self.fill_mode,
        }
