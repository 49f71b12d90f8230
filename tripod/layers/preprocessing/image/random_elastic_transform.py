"""`RandomElasticTransform`: warp images by a random smooth displacement field."""

from tripod.layers.preprocessing import random_draws
from tripod.layers.preprocessing.image.base import BaseImagePreprocessingLayer, check_value_range
from tripod.layers.preprocessing.image.factors import INTERPOLATIONS, check_choice, factor_range

_FILL_MODES = ("constant", "nearest", "wrap", "mirror", "reflect")
_ORDERS = {"nearest": 0, "bilinear": 1}


class RandomElasticTransform(BaseImagePreprocessingLayer):
    """In training, with a probability drawn from `factor` (a number f means [0, f], a pair
    [lower, upper], within [0, 1]), displace each image's pixels (its masks with them) by Gaussian
    noise smoothed with sigma = 0.05 * min(height, width) * s and scaled by alpha =
    0.1 * max(height, width) * s, s drawn once per batch from `scale` (like `factor`). Outputs are
    floats clipped to `value_range`."""

    def __init__(
        self,
        factor=1.0,
        scale=1.0,
        interpolation="bilinear",
        fill_mode="reflect",
        fill_value=0.0,
        value_range=(0, 255),
        seed=None,
        data_format=None,
        **kwargs,
    ):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.factor = factor_range(self, "factor", factor, 0.0, 1.0)
        self.scale = factor_range(self, "scale", scale, 0.0, 1.0)
        self.interpolation = check_choice(self, "interpolation", interpolation, INTERPOLATIONS)
        self.fill_mode = check_choice(self, "fill_mode", fill_mode, _FILL_MODES)
        self.fill_value = fill_value
        self.value_range = check_value_range(self, value_range)

    def get_random_transformation(self, data, training=True, seed=None):
        if self.factor[1] == 0 or self.scale[1] == 0:
            return None
        ops = self.backend
        images = data["images"] if isinstance(data, dict) else data
        batch, (height, width) = self.batch_size(images), self.image_size(images)
        static = isinstance(height, int) and isinstance(width, int)
        if not static:
            raise ValueError(
                f"RandomElasticTransform '{self.name}': needs images of a known height and width, "
                f"received shape {tuple(images.shape)}."
            )
        chance = random_draws.uniform(ops, self.random_key(), (batch,), *self.factor)
        applied = ops.less(random_draws.uniform(ops, self.random_key(), (batch,)), chance)
        strength = random_draws.uniform(ops, self.random_key(), (), *self.scale)
        sigma = ops.maximum(ops.multiply(strength, 0.05 * min(height, width)), 1e-3)
        alpha = ops.multiply(strength, 0.1 * max(height, width))
        taps = int(6 * 0.05 * min(height, width) * self.scale[1]) | 1
        noise = random_draws.normal(ops, self.random_key(), (batch, height, width, 2))
        smooth = ops.gaussian_blur(
            ops.multiply(noise, sigma), (taps, taps), (sigma, sigma), data_format="channels_last"
        )
        shift_y, shift_x = ops.unstack(ops.multiply(smooth, alpha), 2, axis=-1)
        return {"applied": applied, "rows": shift_y, "cols": shift_x}

    def _warp(self, images, transformation, interpolation):
        """`images` resampled at each pixel plus its displacement, where the transform applies."""
        if transformation is None:
            return images
        ops = self.backend
        channels_first = self.data_format == "channels_first"
        work = ops.transpose(images, (0, 2, 3, 1)) if channels_first else images
        shape = ops.shape(work)
        grid = [ops.cast(ops.arange(size), "float32") for size in shape]
        coordinates = [
            ops.reshape(grid[0], (-1, 1, 1, 1)),
            ops.add(
                ops.reshape(grid[1], (1, -1, 1, 1)), ops.expand_dims(transformation["rows"], -1)
            ),
            ops.add(
                ops.reshape(grid[2], (1, 1, -1, 1)), ops.expand_dims(transformation["cols"], -1)
            ),
            ops.reshape(grid[3], (1, 1, 1, -1)),
        ]
        coordinates = [ops.broadcast_to(c, shape) for c in coordinates]
        warped = ops.map_coordinates(
            work, coordinates, _ORDERS[interpolation], self.fill_mode, self.fill_value
        )
        if channels_first:
            warped = ops.transpose(warped, (0, 3, 1, 2))
        return ops.where(ops.reshape(transformation["applied"], (-1, 1, 1, 1)), warped, images)

    def transform_images(self, images, transformation, training=True):
        ops = self.backend
        images = self._warp(
            ops.cast(images, self.compute_dtype), transformation, self.interpolation
        )
        return ops.clip(images, *self.value_range)

    def transform_segmentation_masks(self, segmentation_masks, transformation, training=True):
        return self._warp(
            self.backend.convert_to_tensor(segmentation_masks), transformation, "nearest"
        )

    def get_config(self):
        return {
            **super().get_config(),
            "factor": self.factor,
            "scale": self.scale,
            "interpolation": self.interpolation,
            "fill_mode": self.fill_mode,
            "fill_value": self.fill_value,
            "value_range": self.value_range,
        }
