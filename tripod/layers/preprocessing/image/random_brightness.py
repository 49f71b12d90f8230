"""`RandomBrightness`: add a random offset, a fraction of the value range, to each image."""

from tripod.layers.preprocessing import random_draws
from tripod.layers.preprocessing.image.color_layer import ColorLayer, images_of
from tripod.layers.preprocessing.image.factors import factor_range


class RandomBrightness(ColorLayer):
    """In training, add `d * (high - low)` to every pixel of an image, `d` drawn per image from
    `factor` (a number `f` means `[-f, f]`; -1 gives black, 1 white), then clip to
    `value_range` `(low, high)`."""

    def __init__(self, factor, value_range=(0, 255), seed=None, **kwargs):
        super().__init__(value_range=value_range, seed=seed, **kwargs)
        self.factor = factor_range(self, "factor", factor, -1, 1)

    def get_random_transformation(self, data, training=True, seed=None):
        (key,) = self.draw_keys(1, seed)
        shape = self.per_image_shape(images_of(data))
        delta = random_draws.uniform(self.backend, key, shape, *self.factor)
        span = self.value_range[1] - self.value_range[0]
        return {
            "rgb_delta": self.backend.cast(self.backend.multiply(delta, span), self.compute_dtype)
        }

    def transform_images(self, images, transformation, training=True):
        return self.clip_to_range(
            self.backend.add(self.as_float(images), transformation["rgb_delta"])
        )

    def get_config(self):
        return {**super().get_config(), "factor": self.factor}
