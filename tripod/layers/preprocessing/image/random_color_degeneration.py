"""`RandomColorDegeneration`: blend each image towards its greyscale version by a random amount."""

from tripod.layers.preprocessing import random_draws
from tripod.layers.preprocessing.image.color_layer import ColorLayer, images_of
from tripod.layers.preprocessing.image.factors import factor_range


class RandomColorDegeneration(ColorLayer):
    """In training, compute `x + f * (gray(x) - x)` per RGB image, `f` drawn from `factor` (a
    number `f` means `[0, f]`): 0 keeps the image, 1 makes it grey; clipped to `value_range`."""

    def __init__(self, factor, value_range=(0, 255), data_format=None, seed=None, **kwargs):
        super().__init__(value_range=value_range, data_format=data_format, seed=seed, **kwargs)
        self.factor = factor_range(self, "factor", factor, 0, 1)

    def get_random_transformation(self, data, training=True, seed=None):
        (key,) = self.draw_keys(1, seed)
        shape = self.per_image_shape(images_of(data))
        draw = random_draws.uniform(self.backend, key, shape, *self.factor)
        return {"factor": self.backend.cast(draw, self.compute_dtype)}

    def transform_images(self, images, transformation, training=True):
        ops = self.backend
        images = self.as_float(images)
        gray = ops.rgb_to_grayscale(images, data_format=self.data_format)
        blended = ops.add(
            images, ops.multiply(transformation["factor"], ops.subtract(gray, images))
        )
        return self.clip_to_range(blended)

    def get_config(self):
        return {**super().get_config(), "factor": self.factor}
