"""`Equalization`: histogram-equalize each channel of each image."""

from tripod.layers.preprocessing.image.color_layer import BYTE_RANGE, ColorLayer

TOP = BYTE_RANGE[1]


class Equalization(ColorLayer):
    """Histogram-equalize each channel of each image, spreading its values evenly over the range.

    The values, mapped from `value_range` to 0..255, fall into `bins` histogram bins; each bin maps
    to its cumulative count rescaled to 0..255 (the first occupied bin to 0, the last to 255), and
    the result is mapped back to `value_range`. A channel whose values all fall into one bin is
    kept. The layer draws nothing at random and transforms at inference too. It takes images
    `(batch, height, width, channels)`, one image without the batch axis, or a dict with "images"
    (the other entries pass through), and returns floats of the same shape.

    Args:
        value_range: (low, high), the range of the input values and of the output; default
            (0, 255).
        bins: int >= 2, the number of histogram bins (default 256).
        data_format: "channels_last" or "channels_first"; default
            `tripod.config.image_data_format()`.
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `bins` is not an int of at least 2, `value_range` is not two different
            numbers, or the images are not of rank 3 or 4.

    Examples:
        >>> layer = tripod.layers.Equalization()
        >>> image = np.array([[[[0.0], [100.0]], [[100.0], [200.0]]]])
        >>> tripod.ops.convert_to_numpy(layer(image)).ravel().tolist()
        [0.0, 170.0, 170.0, 255.0]
    """

    random = False
    identity_at_inference = False

    def __init__(self, value_range=(0, 255), bins=256, data_format=None, **kwargs):
        super().__init__(value_range=value_range, data_format=data_format, **kwargs)
        if not isinstance(bins, int) or isinstance(bins, bool) or bins < 2:
            raise ValueError(
                f"Equalization '{self.name}': `bins` must be an int of at least 2, "
                f"received bins={bins!r}."
            )
        self.bins = bins

    def transform_images(self, images, transformation, training=True):
        ops = self.backend
        rows, restore = self._channel_rows(self.to_range(images, BYTE_RANGE))
        rows = ops.cast(rows, "float32")  # counts need float32's precision whatever the policy
        scaled = ops.multiply(ops.clip(rows, *BYTE_RANGE), (self.bins - 1) / TOP)
        bins = ops.cast(scaled, "int32")
        cdf = ops.cast(ops.cumsum(ops.bincount(bins, minlength=self.bins), axis=1), "float32")
        total = cdf[:, -1:]
        first = ops.min(ops.where(ops.greater(cdf, 0), cdf, total), axis=1, keepdims=True)
        span = ops.subtract(total, first)
        single_bin = ops.equal(span, 0)
        lookup = ops.divide(
            ops.multiply(ops.subtract(cdf, first), TOP), ops.where(single_bin, 1.0, span)
        )
        lookup = ops.clip(ops.round(lookup), *BYTE_RANGE)
        equalized = ops.where(single_bin, rows, ops.take_along_axis(lookup, bins, axis=1))
        return self.from_range(restore(equalized), BYTE_RANGE)

    def _channel_rows(self, images):
        """`images` as one row per (image, channel), and the function that turns rows back."""
        ops = self.backend
        order = (0, 3, 1, 2) if self.data_format == "channels_last" else (0, 1, 2, 3)
        planes = ops.transpose(images, order)
        shape = ops.shape(planes)
        rows = ops.reshape(planes, (-1, shape[2] * shape[3]))

        def restore(result):
            result = ops.reshape(result, shape)
            return (
                ops.transpose(result, (0, 2, 3, 1))
                if self.data_format == "channels_last"
                else result
            )

        return rows, restore

    def get_config(self):
        return {**super().get_config(), "bins": self.bins}
