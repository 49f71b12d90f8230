"""`RandomGrayscale`: turn a random share of the images grey, keeping their channel count."""

from tripod.layers.preprocessing import random_draws
from tripod.layers.preprocessing.image.color_layer import ColorLayer, images_of, is_number


class RandomGrayscale(ColorLayer):
    """In training, replace each RGB image, with probability `factor`, by its luminance in all
    three channels."""

    def __init__(self, factor=0.5, data_format=None, seed=None, **kwargs):
        super().__init__(data_format=data_format, seed=seed, **kwargs)
        if not is_number(factor) or not 0 <= factor <= 1:
            raise ValueError(
                f"RandomGrayscale '{self.name}': `factor` must be a number in [0, 1], "
                f"received factor={factor!r}."
            )
        self.factor = factor

    def get_random_transformation(self, data, training=True, seed=None):
        (key,) = self.draw_keys(1, seed)
        shape = self.per_image_shape(images_of(data))
        return {"apply": random_draws.bernoulli(self.backend, key, shape, self.factor)}

    def transform_images(self, images, transformation, training=True):
        ops = self.backend
        images = self.as_float(images)
        gray = ops.rgb_to_grayscale(images, data_format=self.data_format)
        return ops.where(transformation["apply"], ops.broadcast_to(gray, ops.shape(images)), images)

    def get_config(self):
        return {**super().get_config(), "factor": self.factor}
