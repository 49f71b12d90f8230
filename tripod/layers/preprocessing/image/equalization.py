"""`Equalization`: histogram-equalize each channel of each image."""

from tripod.layers.preprocessing.image.color_layer import BYTE_RANGE, ColorLayer

TOP = BYTE_RANGE[1]


class Equalization(ColorLayer):
    """Spread each channel's values of each image evenly over the value range: values (mapped to
    0..255) fall into `bins` histogram bins, and each bin maps to its rescaled cumulative count.
    Channels with a single occupied bin are kept. Applied in training and at inference alike."""

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
