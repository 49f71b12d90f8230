"""`CutMix`: paste a random rectangle of another image of the batch into each image."""

from tripod.layers.preprocessing import random_draws
from tripod.layers.preprocessing.image import gamma_draws
from tripod.layers.preprocessing.image.base import BaseImagePreprocessingLayer
from tripod.layers.preprocessing.image.factors import factor_range
from tripod.layers.preprocessing.image.patch_masks import patch_bounds, patch_masks


class CutMix(BaseImagePreprocessingLayer):
    """In training, paste into each image a rectangle cut from a partner image (a random
    permutation of the batch); labels are mixed by the area kept, masks are pasted like images.

    A Beta(a, a) weight w per image, with a drawn from `factor` (a number f: [0, f]), sets the
    patch sides to sqrt(1 - w) of the image's."""

    def __init__(self, factor=1.0, seed=None, data_format=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.factor = factor_range(self, "factor", factor, 0, 1)

    def get_random_transformation(self, data, training=True, seed=None):
        ops, images = self.backend, data["images"]
        batch, (height, width) = self.batch_size(images), self.image_size(images)
        low, high = self.factor
        alpha = ops.add(random_draws.uniform(ops, self.random_key(), (), low, high), 1e-6)
        ratio = ops.sqrt(
            ops.subtract(1.0, gamma_draws.beta(ops, self.random_key, (batch,), alpha, alpha))
        )
        x0, x1 = patch_bounds(ops, self.random_key(), batch, width, ratio)
        y0, y1 = patch_bounds(ops, self.random_key(), batch, height, ratio)
        patch = ops.multiply(ops.subtract(x1, x0), ops.subtract(y1, y0))
        area = ops.cast(ops.multiply(height, width), "float32")
        return {
            "permutation_order": gamma_draws.permutation(ops, self.random_key(), batch),
            "batch_masks": patch_masks(ops, (height, width), (x0, x1), (y0, y1), self.data_format),
            "mix_weight": ops.subtract(1.0, ops.divide(patch, area)),
        }

    def transform_images(self, images, transformation, training=True):
        return self._paste(self.backend.cast(images, self.compute_dtype), transformation)

    def transform_labels(self, labels, transformation, training=True):
        ops = self.backend
        labels = ops.cast(labels, self.compute_dtype)
        weight = ops.reshape(
            ops.cast(transformation["mix_weight"], self.compute_dtype),
            (-1,) + (1,) * (len(labels.shape) - 1),
        )
        partner = ops.take(labels, transformation["permutation_order"], axis=0)
        return ops.add(
            ops.multiply(weight, labels), ops.multiply(ops.subtract(1.0, weight), partner)
        )

    def transform_segmentation_masks(self, segmentation_masks, transformation, training=True):
        """Masks are pasted exactly, keeping their (class index) dtype."""
        return self._paste(self.backend.convert_to_tensor(segmentation_masks), transformation)

    def _paste(self, x, transformation):
        ops = self.backend
        partner = ops.take(x, transformation["permutation_order"], axis=0)
        return ops.where(transformation["batch_masks"], partner, x)

    def get_config(self):
        return {**super().get_config(), "factor": self.factor}
