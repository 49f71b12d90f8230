"""`RandomColorDegeneration`: blend each image towards its greyscale version by a random amount."""

from tripod.layers.preprocessing.image.color_layer import PerImageFactorLayer


class RandomColorDegeneration(PerImageFactorLayer):
    """In training, compute `x + f * (gray(x) - x)` per RGB image, `f` drawn from `factor` (a
    number `f` means `[0, f]`): 0 keeps the image, 1 makes it grey; clipped to `value_range`."""

    def transform_images(self, images, transformation, training=True):
        ops = self.backend
        images = self.as_float(images)
        gray = ops.rgb_to_grayscale(images, data_format=self.data_format)
        blended = ops.add(
            images, ops.multiply(transformation["factor"], ops.subtract(gray, images))
        )
        return self.clip_to_range(blended)
