"""`RandomSaturation`: scale each image's colour saturation by a random factor."""

from tripod.layers.preprocessing import random_draws
from tripod.layers.preprocessing.image.color_layer import ColorLayer, images_of
from tripod.layers.preprocessing.image.factors import factor_range

SATURATION = 1
EPSILON = 1e-7


class RandomSaturation(ColorLayer):
    """In training, multiply the HSV saturation of each RGB image by `f / (1 - f)`, `f` drawn per
    image from `factor` (a number `f` means `[0, f]`): 0 gives grey, 0.5 the image unchanged,
    1 full saturation."""

    def __init__(self, factor, value_range=(0, 255), data_format=None, seed=None, **kwargs):
        super().__init__(value_range=value_range, data_format=data_format, seed=seed, **kwargs)
        self.factor = factor_range(self, "factor", factor, 0, 1)

    def get_random_transformation(self, data, training=True, seed=None):
        ops = self.backend
        (key,) = self.draw_keys(1, seed)
        draw = random_draws.uniform(ops, key, self.per_image_shape(images_of(data)), *self.factor)
        scale = ops.divide(draw, ops.add(ops.subtract(1.0, draw), EPSILON))
        return {"factor": ops.cast(scale, self.compute_dtype)}

    def transform_images(self, images, transformation, training=True):
        ops = self.backend

        def scale(saturation):
            return ops.clip(ops.multiply(saturation, transformation["factor"]), 0.0, 1.0)

        return self.adjust_hsv_channel(images, SATURATION, scale)

    def get_config(self):
        return {**super().get_config(), "factor": self.factor}
