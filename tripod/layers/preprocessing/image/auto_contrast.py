"""`AutoContrast`: stretch each channel of each image to fill the value range."""

from tripod.layers.preprocessing.image.color_layer import ColorLayer


class AutoContrast(ColorLayer):
    """Stretch each channel of each image linearly so that it fills `value_range`.

    The darkest value of a channel becomes the low end of the range and its brightest the high end
    (the result is clipped to the range); a constant channel is kept as it is. The layer draws
    nothing at random and transforms at inference too. It takes images `(batch, height, width,
    channels)`, one image without the batch axis, or a dict with "images" (its labels, bounding
    boxes and segmentation masks pass through), and returns floats of the same shape.

    Args:
        value_range: (low, high), the range of the input values and of the output; default
            (0, 255).
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...), and `data_format`
            ("channels_last" or "channels_first"; default `tripod.config.image_data_format()`).

    Raises:
        ValueError: `value_range` is not two different numbers, or the images are not of rank 3
            or 4.

    Examples:
        >>> layer = tripod.layers.AutoContrast(value_range=(0, 1))
        >>> image = np.array([[[[0.25], [0.5]], [[0.75], [0.5]]]])
        >>> tripod.ops.convert_to_numpy(layer(image)).ravel().tolist()
        [0.0, 0.5, 1.0, 0.5]
    """

    random = False
    identity_at_inference = False

    def __init__(self, value_range=(0, 255), **kwargs):
        super().__init__(value_range=value_range, **kwargs)

    def transform_images(self, images, transformation, training=True):
        ops = self.backend
        images = self.as_float(images)
        _, h_axis, w_axis, _ = self.image_axes(images)
        darkest = ops.min(images, axis=(h_axis, w_axis), keepdims=True)
        spread = ops.subtract(ops.max(images, axis=(h_axis, w_axis), keepdims=True), darkest)
        flat = ops.equal(spread, 0)
        low, high = self.value_range
        scale = ops.divide(high - low, ops.where(flat, 1.0, spread))
        stretched = ops.add(ops.multiply(ops.subtract(images, darkest), scale), low)
        return ops.where(flat, images, self.clip_to_range(stretched))
