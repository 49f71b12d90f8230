"""`Solarization`: invert the pixels above a random threshold, after a random brightening."""

from tripod.layers.preprocessing import random_draws
from tripod.layers.preprocessing.image.color_layer import (
    BYTE_RANGE,
    ColorLayer,
    images_of,
)
from tripod.layers.preprocessing.image.factors import factor_range

TOP = BYTE_RANGE[1]


class Solarization(ColorLayer):
    """Randomly brighten images, then invert the pixels at or above a random threshold.

    In training, the images are mapped from `value_range` to 0..255; each value gets `a * 255`
    added (clipped to 0..255), then each value `x` at or above `t * 255` becomes `255 - x`; `a` and
    `t` are drawn per image from `addition_factor` and `threshold_factor`, and the result is mapped
    back to `value_range`. With the default threshold 0 every pixel is inverted. At inference
    (`training=False`) the images pass through, cast to the compute dtype. The layer takes images
    `(batch, height, width, channels)`, one image without the batch axis, or a dict with "images"
    (labels, bounding boxes and masks pass through).

    Args:
        addition_factor: number in [0, 1], or a pair (lower, upper) within [0, 1]: the range `a`
            is drawn from; a number `f` means [0, f]. Default 0.0 (nothing added).
        threshold_factor: number or pair in [0, 1], the range `t` is drawn from, read like
            `addition_factor`. Default 0.0.
        value_range: (low, high), the range of the input values; default (0, 255).
        seed: int, the seed of the layer's random draws (default None: a random one).
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...), and `data_format`
            ("channels_last" or "channels_first"; default `tripod.config.image_data_format()`).

    Raises:
        ValueError: a factor is outside [0, 1] (or not a number or pair of numbers),
            `value_range` is not two different numbers, or the images are not of rank 3 or 4.

    Examples:
        >>> layer = tripod.layers.Solarization(threshold_factor=(0.5, 0.5))  # t * 255 = 127.5
        >>> images = np.array([[[[100.0], [200.0]]]])
        >>> tripod.ops.convert_to_numpy(layer(images, training=True)).ravel().tolist()
        [100.0, 55.0]
    """

    def __init__(
        self, addition_factor=0.0, threshold_factor=0.0, value_range=(0, 255), seed=None, **kwargs
    ):
        super().__init__(value_range=value_range, seed=seed, **kwargs)
        self.addition_factor = factor_range(self, "addition_factor", addition_factor, 0, 1)
        self.threshold_factor = factor_range(self, "threshold_factor", threshold_factor, 0, 1)

    def get_random_transformation(self, data, training=True, seed=None):
        ops = self.backend
        addition_key, threshold_key = self.draw_keys(2, seed)
        shape = self.per_image_shape(images_of(data))

        def draw(key, factor):
            low, high = factor
            value = random_draws.uniform(ops, key, shape, low * TOP, high * TOP)
            return ops.cast(value, self.compute_dtype)

        return {
            "additions": draw(addition_key, self.addition_factor),
            "thresholds": draw(threshold_key, self.threshold_factor),
        }

    def transform_images(self, images, transformation, training=True):
        ops = self.backend
        images = ops.add(self.to_range(images, BYTE_RANGE), transformation["additions"])
        images = ops.clip(images, *BYTE_RANGE)
        solarized = ops.where(
            ops.less(images, transformation["thresholds"]), images, ops.subtract(TOP, images)
        )
        return self.from_range(solarized, BYTE_RANGE)

    def get_config(self):
        return {
            **super().get_config(),
            "addition_factor": self.addition_factor,
            "threshold_factor": self.threshold_factor,
        }
