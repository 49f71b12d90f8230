"""`RandomZoom`: zoom each image in or out about its center by a random factor."""

from tripod.layers.preprocessing import random_draws
from tripod.layers.preprocessing.image.factors import factor_range
from tripod.layers.preprocessing.image.warp import WarpLayer


class RandomZoom(WarpLayer):
    """Randomly zoom each image in or out about its center.

    In training, the view of each image (with its segmentation masks and bounding boxes) grows
    vertically by `1 + z`, `z` drawn from `height_factor` (positive `z` zooms out, negative zooms
    in), and horizontally by `1 + z'`, `z'` drawn from `width_factor`, or by the vertical factor
    when `width_factor` is None (keeping the aspect ratio); the part left uncovered when zooming
    out is filled per `fill_mode`. At inference (`training=False`) the images pass through, cast
    to the compute dtype. The layer takes images `(batch, height, width, channels)`, one image
    without the batch axis, or a dict with "images" and optionally "labels" (unchanged),
    "segmentation_masks" (resampled with nearest interpolation) and "bounding_boxes" (moved,
    clipped to the image; a box left empty gets the label -1). Images come back as floats.

    Args:
        height_factor: number, or a pair (lower, upper), within (-1, 1]: the range of `z`; a
            number `f` means [-|f|, |f|]. As in Keras, 1.0 is allowed (z down to -1), but `z`
            is drawn above the lower end, so the scale `1 + z` is always positive.
        width_factor: the same for the horizontal `z'`, or None (default) to use the vertical
            draw.
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
        ValueError: a factor outside (-1, 1] (or not a number or pair of numbers), an unknown
            `fill_mode` or `interpolation`, images not of rank 3 or 4, or bounding boxes without a
            `bounding_box_format`.

    Examples:
        >>> layer = tripod.layers.RandomZoom(height_factor=(-0.5, -0.5), interpolation="nearest")
        >>> images = np.array([[[[1.0], [2.0], [3.0], [4.0]]]])  # zoomed in two times
        >>> tripod.ops.convert_to_numpy(layer(images, training=True)).ravel().tolist()
        [2.0, 2.0, 3.0, 3.0]
    """

    def __init__(
        self,
        height_factor,
        width_factor=None,
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
        self.height_range = factor_range(
            self, "height_factor", height_factor, -1.0, 1.0, open_low=True
        )
        self.width_range = (
            None
            if width_factor is None
            else factor_range(self, "width_factor", width_factor, -1.0, 1.0, open_low=True)
        )

    def _zoom(self, batch, factor_range_):
        """Scales `1 + z`, `z` in (lower, upper]: open below, so a factor of 1.0 (lower -1, as in
        Keras) never gives the degenerate scale 0."""
        lower, upper = factor_range_
        return random_draws.uniform_above(
            self.backend, self.random_key(), (batch, 1), 1.0 + lower, 1.0 + upper
        )

    def sampling_transform(self, batch, height, width):
        ops = self.backend
        zoom_y = self._zoom(batch, self.height_range)
        zoom_x = zoom_y if self.width_range is None else self._zoom(batch, self.width_range)
        center_x = ops.divide(ops.subtract(ops.cast(width, "float32"), 1.0), 2.0)
        center_y = ops.divide(ops.subtract(ops.cast(height, "float32"), 1.0), 2.0)
        offset_x = ops.multiply(center_x, ops.subtract(1.0, zoom_x))
        offset_y = ops.multiply(center_y, ops.subtract(1.0, zoom_y))
        zero = ops.zeros_like(zoom_x)
        return ops.concatenate([zoom_x, zero, offset_x, zero, zoom_y, offset_y, zero, zero], axis=1)

    def get_config(self):
        return {
            **super().get_config(),
            **self.warp_config(),
            "height_factor": self.height_factor,
            "width_factor": self.width_factor,
            "fill_mode": self.fill_mode,
        }
