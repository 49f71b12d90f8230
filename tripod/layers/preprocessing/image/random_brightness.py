"""`RandomBrightness`: add a random offset, a fraction of the value range, to each image."""

from tripod.layers.preprocessing import random_draws
from tripod.layers.preprocessing.image.color_layer import ColorLayer, images_of
from tripod.layers.preprocessing.image.factors import factor_range


class RandomBrightness(ColorLayer):
    """Randomly brighten or darken each image by an offset that is a fraction of its value range.

    In training, every pixel of an image gets `d * (high - low)` added, `d` drawn per image from
    `factor`, and the result is clipped to `value_range` `(low, high)`: `d = -1` gives a black
    image, `d = 1` a white one. At inference (`training=False`) the images pass through, cast to
    the compute dtype. The layer takes images `(batch, height, width, channels)`, one image without
    the batch axis, or a dict with "images" (labels, bounding boxes and masks pass through).

    Args:
        factor: number, or a pair (lower, upper), within [-1, 1]: the range `d` is drawn from; a
            number `f` means [-|f|, |f|].
        value_range: (low, high), the range of the input values; default (0, 255).
        seed: int, the seed of the layer's random draws (default None: a random one).
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...), and `data_format`
            ("channels_last" or "channels_first"; default `tripod.config.image_data_format()`).

    Raises:
        ValueError: `factor` is outside [-1, 1] (or not a number or pair of numbers),
            `value_range` is not two different numbers, or the images are not of rank 3 or 4.

    Examples:
        >>> layer = tripod.layers.RandomBrightness(factor=(0.5, 0.5))
        >>> images = np.array([[[[100.0], [200.0]]]])
        >>> tripod.ops.convert_to_numpy(layer(images, training=True)).ravel().tolist()
        [227.5, 255.0]
        >>> tripod.ops.convert_to_numpy(layer(images, training=False)).ravel().tolist()
        [100.0, 200.0]
    """

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
