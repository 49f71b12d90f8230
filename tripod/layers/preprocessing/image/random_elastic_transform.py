"""`RandomElasticTransform`: warp images by a random smooth displacement field."""

from tripod.layers.preprocessing import random_draws
from tripod.layers.preprocessing.image.base import BaseImagePreprocessingLayer, check_value_range
from tripod.layers.preprocessing.image.factors import INTERPOLATIONS, check_choice, factor_range

_FILL_MODES = ("constant", "nearest", "wrap", "mirror", "reflect")
_ORDERS = {"nearest": 0, "bilinear": 1}


class RandomElasticTransform(BaseImagePreprocessingLayer):
    """Randomly warp images by a smooth random displacement field.

    In training, each image (with its segmentation masks) is displaced, with a probability drawn
    per image from `factor`: every pixel reads the input at its own place plus a displacement of
    Gaussian noise smoothed by a Gaussian of sigma `0.05 * min(height, width) * s` and scaled by
    `0.1 * max(height, width) * s`, `s` drawn once per batch from `scale`. Points outside the input
    are filled per `fill_mode`, and the images are clipped to `value_range`. At inference
    (`training=False`) the images pass through, cast to the compute dtype. The layer takes images
    `(batch, height, width, channels)` of a known size, one image without the batch axis, or a
    dict with "images" and optionally "labels" and "segmentation_masks". Images come back as floats.

    Args:
        factor: number in [0, 1], or a pair (lower, upper) within [0, 1]: the range the
            probability of warping is drawn from; a number `f` means [0, f]. Default 1.0.
        scale: number or pair in [0, 1], the range of the strength `s`, read like `factor`.
            Default 1.0.
        interpolation: "bilinear" (default) or "nearest".
        fill_mode: how points outside the input are filled: "reflect" (default), "constant"
            (with `fill_value`), "nearest", "wrap" or "mirror".
        fill_value: number, the value of the outside points for `fill_mode="constant"`
            (default 0.0).
        value_range: (low, high), the range of the input values; default (0, 255).
        seed: int, the seed of the layer's random draws (default None: a random one).
        data_format: "channels_last" or "channels_first"; default
            `tripod.config.image_data_format()`.
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `factor` or `scale` outside [0, 1], an unknown `interpolation` or
            `fill_mode`, `value_range` not two different numbers, images not of rank 3 or 4, or
            images of unknown height or width.

    Examples:
        >>> layer = tripod.layers.RandomElasticTransform(scale=0.5, seed=0)
        >>> images = np.arange(192.0).reshape(1, 8, 8, 3)
        >>> tuple(layer(images, training=True).shape)
        (1, 8, 8, 3)
        >>> bool(np.array_equal(tripod.ops.convert_to_numpy(layer(images, training=False)), images))
        True
    """

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
