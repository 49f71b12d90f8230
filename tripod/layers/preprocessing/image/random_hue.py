"""`RandomHue`: rotate each image's hue by a random amount."""

from tripod.layers.preprocessing import random_draws
from tripod.layers.preprocessing.image.color_layer import ColorLayer, images_of
from tripod.layers.preprocessing.image.factors import factor_range

HUE = 0


class RandomHue(ColorLayer):
    """In training, shift the hue of each RGB image by `±f / 2` of a full turn, `f` drawn per
    image from `factor` (a number `f` means `[0, f]`) and the sign at random; 0 is a no-op."""

    def __init__(self, factor, value_range=(0, 255), data_format=None, seed=None, **kwargs):
        super().__init__(value_range=value_range, data_format=data_format, seed=seed, **kwargs)
        self.factor = factor_range(self, "factor", factor, 0, 1)

    def get_random_transformation(self, data, training=True, seed=None):
        ops = self.backend
        sign_key, size_key = self.draw_keys(2, seed)
        shape = self.per_image_shape(images_of(data))
        sign = ops.where(random_draws.bernoulli(ops, sign_key, shape, 0.5), -0.5, 0.5)
        size = random_draws.uniform(ops, size_key, shape, *self.factor)
        return {"factor": ops.cast(ops.multiply(sign, size), self.compute_dtype)}

    def transform_images(self, images, transformation, training=True):
        ops = self.backend

        def rotate(hue):
            return ops.mod(ops.add(hue, transformation["factor"]), 1.0)

        return self.adjust_hsv_channel(images, HUE, rotate)

    def get_config(self):
        return {**super().get_config(), "factor": self.factor}
