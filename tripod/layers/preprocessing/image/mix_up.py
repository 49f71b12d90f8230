"""`MixUp`: blend each image (and its label) with another image of the batch."""

import numbers

from tripod.layers.preprocessing.image import gamma_draws
from tripod.layers.preprocessing.image.base import BaseImagePreprocessingLayer


class MixUp(BaseImagePreprocessingLayer):
    """Blend each image, and its label, with another image of the batch.

    In training, each image becomes `w * image + (1 - w) * partner`, the partner drawn by a random
    permutation of the batch and `w` drawn per image from Beta(alpha, alpha); labels and
    segmentation masks are mixed with the same weights, and each image keeps its bounding boxes and
    gains its partner's (the box axis doubles). At inference (`training=False`) the images pass
    through, cast to the compute dtype. The layer takes a batch of images `(batch, height, width,
    channels)` (or one image without the batch axis) or a dict with "images" and optionally
    "labels", "segmentation_masks" and "bounding_boxes".

    Args:
        alpha: number > 0, the parameter of the Beta distribution of `w` (default 0.2: most
            weights near 0 or 1).
        data_format: "channels_last" or "channels_first"; default
            `tripod.config.image_data_format()`.
        seed: int, the seed of the layer's random draws (default None: a random one).
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `alpha` is not a positive number, or images not of rank 3 or 4.

    Examples:
        >>> layer = tripod.layers.MixUp(alpha=0.5, seed=0)
        >>> data = {"images": np.zeros((2, 8, 8, 3)), "labels": np.eye(2)}
        >>> out = layer(data, training=True)
        >>> tuple(out["images"].shape), tuple(out["labels"].shape)
        ((2, 8, 8, 3), (2, 2))
        >>> np.round(tripod.ops.convert_to_numpy(out["labels"]).sum(axis=-1), 5).tolist()
        [1.0, 1.0]
    """

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
