"""`RandomTranslation`: shift each image by a random fraction of its height and width."""

from tripod.layers.preprocessing import random_draws
from tripod.layers.preprocessing.image.factors import factor_range
from tripod.layers.preprocessing.image.warp import WarpLayer


class RandomTranslation(WarpLayer):
    """Randomly shift each image by a fraction of its height and width.

    In training, each image (with its segmentation masks and bounding boxes) moves down by a
    fraction of its height drawn from `height_factor` and right by a fraction of its width drawn
    from `width_factor` (negative fractions move it up or left); the part left uncovered is filled
    per `fill_mode`. At inference (`training=False`) the images pass through, cast to the compute
    dtype. The layer takes images `(batch, height, width, channels)`, one image without the batch
    axis, or a dict with "images" and optionally "labels" (unchanged), "segmentation_masks"
    (resampled with nearest interpolation) and "bounding_boxes" (moved, clipped to the image; a
    box left empty gets the label -1). Images come back as floats.

    Args:
        height_factor: number, or a pair (lower, upper), within [-1, 1]: the range of the
            vertical shift as a fraction of the height; a number `f` means [-|f|, |f|].
        width_factor: the same for the horizontal shift, as a fraction of the width.
        fill_mode: how points outside the input are filled: "reflect" (default), "wrap",
            "constant" (with `fill_value`) or "nearest" (the nearest edge pixel).
        interpolation: "bilinear" (default) or "nearest".
        seed: int, the seed of the layer's random draws (default None: a random one).
        fill_value: number, the value of the outside points for `fill_mode="constant"`
            (default 0.0).
        data_format: "channels_last" or "channels_first"; default
            `tripod.config.image_data_format()`.
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...), and `bounding_box_format`
            (e.g. "xyxy"), needed when the input has bounding boxes.

    Raises:
        ValueError: a factor outside [-1, 1] (or not a number or pair of numbers), an unknown
            `fill_mode` or `interpolation`, images not of rank 3 or 4, or bounding boxes without a
            `bounding_box_format`.

    Examples:
        >>> layer = tripod.layers.RandomTranslation(
        ...     height_factor=(0.5, 0.5), width_factor=0.0, fill_mode="constant"
        ... )
        >>> images = np.array([[[[1.0], [2.0]], [[3.0], [4.0]]]])  # down by one row of two
        >>> tripod.ops.convert_to_numpy(layer(images, training=True)).ravel().tolist()
        [0.0, 0.0, 1.0, 2.0]
    """

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
