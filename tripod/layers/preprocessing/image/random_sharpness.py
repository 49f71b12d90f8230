"""`RandomSharpness`: blend each image with a blurred copy, to soften or sharpen it."""

import numpy as np

from tripod.layers.preprocessing.image.color_layer import PerImageFactorLayer

#: the smoothing filter the blend moves towards or away from (PIL's "smooth" kernel)
SMOOTH = np.array([[1.0, 1.0, 1.0], [1.0, 5.0, 1.0], [1.0, 1.0, 1.0]]) / 13.0


class RandomSharpness(PerImageFactorLayer):
    """In training, compute `x + (1 - 2f) * (smooth(x) - x)` per image, `f` drawn from `factor`
    (a number `f` means `[0, f]`): 0 gives the smoothed image, 0.5 the image unchanged, 1 a
    sharpened one; clipped to `value_range`. The 3x3 smoothing pads the border with zeros."""

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
