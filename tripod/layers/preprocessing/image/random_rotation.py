"""`RandomRotation`: rotate each image about its center by a random angle."""

import math

from tripod.layers.preprocessing import random_draws
from tripod.layers.preprocessing.image.factors import factor_range
from tripod.layers.preprocessing.image.warp import WarpLayer


class RandomRotation(WarpLayer):
    """In training, rotate each image (its masks and boxes with it) about its center by an angle
    drawn from `factor`, in fractions of a full turn (a number f means [-f, f], a pair
    [lower, upper], within [-1, 1]; positive is counter-clockwise), filling the uncovered corners
    per `fill_mode`. Outputs are floats."""

    def __init__(
        self,
        factor,
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
        self.factor = factor_range(self, "factor", factor, -1.0, 1.0)

    def sampling_transform(self, batch, height, width):
        ops = self.backend
        lower, upper = self.factor
        turns = random_draws.uniform(ops, self.random_key(), (batch, 1), lower, upper)
        angle = ops.multiply(turns, 2.0 * math.pi)
        cos, sin = ops.cos(angle), ops.sin(angle)
        center_x = ops.multiply(ops.subtract(ops.cast(width, "float32"), 1.0), 0.5)
        center_y = ops.multiply(ops.subtract(ops.cast(height, "float32"), 1.0), 0.5)
        # output (x, y) reads the input at center + R(angle) (x - center, y - center)
        offset_x = ops.subtract(
            center_x, ops.subtract(ops.multiply(cos, center_x), ops.multiply(sin, center_y))
        )
        offset_y = ops.subtract(
            center_y, ops.add(ops.multiply(sin, center_x), ops.multiply(cos, center_y))
        )
        zero = ops.zeros_like(cos)
        return ops.concatenate(
            [cos, ops.negative(sin), offset_x, sin, cos, offset_y, zero, zero], axis=1
        )

    def get_config(self):
        return {
            **super().get_config(),
            **self.warp_config(),
            "factor": self.factor,
            "fill_mode": self.fill_mode,
        }
