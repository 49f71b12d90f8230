"""`AutoContrast`: stretch each channel of each image to fill the value range."""

from tripod.layers.preprocessing.image.color_layer import ColorLayer


class AutoContrast(ColorLayer):
    """Map each channel of each image linearly so that its darkest value becomes the low end of
    `value_range` and its brightest the high end; constant channels are kept. Applied in
    training and at inference alike."""

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
