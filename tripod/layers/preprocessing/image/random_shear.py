"""`RandomShear`: shear each image along x and/or y by random amounts."""

from tripod.layers.preprocessing import random_draws
from tripod.layers.preprocessing.image.factors import factor_range
from tripod.layers.preprocessing.image.warp import WarpLayer


class RandomShear(WarpLayer):
    """Randomly shear each image along x and y.

    In training, each image (with its segmentation masks and bounding boxes) is sheared about its
    top-left corner: the output pixel (x, y) reads the input at (x + sx * y, y + sy * x), `sx`
    drawn per image from `x_factor` and `sy` from `y_factor`, both then multiplied by one random
    sign per image; the part left uncovered is filled per `fill_mode`. At inference
    (`training=False`) the images pass through, cast to the compute dtype. The layer takes images
    `(batch, height, width, channels)`, one image without the batch axis, or a dict with "images"
    and optionally "labels" (unchanged), "segmentation_masks" (resampled with nearest
    interpolation) and "bounding_boxes" (moved, clipped to the image; a box left empty gets the
    label -1). Images come back as floats.

    Args:
        x_factor: number in [0, 1], or a pair (lower, upper) within [0, 1]: the range of `sx`
            before the sign; a number `f` means [-f, f]. Default 0.0 (no shear along x).
        y_factor: the same for `sy`; default 0.0.
        interpolation: "bilinear" (default) or "nearest".
        fill_mode: how points outside the input are filled: "reflect" (default), "wrap",
            "constant" (with `fill_value`) or "nearest" (the nearest edge pixel).
        fill_value: number, the value of the outside points for `fill_mode="constant"`
            (default 0.0).
        data_format: "channels_last" or "channels_first"; default
            `tripod.config.image_data_format()`.
        seed: int, the seed of the layer's random draws (default None: a random one).
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...), and `bounding_box_format`
            (e.g. "xyxy"), needed when the input has bounding boxes.

    Raises:
        ValueError: a factor outside [0, 1] (or not a number or pair of numbers), an unknown
            `fill_mode` or `interpolation`, images not of rank 3 or 4, or bounding boxes without a
            `bounding_box_format`.

    Examples:
        >>> layer = tripod.layers.RandomShear(x_factor=0.3, y_factor=0.3)
        >>> images = np.arange(48.0).reshape(1, 4, 4, 3)
        >>> tuple(layer(images, training=True).shape)
        (1, 4, 4, 3)
        >>> bool(np.array_equal(tripod.ops.convert_to_numpy(layer(images, training=False)), images))
        True
    """

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
