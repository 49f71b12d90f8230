"""`RandomGaussianBlur`: blur images with a Gaussian of random width."""

from tripod.layers.preprocessing import random_draws
from tripod.layers.preprocessing.image.base import BaseImagePreprocessingLayer, check_value_range
from tripod.layers.preprocessing.image.factors import factor_range


class RandomGaussianBlur(BaseImagePreprocessingLayer):
    """In training, blur each image with probability drawn from `factor`, with a Gaussian of
    `kernel_size` whose (vertical, horizontal) sigmas are drawn from `sigma` once per batch;
    outputs are clipped to `value_range`. Labels, boxes and masks pass through."""

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
