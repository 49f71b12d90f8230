"""`RandomInvert`: invert the colours of a random share of the images."""

from tripod.layers.preprocessing import random_draws
from tripod.layers.preprocessing.image.color_layer import ColorLayer, images_of
from tripod.layers.preprocessing.image.factors import factor_range


class RandomInvert(ColorLayer):
    """Randomly invert the colours of images.

    In training, each image is inverted (every pixel `x` becomes `low + high - x`, `value_range`
    `(low, high)`) with a probability drawn per image from `factor`. At inference
    (`training=False`) the images pass through, cast to the compute dtype. The layer takes images
    `(batch, height, width, channels)`, one image without the batch axis, or a dict with "images"
    (labels, bounding boxes and masks pass through).

    Args:
        factor: number in [0, 1], or a pair (lower, upper) within [0, 1]: the range the
            probability is drawn from; a number `f` means [0, f]. Default 1.0.
        value_range: (low, high), the range of the input values; default (0, 255).
        seed: int, the seed of the layer's random draws (default None: a random one).
        data_format: "channels_last" or "channels_first"; default
            `tripod.config.image_data_format()`.
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `factor` is outside [0, 1] (or not a number or pair of numbers),
            `value_range` is not two different numbers, or the images are not of rank 3 or 4.

    Examples:
        >>> layer = tripod.layers.RandomInvert(factor=(1.0, 1.0))  # always inverts
        >>> images = np.array([[[[0.0], [55.0]]]])
        >>> tripod.ops.convert_to_numpy(layer(images, training=True)).ravel().tolist()
        [255.0, 200.0]
    """

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
