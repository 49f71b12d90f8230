"""`RandomErasing`: overwrite a random rectangle of each image with a constant or noise."""

import numbers

from tripod.layers.preprocessing import random_draws
from tripod.layers.preprocessing.image.base import BaseImagePreprocessingLayer, check_value_range
from tripod.layers.preprocessing.image.factors import factor_range
from tripod.layers.preprocessing.image.patch_masks import patch_bounds, patch_masks


class RandomErasing(BaseImagePreprocessingLayer):
    """Randomly overwrite a rectangle of each image with a constant or with noise.

    In training, a rectangle of each image is erased with a probability drawn per image from
    `factor`. Its width and height are `sqrt(s)` of the image's, `s` drawn for each side from
    `scale`, and it is placed uniformly inside the image. It gets `fill_value` or, when that is
    None, Gaussian noise of standard deviation `value_range[1]`, clipped to `value_range`. At
    inference (`training=False`) the images pass through, cast to the compute dtype. The layer
    takes images `(batch, height, width, channels)`, one image without the batch axis, or a dict
    with "images" (its labels, bounding boxes and masks pass through). Images come back as floats.

    Args:
        factor: number in [0, 1], or a pair (lower, upper) within [0, 1]: the range the
            probability of erasing is drawn from; a number `f` means [0, f]. Default 1.0.
        scale: number or pair in [0, 1], the range of `s`, read like `factor`; default
            (0.02, 0.33).
        fill_value: None (default: noise), a number, or a list of one number per channel (three).
        value_range: (low, high), the range of the input values; default (0, 255).
        seed: int, the seed of the layer's random draws (default None: a random one).
        data_format: "channels_last" or "channels_first"; default
            `tripod.config.image_data_format()`.
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `factor` or `scale` outside [0, 1], a `fill_value` that is not None, a number
            or three numbers, `value_range` not two different numbers, or images not of rank 3
            or 4.

    Examples:
        >>> layer = tripod.layers.RandomErasing(factor=(1.0, 1.0), scale=(1.0, 1.0), fill_value=0)
        >>> images = np.ones((1, 2, 2, 1))  # the rectangle covers the whole image
        >>> tripod.ops.convert_to_numpy(layer(images, training=True)).ravel().tolist()
        [0.0, 0.0, 0.0, 0.0]
        >>> tuple(tripod.layers.RandomErasing(seed=0)(np.ones((2, 8, 8, 3)), training=True).shape)
        (2, 8, 8, 3)
    """

    def __init__(
        self,
        factor=1.0,
        scale=(0.02, 0.33),
        fill_value=None,
        value_range=(0, 255),
        seed=None,
        data_format=None,
        **kwargs,
    ):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.factor = factor_range(self, "factor", factor, 0, 1)
        self.scale = factor_range(self, "scale", scale, 0, 1)
        self._check_fill_value(fill_value)
        self.fill_value = fill_value
        self.value_range = check_value_range(self, value_range)

    def _check_fill_value(self, fill_value):
        values = fill_value if isinstance(fill_value, (tuple, list)) else [fill_value]
        valid = fill_value is None or (
            len(values) in (1, 3) and all(isinstance(v, numbers.Real) for v in values)
        )
        if not valid:
            raise ValueError(
                f"RandomErasing '{self.name}': fill_value must be None, a number or a list of "
                f"three numbers (one per channel), received {fill_value!r}."
            )

    def get_random_transformation(self, data, training=True, seed=None):
        ops, images = self.backend, data["images"]
        batch, size = self.batch_size(images), self.image_size(images)
        low, high = self.scale
        ratios = ops.sqrt(random_draws.uniform(ops, self.random_key(), (batch, 2), low, high))
        x_bounds = patch_bounds(ops, self.random_key(), batch, size[1], ratios[:, 0])
        y_bounds = patch_bounds(ops, self.random_key(), batch, size[0], ratios[:, 1])
        low, high = self.factor
        probability = random_draws.uniform(ops, self.random_key(), (batch,), low, high)
        threshold = random_draws.uniform(ops, self.random_key(), (batch,))
        masks = patch_masks(ops, size, x_bounds, y_bounds, self.data_format)
        apply = ops.reshape(ops.less(threshold, probability), (-1, 1, 1, 1))
        return {"batch_masks": ops.logical_and(masks, apply), "fill_value": self._fill(images)}

    def _fill(self, images):
        """What erased pixels become: the fill value (broadcast per channel) or noise."""
        ops = self.backend
        if self.fill_value is None:
            fill = ops.multiply(self._noise(images), self.value_range[1])
        elif isinstance(self.fill_value, (tuple, list)):
            shape = (1, 1, 1, -1) if self.data_format == "channels_last" else (1, -1, 1, 1)
            fill = ops.reshape(ops.convert_to_tensor(self.fill_value, dtype="float32"), shape)
        else:
            fill = ops.convert_to_tensor(self.fill_value, dtype="float32")
        return ops.clip(ops.cast(fill, self.compute_dtype), *self.value_range)

    def _noise(self, images):
        """Standard normal noise drawn in channels-last order (so both layouts get the same)."""
        ops = self.backend
        shape = ops.shape(images)
        noise = random_draws.normal(
            ops, self.random_key(), [shape[a] for a in self.image_axes(images)]
        )
        return noise if self.data_format == "channels_last" else ops.transpose(noise, (0, 3, 1, 2))

    def transform_images(self, images, transformation, training=True):
        images = self.backend.cast(images, self.compute_dtype)
        return self.backend.where(
            transformation["batch_masks"], transformation["fill_value"], images
        )

    def transform_bounding_boxes(self, bounding_boxes, transformation, training=True):
        return bounding_boxes

    def transform_segmentation_masks(self, segmentation_masks, transformation, training=True):
        return segmentation_masks

    def get_config(self):
        return {
            **super().get_config(),
            "factor": self.factor,
            "scale": self.scale,
            "fill_value": self.fill_value,
            "value_range": self.value_range,
        }
