"""`RandomSharpness`: blend each image with a blurred copy, to soften or sharpen it."""

import numpy as np

from tripod.layers.preprocessing.image.color_layer import PerImageFactorLayer

#: the smoothing filter the blend moves towards or away from (PIL's "smooth" kernel)
SMOOTH = np.array([[1.0, 1.0, 1.0], [1.0, 5.0, 1.0], [1.0, 1.0, 1.0]]) / 13.0


class RandomSharpness(PerImageFactorLayer):
    """Randomly soften or sharpen each image by blending it with a smoothed copy.

    In training, each image `x` becomes `x + (1 - 2f) * (smooth(x) - x)`, `f` drawn per image from
    `factor`: 0 gives the smoothed image, 0.5 the image unchanged, 1 a sharpened one; the result is
    clipped to `value_range`. `smooth` is a 3x3 filter (weight 5 at the center, 1 around it,
    normalized) applied to each channel with zero padding at the border. At inference
    (`training=False`) the images pass through, cast to the compute dtype. The layer takes images
    `(batch, height, width, channels)`, one image without the batch axis, or a dict with "images"
    (labels, bounding boxes and masks pass through).

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
        >>> images = np.arange(48.0).reshape(1, 4, 4, 3)
        >>> layer = tripod.layers.RandomSharpness(factor=(0.5, 0.5))  # f = 0.5: no change
        >>> bool(np.array_equal(tripod.ops.convert_to_numpy(layer(images, training=True)), images))
        True
        >>> layer = tripod.layers.RandomSharpness(factor=0.8)
        >>> tuple(layer(images, training=True).shape)
        (1, 4, 4, 3)
    """

    def transform_images(self, images, transformation, training=True):
        ops = self.backend
        images = self.as_float(images)
        channels = ops.shape(images)[self.image_axes(images)[3]]
        kernel = np.tile(SMOOTH[:, :, None, None], (1, 1, channels, 1))
        kernel = ops.convert_to_tensor(kernel, dtype=self.compute_dtype)
        smooth = ops.depthwise_conv(images, kernel, padding="same", data_format=self.data_format)
        weight = ops.subtract(1.0, ops.multiply(transformation["factor"], 2.0))
        return self.clip_to_range(
            ops.add(images, ops.multiply(weight, ops.subtract(smooth, images)))
        )
