"""`RandomContrast`: scale each image's deviation from its per-channel mean by a random factor."""

from tripod.layers.preprocessing import random_draws
from tripod.layers.preprocessing.image.color_layer import (
    ColorLayer,
    images_of,
    is_number,
)
from tripod.layers.preprocessing.image.factors import factor_range


class RandomContrast(ColorLayer):
    """Randomly scale each image's deviation from its per-channel mean.

    In training, every pixel `x` of a channel becomes `(x - mean) * c + mean`, `mean` the channel's
    mean over the image and `c` drawn per image from `[1 - lower, 1 + upper]`; the result is clipped
    to `value_range`. At inference (`training=False`) the images pass through, cast to the compute
    dtype. The layer takes images `(batch, height, width, channels)`, one image without the batch
    axis, or a dict with "images" (labels, bounding boxes and masks pass through).

    Args:
        factor: number in [0, 1], or a pair (lower, upper) within [0, 1]; a number `f` means
            `lower = upper = f`, so `c` is drawn from [1 - f, 1 + f].
        value_range: (low, high), the range of the input values; default (0, 255).
        seed: int, the seed of the layer's random draws (default None: a random one).
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...), and `data_format`
            ("channels_last" or "channels_first"; default `tripod.config.image_data_format()`).

    Raises:
        ValueError: `factor` is outside [0, 1] (or not a number or pair of numbers),
            `value_range` is not two different numbers, or the images are not of rank 3 or 4.

    Examples:
        >>> layer = tripod.layers.RandomContrast(factor=0.5)
        >>> images = np.array([[[[50.0], [150.0]]]])
        >>> y = tripod.ops.convert_to_numpy(layer(images, training=True))
        >>> round(float(y.mean()), 3)  # the mean is kept, whatever the drawn c
        100.0
    """

    def __init__(self, factor, value_range=(0, 255), seed=None, **kwargs):
        super().__init__(value_range=value_range, seed=seed, **kwargs)
        self.factor = factor_range(
            self, "factor", (factor, factor) if is_number(factor) else factor, 0, 1
        )

    def get_random_transformation(self, data, training=True, seed=None):
        (key,) = self.draw_keys(1, seed)
        lower, upper = self.factor
        shape = self.per_image_shape(images_of(data))
        return {
            "contrast_factor": random_draws.uniform(
                self.backend, key, shape, 1.0 - lower, 1.0 + upper, self.compute_dtype
            )
        }

    def transform_images(self, images, transformation, training=True):
        ops = self.backend
        images = self.as_float(images)
        _, h_axis, w_axis, _ = self.image_axes(images)
        mean = ops.mean(images, axis=(h_axis, w_axis), keepdims=True)
        adjusted = ops.add(
            ops.multiply(ops.subtract(images, mean), transformation["contrast_factor"]), mean
        )
        return self.clip_to_range(adjusted)

    def get_config(self):
        return {**super().get_config(), "factor": self.factor}
