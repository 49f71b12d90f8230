"""`RandomSaturation`: scale each image's colour saturation by a random factor."""

from tripod.layers.preprocessing import random_draws
from tripod.layers.preprocessing.image.color_layer import ColorLayer, images_of
from tripod.layers.preprocessing.image.factors import factor_range

SATURATION = 1
EPSILON = 1e-7


class RandomSaturation(ColorLayer):
    """Randomly scale the colour saturation of each RGB image.

    In training, the HSV saturation of each image is multiplied by `f / (1 - f)` (clipped to
    [0, 1]), `f` drawn per image from `factor`: 0 gives a grey image, 0.5 (about) the image
    unchanged, 1 full saturation; the images stay in `value_range`. At inference
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
        >>> layer = tripod.layers.RandomSaturation(factor=(0.0, 0.0))  # no saturation: grey
        >>> y = layer(np.array([[[[200.0, 100.0, 50.0]]]]), training=True)
        >>> np.round(tripod.ops.convert_to_numpy(y)).ravel().tolist()
        [200.0, 200.0, 200.0]
    """

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
