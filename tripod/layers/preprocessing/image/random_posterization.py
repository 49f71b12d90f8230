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
    """In training, map images to 0..255, keep the top `b` bits of each value, `b` drawn per image
    from `factor` (integers in [1, 8], both ends included; a number `f` means `[1, f]`), and map
    back to `value_range`."""

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
