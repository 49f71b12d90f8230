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
    """In training, on images mapped to 0..255: add `a * 255` and clip, then replace each value
    `x` at or above `t * 255` by `255 - x`; `a` and `t` are drawn per image from
    `addition_factor` and `threshold_factor` (a number `f` means `[0, f]`). Mapped back to
    `value_range`."""

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
