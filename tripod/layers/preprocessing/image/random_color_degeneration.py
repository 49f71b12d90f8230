"""`RandomColorDegeneration`: blend each image towards its greyscale version by a random amount."""

from tripod.layers.preprocessing.image.color_layer import PerImageFactorLayer


class RandomColorDegeneration(PerImageFactorLayer):
    """Randomly blend each RGB image towards its greyscale version.

    In training, each image `x` becomes `x + f * (grey(x) - x)`, `f` drawn per image from `factor`:
    0 keeps the image, 1 makes it fully grey; the result is clipped to `value_range`. At inference
    (`training=False`) the images pass through, cast to the compute dtype. The layer takes images
    `(batch, height, width, 3)`, one image without the batch axis, or a dict with "images" (labels,
    bounding boxes and masks pass through).

    Args:
        factor: number in [0, 1], or a pair (lower, upper) within [0, 1]: the range `f` is drawn
            from; a number `f` means [0, f].
        value_range: (low, high), the range of the input values; default (0, 255).
        data_format: "channels_last" or "channels_first"; default
            `tripod.config.image_data_format()`.
        seed: int, the seed of the layer's random draws (default None: a random one).
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `factor` is outside [0, 1] (or not a number or pair of numbers),
            `value_range` is not two different numbers, or the images are not of rank 3 or 4.

    Examples:
        >>> layer = tripod.layers.RandomColorDegeneration(factor=(1.0, 1.0))
        >>> images = np.array([[[[200.0, 100.0, 50.0]]]])
        >>> y = tripod.ops.convert_to_numpy(layer(images, training=True))
        >>> bool(np.allclose(y[..., 0], y[..., 1]) and np.allclose(y[..., 1], y[..., 2]))
        True
    """

    def transform_images(self, images, transformation, training=True):
        ops = self.backend
        images = self.as_float(images)
        gray = ops.rgb_to_grayscale(images, data_format=self.data_format)
        blended = ops.add(
            images, ops.multiply(transformation["factor"], ops.subtract(gray, images))
        )
        return self.clip_to_range(blended)
