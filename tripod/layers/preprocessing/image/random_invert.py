"""`RandomInvert`: invert the colours of a random share of the images."""

from tripod.layers.preprocessing import random_draws
from tripod.layers.preprocessing.image.color_layer import ColorLayer, images_of
from tripod.layers.preprocessing.image.factors import factor_range


class RandomInvert(ColorLayer):
    """In training, map an image's pixels `x` to `low + high - x` (`value_range` `(low, high)`),
    with a probability drawn per image from `factor` (a number `f` means `[0, f]`)."""

    def __init__(self, factor=1.0, value_range=(0, 255), seed=None, data_format=None, **kwargs):
        super().__init__(value_range=value_range, seed=seed, data_format=data_format, **kwargs)
        self.factor = factor_range(self, "factor", factor, 0, 1)

    def get_random_transformation(self, data, training=True, seed=None):
        ops = self.backend
        chance_key, draw_key = self.draw_keys(2, seed)
        shape = self.per_image_shape(images_of(data))
        chance = random_draws.uniform(ops, chance_key, shape, *self.factor)
        return {"apply_inversion": ops.less(random_draws.uniform(ops, draw_key, shape), chance)}

    def transform_images(self, images, transformation, training=True):
        ops = self.backend
        images = self.as_float(images)
        inverted = ops.subtract(float(sum(self.value_range)), images)
        return ops.where(transformation["apply_inversion"], inverted, images)

    def get_config(self):
        return {**super().get_config(), "factor": self.factor}
