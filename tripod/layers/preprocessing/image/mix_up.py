"""`MixUp`: blend each image (and its label) with another image of the batch."""

import numbers

from tripod.layers.preprocessing.image import gamma_draws
from tripod.layers.preprocessing.image.base import BaseImagePreprocessingLayer


class MixUp(BaseImagePreprocessingLayer):
    """In training, replace each image by w * image + (1 - w) * partner, the partner drawn by a
    random permutation of the batch and w ~ Beta(alpha, alpha) per image; labels, segmentation
    masks are mixed with the same weights, bounding boxes of both images are kept."""

    def __init__(self, alpha=0.2, data_format=None, seed=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        if not isinstance(alpha, numbers.Real) or isinstance(alpha, bool) or alpha <= 0:
            raise ValueError(
                f"MixUp '{self.name}': alpha must be a positive number, received {alpha!r}."
            )
        self.alpha = alpha

    def get_random_transformation(self, data, training=True, seed=None):
        ops, batch = self.backend, self.batch_size(data["images"])
        return {
            "permutation_order": gamma_draws.permutation(ops, self.random_key(), batch),
            "mix_weight": gamma_draws.beta(ops, self.random_key, (batch,), self.alpha, self.alpha),
        }

    def transform_images(self, images, transformation, training=True):
        return self._mix(self.backend.cast(images, self.compute_dtype), transformation)

    def transform_labels(self, labels, transformation, training=True):
        return self._mix(self.backend.cast(labels, self.compute_dtype), transformation)

    def transform_segmentation_masks(self, segmentation_masks, transformation, training=True):
        return self._mix(self.backend.cast(segmentation_masks, self.compute_dtype), transformation)

    def transform_bounding_boxes(self, bounding_boxes, transformation, training=True):
        """Each image keeps its boxes and gains its partner's (the box axis doubles)."""
        ops, order = self.backend, transformation["permutation_order"]
        return {
            key: ops.concatenate([value, ops.take(value, order, axis=0)], axis=1)
            for key, value in bounding_boxes.items()
        }

    def _mix(self, x, transformation):
        """w * x + (1 - w) * x[permutation], w broadcast over all but the batch axis."""
        ops = self.backend
        weight = ops.cast(transformation["mix_weight"], ops.dtype(x))
        weight = ops.reshape(weight, (-1,) + (1,) * (len(x.shape) - 1))
        partner = ops.take(x, transformation["permutation_order"], axis=0)
        return ops.add(ops.multiply(weight, x), ops.multiply(ops.subtract(1.0, weight), partner))

    def get_config(self):
        return {**super().get_config(), "alpha": self.alpha}
