"""`RandomPosterization`: keep only a random number of the high bits of each 8-bit channel."""

from tripod.layers.preprocessing import random_draws
from tripod.layers.preprocessing.image.color_layer import (
    BYTE_RANGE,
    ColorLayer,
    images_of,
)
from tripod.layers.preprocessing.image.factors import factor_range

BITS = 8


class RandomPosterization(ColorLayer):
    """Randomly reduce the number of bits of each 8-bit channel value.

    In training, the images are mapped from `value_range` to 0..255, each value keeps only its top
    `b` bits (the others set to zero), `b` drawn per image from `factor`, and the result is mapped
    back to `value_range`. At inference (`training=False`) the images pass through, cast to the
    compute dtype. The layer takes images `(batch, height, width, channels)`, one image without the
    batch axis, or a dict with "images" (labels, bounding boxes and masks pass through).

    Args:
        factor: whole number in [1, 8], or a pair (lower, upper) of them: the range `b` is drawn
            from, both ends included; a number `f` means [1, f].
        value_range: (low, high), the range of the input values; default (0, 255).
        data_format: "channels_last" or "channels_first"; default
            `tripod.config.image_data_format()`.
        seed: int, the seed of the layer's random draws (default None: a random one).
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `factor` is outside [1, 8] or not whole, `value_range` is not two different
            numbers, or the images are not of rank 3 or 4.

    Examples:
        >>> layer = tripod.layers.RandomPosterization(factor=(4, 4))  # keep 4 bits
        >>> images = np.array([[[[200.0], [37.0]]]])
        >>> tripod.ops.convert_to_numpy(layer(images, training=True)).ravel().tolist()
        [192.0, 32.0]
    """

    def __init__(self, factor, value_range=(0, 255), data_format=None, seed=None, **kwargs):
        super().__init__(value_range=value_range, data_format=data_format, seed=seed, **kwargs)
        self.factor = factor_range(self, "factor", factor, 1, BITS)
        if any(int(bits) != bits for bits in self.factor):
            raise ValueError(
                f"RandomPosterization '{self.name}': `factor` must be whole numbers of bits, "
                f"received factor={factor!r}."
            )
        self.factor = tuple(int(bits) for bits in self.factor)

    def get_random_transformation(self, data, training=True, seed=None):
        (key,) = self.draw_keys(1, seed)
        lower, upper = self.factor
        shape = self.per_image_shape(images_of(data))
        bits = random_draws.randint(self.backend, key, shape, lower, upper + 1)
        return {"shift_factor": self.backend.subtract(BITS, bits)}

    def transform_images(self, images, transformation, training=True):
        ops = self.backend
        shift = transformation["shift_factor"]
        levels = ops.cast(ops.clip(self.to_range(images, BYTE_RANGE), *BYTE_RANGE), "int32")
        kept = ops.left_shift(ops.right_shift(levels, shift), shift)
        return self.from_range(ops.cast(kept, self.compute_dtype), BYTE_RANGE)

    def get_config(self):
        return {**super().get_config(), "factor": self.factor}
