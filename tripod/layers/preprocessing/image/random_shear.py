"""`RandomShear`: shear each image along x and/or y by random amounts."""

from tripod.layers.preprocessing import random_draws
from tripod.layers.preprocessing.image.factors import factor_range
from tripod.layers.preprocessing.image.warp import WarpLayer


class RandomShear(WarpLayer):
    """In training, shear each image (its masks and boxes with it) about the top-left corner:
    output pixel (x, y) reads input (x + sx * y, y + sy * x), sx drawn from `x_factor` and sy from
    `y_factor` (a number f means [-f, f], a pair [lower, upper], within [0, 1]), both with a sign
    flipped at random per image. Outputs are floats."""

    def __init__(
        self,
        x_factor=0.0,
        y_factor=0.0,
        interpolation="bilinear",
        fill_mode="reflect",
        fill_value=0.0,
        data_format=None,
        seed=None,
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
        self.x_factor, self.y_factor = x_factor, y_factor
        self.x_range = factor_range(self, "x_factor", x_factor, 0.0, 1.0, symmetric=True)
        self.y_range = factor_range(self, "y_factor", y_factor, 0.0, 1.0, symmetric=True)

    def sampling_transform(self, batch, height, width):
        ops = self.backend
        flip = random_draws.bernoulli(ops, self.random_key(), (batch, 1), 0.5)
        sign = ops.where(flip, -1.0, 1.0)
        shear_y = ops.multiply(
            random_draws.uniform(ops, self.random_key(), (batch, 1), *self.y_range), sign
        )
        shear_x = ops.multiply(
            random_draws.uniform(ops, self.random_key(), (batch, 1), *self.x_range), sign
        )
        zero, one = ops.zeros_like(shear_x), ops.ones_like(shear_x)
        return ops.concatenate([one, shear_x, zero, shear_y, one, zero, zero, zero], axis=1)

    def get_config(self):
        return {
            **super().get_config(),
            **self.warp_config(),
            "x_factor": self.x_factor,
            "y_factor": self.y_factor,
            "fill_mode": self.fill_mode,
        }
