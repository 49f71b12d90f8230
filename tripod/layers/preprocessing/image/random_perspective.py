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
    """Randomly move the corners of each image and warp the image to match.

    In training, each image (with its segmentation masks and bounding boxes) is warped, with a
    probability drawn per image from `factor`, by the projective map that sends its corners to
    random new places: each corner coordinate `c` moves by `c * m`, `m` drawn from
    [-scale / 2, scale / 2]. The part left uncovered gets `fill_value`. At inference
    (`training=False`) the images pass through, cast to the compute dtype. The layer takes images
    `(batch, height, width, channels)`, one image without the batch axis, or a dict with "images"
    and optionally "labels" (unchanged), "segmentation_masks" (resampled with nearest
    interpolation) and "bounding_boxes" (moved, clipped to the image; a box left empty gets the
    label -1). Images come back as floats.

    Args:
        factor: number in [0, 1], or a pair (lower, upper) within [0, 1]: the range the
            probability of warping is drawn from; a number `f` means [0, f]. Default 1.0.
        scale: number in [0, 1], how far the corners may move (default 1.0).
        interpolation: "bilinear" (default) or "nearest".
        fill_value: number, the value of the points outside the input (default 0.0).
        seed: int, the seed of the layer's random draws (default None: a random one).
        data_format: "channels_last" or "channels_first"; default
            `tripod.config.image_data_format()`.
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...), and `bounding_box_format`
            (e.g. "xyxy"), needed when the input has bounding boxes.

    Raises:
        ValueError: `factor` or `scale` outside [0, 1], an unknown `interpolation`, images not of
            rank 3 or 4, or bounding boxes without a `bounding_box_format`.

    Examples:
        >>> layer = tripod.layers.RandomPerspective(scale=0.5, seed=0)
        >>> images = np.arange(48.0).reshape(1, 4, 4, 3)
        >>> tuple(layer(images, training=True).shape)
        (1, 4, 4, 3)
        >>> bool(np.array_equal(tripod.ops.convert_to_numpy(layer(images, training=False)), images))
        True
    """

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
