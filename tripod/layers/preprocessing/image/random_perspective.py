"""`RandomPerspective`: move each image's corners at random and warp it to match."""

from tripod.layers.preprocessing import random_draws
from tripod.layers.preprocessing.image.factors import factor_range
from tripod.layers.preprocessing.image.warp import WarpLayer


def projective_rows(ops, source, target):
    """Rows (batch, 8) of the projective maps sending each of the four points `source`
    (batch, 4, 2) to the matching point of `target`, as `affine_transform` takes them."""
    xs, ys = ops.unstack(source, 2, axis=-1)
    xt, yt = ops.unstack(target, 2, axis=-1)
    zero, one = ops.zeros_like(xs), ops.ones_like(xs)
    x_rows = ops.stack(
        [
            xs,
            ys,
            one,
            zero,
            zero,
            zero,
            ops.negative(ops.multiply(xs, xt)),
            ops.negative(ops.multiply(ys, xt)),
        ],
        axis=-1,
    )
    y_rows = ops.stack(
        [
            zero,
            zero,
            zero,
            xs,
            ys,
            one,
            ops.negative(ops.multiply(xs, yt)),
            ops.negative(ops.multiply(ys, yt)),
        ],
        axis=-1,
    )
    system = ops.reshape(ops.stack([x_rows, y_rows], axis=2), (-1, 8, 8))
    values = ops.reshape(ops.stack([xt, yt], axis=2), (-1, 8, 1))
    return ops.squeeze(ops.solve(system, values), -1)


class RandomPerspective(WarpLayer):
    """In training, with a probability drawn from `factor` (a number f means [0, f], a pair
    [lower, upper], within [0, 1]), move each image's corners by up to `scale` / 2 of their
    coordinates and warp the image (its masks and boxes with it) so its corners land there;
    uncovered pixels get `fill_value`. Outputs are floats."""

    def __init__(
        self,
        factor=1.0,
        scale=1.0,
        interpolation="bilinear",
        fill_value=0.0,
        seed=None,
        data_format=None,
        **kwargs,
    ):
        super().__init__(
            interpolation=interpolation,
            fill_mode="constant",
            fill_value=fill_value,
            seed=seed,
            data_format=data_format,
            **kwargs,
        )
        self.factor = factor_range(self, "factor", factor, 0.0, 1.0)
        if not isinstance(scale, (int, float)) or not 0.0 <= scale <= 1.0:
            raise ValueError(
                f"RandomPerspective '{self.name}': scale must be a number in [0, 1], received "
                f"{scale!r}."
            )
        self.scale = scale

    def sampling_transform(self, batch, height, width):
        ops = self.backend
        chance = random_draws.uniform(ops, self.random_key(), (batch,), *self.factor)
        applied = ops.less(random_draws.uniform(ops, self.random_key(), (batch,)), chance)
        moves = random_draws.uniform(
            ops, self.random_key(), (batch, 4, 2), -0.5 * self.scale, 0.5 * self.scale
        )
        right = ops.subtract(ops.cast(width, "float32"), 1.0)
        bottom = ops.subtract(ops.cast(height, "float32"), 1.0)
        zero = ops.zeros_like(right)
        corners = ops.stack(
            [
                ops.stack([zero, zero]),
                ops.stack([right, zero]),
                ops.stack([zero, bottom]),
                ops.stack([right, bottom]),
            ]
        )
        corners = ops.multiply(ops.expand_dims(corners, 0), ops.ones_like(moves))
        moved = ops.add(corners, ops.multiply(corners, moves))
        rows = projective_rows(
            ops, moved, corners
        )  # output pixel at a moved corner reads the corner
        identity = ops.convert_to_tensor([[1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]])
        return ops.where(ops.expand_dims(applied, -1), rows, identity)

    def get_config(self):
        return {
            **super().get_config(),
            **self.warp_config(),
            "factor": self.factor,
            "scale": self.scale,
        }
