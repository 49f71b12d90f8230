"""`RandomTranslation`: shift each image by a random fraction of its height and width."""

from tripod.layers.preprocessing import random_draws
from tripod.layers.preprocessing.image.factors import factor_range
from tripod.layers.preprocessing.image.warp import WarpLayer


class RandomTranslation(WarpLayer):
    """In training, shift each image (its masks and boxes with it) down by a fraction of its height
    drawn from `height_factor` and right by a fraction of its width drawn from `width_factor`
    (a number f means [-f, f], a pair [lower, upper], within [-1, 1]), filling the uncovered
    part per `fill_mode`. Outputs are floats."""

    def __init__(
        self,
        height_factor,
        width_factor,
        fill_mode="reflect",
        interpolation="bilinear",
        seed=None,
        fill_value=0.0,
        data_format=None,
        **kwargs,
    ):
        super().__init__(
            interpolation=interpolation,
            fill_mode=fill_mode,
            fill_value=fill_value,
            seed=seed,
            data_format=data_format,
            **kwargs,
        )
        self.height_factor, self.width_factor = height_factor, width_factor
        self.height_range = factor_range(self, "height_factor", height_factor, -1.0, 1.0)
        self.width_range = factor_range(self, "width_factor", width_factor, -1.0, 1.0)

    def sampling_transform(self, batch, height, width):
        ops = self.backend
        dy = ops.multiply(
            random_draws.uniform(ops, self.random_key(), (batch, 1), *self.height_range),
            ops.cast(height, "float32"),
        )
        dx = ops.multiply(
            random_draws.uniform(ops, self.random_key(), (batch, 1), *self.width_range),
            ops.cast(width, "float32"),
        )
        zero, one = ops.zeros_like(dx), ops.ones_like(dx)
        return ops.concatenate(
            [one, zero, ops.negative(dx), zero, one, ops.negative(dy), zero, zero], axis=1
        )

    def get_config(self):
        return {
            **super().get_config(),
            **self.warp_config(),
            "height_factor": self.height_factor,
            "width_factor": self.width_factor,
            "fill_mode": self.fill_mode,
        }
