"""`RandomGaussianBlur`: blur images with a Gaussian of random width."""

from tripod.layers.preprocessing import random_draws
from tripod.layers.preprocessing.image.base import BaseImagePreprocessingLayer, check_value_range
from tripod.layers.preprocessing.image.factors import factor_range


class RandomGaussianBlur(BaseImagePreprocessingLayer):
    """Randomly blur images with a Gaussian filter of random width.

    In training, each image is blurred with a probability drawn per image from `factor`, by a
    Gaussian filter of `kernel_size` whose two standard deviations (one per spatial axis) are drawn
    once per batch from `sigma`; the result is clipped to `value_range`. At inference
    (`training=False`) the images pass through, cast to the compute dtype. The layer takes images
    `(batch, height, width, channels)`, one image without the batch axis, or a dict with "images"
    (its labels, bounding boxes and masks pass through). Images come back as floats.

    Args:
        factor: number in [0, 1], or a pair (lower, upper) within [0, 1]: the range the
            probability of blurring is drawn from; a number `f` means [0, f]. Default 1.0.
        kernel_size: odd int > 0, or a pair of them (height, width): the filter's size; default 3.
        sigma: number in [0, 1], or a pair within [0, 1]: the range of the standard deviations;
            a number `f` means [0, f]. Default 1.0.
        value_range: (low, high), the range of the input values; default (0, 255).
        data_format: "channels_last" or "channels_first"; default
            `tripod.config.image_data_format()`.
        seed: int, the seed of the layer's random draws (default None: a random one).
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `factor` or `sigma` outside [0, 1], `kernel_size` not odd and positive,
            `value_range` not two different numbers, or images not of rank 3 or 4.

    Examples:
        >>> layer = tripod.layers.RandomGaussianBlur(kernel_size=3, sigma=(0.5, 1.0), seed=0)
        >>> images = np.arange(192.0).reshape(1, 8, 8, 3)
        >>> tuple(layer(images, training=True).shape)
        (1, 8, 8, 3)
        >>> bool(np.array_equal(tripod.ops.convert_to_numpy(layer(images, training=False)), images))
        True
    """

    def __init__(
        self,
        factor=1.0,
        kernel_size=3,
        sigma=1.0,
        value_range=(0, 255),
        data_format=None,
        seed=None,
        **kwargs,
    ):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.factor = factor_range(self, "factor", factor, 0, 1)
        self.kernel_size = self._kernel_size(kernel_size)
        self.sigma = factor_range(self, "sigma", sigma, 0, 1)
        self.value_range = check_value_range(self, value_range)

    def _kernel_size(self, kernel_size):
        """(height, width) of the kernel from an odd int or a pair of odd ints."""
        sizes = (
            kernel_size if isinstance(kernel_size, (tuple, list)) else (kernel_size, kernel_size)
        )
        valid = len(sizes) == 2 and all(
            isinstance(s, int) and not isinstance(s, bool) and s > 0 and s % 2 for s in sizes
        )
        if not valid:
            raise ValueError(
                f"RandomGaussianBlur '{self.name}': kernel_size must be an odd positive integer or "
                f"a pair of them, received {kernel_size!r}."
            )
        return tuple(sizes)

    def get_random_transformation(self, data, training=True, seed=None):
        ops, batch = self.backend, self.batch_size(data["images"])
        low, high = self.factor
        probability = random_draws.uniform(ops, self.random_key(), (batch,), low, high)
        threshold = random_draws.uniform(ops, self.random_key(), (batch,))
        low, high = self.sigma
        sigma = ops.add(random_draws.uniform(ops, self.random_key(), (2,), low, high), 1e-6)
        return {"should_apply_blur": ops.less(threshold, probability), "blur_factor": sigma}

    def transform_images(self, images, transformation, training=True):
        ops = self.backend
        images = ops.cast(images, self.compute_dtype)
        sigma = transformation["blur_factor"]
        blurred = ops.gaussian_blur(
            images, self.kernel_size, (sigma[0], sigma[1]), self.data_format
        )
        apply = ops.reshape(transformation["should_apply_blur"], (-1, 1, 1, 1))
        return ops.clip(ops.where(apply, blurred, images), *self.value_range)

    def transform_bounding_boxes(self, bounding_boxes, transformation, training=True):
        return bounding_boxes

    def transform_segmentation_masks(self, segmentation_masks, transformation, training=True):
        return segmentation_masks

    def get_config(self):
        return {
            **super().get_config(),
            "factor": self.factor,
            "kernel_size": self.kernel_size,
            "sigma": self.sigma,
            "value_range": self.value_range,
        }
