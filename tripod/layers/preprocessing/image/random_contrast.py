"""`RandomContrast`: scale each image's deviation from its per-channel mean by a random factor."""

from tripod.layers.preprocessing import random_draws
from tripod.layers.preprocessing.image.color_layer import (
    ColorLayer,
    images_of,
    is_number,
)
from tripod.layers.preprocessing.image.factors import factor_range


class RandomContrast(ColorLayer):
    """In training, map each pixel `x` of each channel to `(x - mean) * c + mean`, `mean` the
    channel's mean over the image and `c` drawn per image from `[1 - lower, 1 + upper]`
    (`factor` a number `f` gives `lower = upper = f`), then clip to `value_range`."""

    def __init__(self, factor, value_range=(0, 255), seed=None, **kwargs):
        super().__init__(value_range=value_range, seed=seed, **kwargs)
        self.factor = factor_range(
            self, "factor", (factor, factor) if is_number(factor) else factor, 0, 1
        )

    def get_random_transformation(self, data, training=True, seed=None):
        (key,) = self.draw_keys(1, seed)
        lower, upper = self.factor
        shape = self.per_image_shape(images_of(data))
        return {
            "contrast_factor": random_draws.uniform(
                self.backend, key, shape, 1.0 - lower, 1.0 + upper, self.compute_dtype
            )
        }

    def transform_images(self, images, transformation, training=True):
        ops = self.backend
        images = self.as_float(images)
        _, h_axis, w_axis, _ = self.image_axes(images)
        mean = ops.mean(images, axis=(h_axis, w_axis), keepdims=True)
        adjusted = ops.add(
            ops.multiply(ops.subtract(images, mean), transformation["contrast_factor"]), mean
        )
        return self.clip_to_range(adjusted)

    def get_config(self):
        return {**super().get_config(), "factor": self.factor}
