"""`CutMix`: paste a random rectangle of another image of the batch into each image."""

from tripod.layers.preprocessing import random_draws
from tripod.layers.preprocessing.image import gamma_draws
from tripod.layers.preprocessing.image.base import BaseImagePreprocessingLayer
from tripod.layers.preprocessing.image.factors import factor_range
from tripod.layers.preprocessing.image.patch_masks import patch_bounds, patch_masks


class CutMix(BaseImagePreprocessingLayer):
    """Paste into each image a rectangle cut from another image of the batch, mixing the labels.

    In training, each image's partner is drawn by a random permutation of the batch. A weight `w`
    is drawn per image from Beta(a, a), `a` drawn once per batch from `factor`; the rectangle's
    sides are `sqrt(1 - w)` of the image's, it is placed uniformly, and the partner's pixels there
    replace the image's (segmentation masks likewise). Labels become `k * label + (1 - k) *
    partner_label`, `k` the share of the image kept. At inference (`training=False`) the images pass
    through, cast to the compute dtype. The layer takes a batch of images `(batch, height, width,
    channels)` (or one image without the batch axis) or a dict with "images" and optionally
    "labels" and "segmentation_masks"; bounding boxes are not supported.

    Args:
        factor: number in [0, 1], or a pair (lower, upper) within [0, 1]: the range of `a`; a
            number `f` means [0, f]. Default 1.0.
        seed: int, the seed of the layer's random draws (default None: a random one).
        data_format: "channels_last" or "channels_first"; default
            `tripod.config.image_data_format()`.
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `factor` outside [0, 1], or images not of rank 3 or 4.

    Examples:
        >>> layer = tripod.layers.CutMix(seed=0)
        >>> data = {"images": np.zeros((2, 8, 8, 3)), "labels": np.eye(2)}
        >>> out = layer(data, training=True)
        >>> tuple(out["images"].shape), tuple(out["labels"].shape)
        ((2, 8, 8, 3), (2, 2))
        >>> np.round(tripod.ops.convert_to_numpy(out["labels"]).sum(axis=-1), 5).tolist()
        [1.0, 1.0]
    """

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
