"""`RandomHue`: rotate each image's hue by a random amount."""

from tripod.layers.preprocessing import random_draws
from tripod.layers.preprocessing.image.color_layer import ColorLayer, images_of
from tripod.layers.preprocessing.image.factors import factor_range

HUE = 0


class RandomHue(ColorLayer):
    """Randomly rotate the hue of each RGB image.

    In training, the hue of each image turns by `f / 2` of a full turn, `f` drawn per image from
    `factor` and the direction at random (0 changes nothing, 1 gives the opposite colours); the
    images are converted to HSV and back, and stay in `value_range`. At inference
    (`training=False`) the images pass through, cast to the compute dtype. The layer takes images
    `(batch, height, width, 3)`, one image without the batch axis, or a dict with "images" (labels,
    bounding boxes and masks pass through).

    Args:
        factor: number in [0, 1], or a pair (lower, upper) within [0, 1]: the range `f` is drawn
            from; a number `f` means [0, f].
        value_range: (low, high), the range of the input values; default (0, 255).
        data_format: "channels_last" or "channels_first"; default
            `tripod.config.image_data_format()`.
        seed: int, the seed of the layer's random draws (default None: a random one).
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `factor` is outside [0, 1] (or not a number or pair of numbers),
            `value_range` is not two different numbers, or the images are not of rank 3 or 4.

    Examples:
        >>> layer = tripod.layers.RandomHue(factor=(1.0, 1.0))  # half a turn: red becomes cyan
        >>> y = layer(np.array([[[[255.0, 0.0, 0.0]]]]), training=True)
        >>> np.round(tripod.ops.convert_to_numpy(y)).ravel().tolist()
        [0.0, 255.0, 255.0]
    """

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
