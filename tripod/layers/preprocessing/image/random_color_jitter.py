"""`RandomColorJitter`: random brightness, contrast, saturation and hue changes, in that order."""

from tripod.layers.preprocessing.image.color_layer import ColorLayer
from tripod.layers.preprocessing.image.random_brightness import RandomBrightness
from tripod.layers.preprocessing.image.random_contrast import RandomContrast
from tripod.layers.preprocessing.image.random_hue import RandomHue
from tripod.layers.preprocessing.image.random_saturation import RandomSaturation


class RandomColorJitter(ColorLayer):
    """Random brightness, contrast, saturation and hue changes, applied in that order.

    In training, the images go through `RandomBrightness`, `RandomContrast`, `RandomSaturation`
    and `RandomHue` in turn, each with its own factor (see those layers for what a factor means)
    and this layer's `value_range`; a step whose factor is None is skipped. Their random draws all
    come from this layer's seed. At inference (`training=False`) the images pass through, cast to
    the compute dtype. The layer takes images `(batch, height, width, 3)`, one image without the
    batch axis, or a dict with "images" (labels, bounding boxes and masks pass through).

    Args:
        value_range: (low, high), the range of the input values; default (0, 255).
        brightness_factor: the `RandomBrightness` factor, or None (default) to skip that step.
        contrast_factor: the `RandomContrast` factor, or None (default) to skip it.
        saturation_factor: the `RandomSaturation` factor, or None (default) to skip it.
        hue_factor: the `RandomHue` factor, or None (default) to skip it.
        seed: int, the seed of the layer's random draws (default None: a random one).
        data_format: "channels_last" or "channels_first"; default
            `tripod.config.image_data_format()`.
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: a factor the step's layer refuses, `value_range` is not two different numbers,
            or the images are not of rank 3 or 4.

    Examples:
        >>> layer = tripod.layers.RandomColorJitter(brightness_factor=(0.5, 0.5))
        >>> images = np.array([[[[100.0, 100.0, 100.0]]]])
        >>> tripod.ops.convert_to_numpy(layer(images, training=True)).ravel().tolist()
        [227.5, 227.5, 227.5]
        >>> layer = tripod.layers.RandomColorJitter(
        ...     brightness_factor=0.2, contrast_factor=0.2, saturation_factor=0.5, hue_factor=0.1
        ... )
        >>> tuple(layer(np.zeros((2, 8, 8, 3)), training=True).shape)
        (2, 8, 8, 3)
    """

    def __init__(
        self,
        value_range=(0, 255),
        brightness_factor=None,
        contrast_factor=None,
        saturation_factor=None,
        hue_factor=None,
        seed=None,
        data_format=None,
        **kwargs,
    ):
        super().__init__(value_range=value_range, seed=seed, data_format=data_format, **kwargs)
        self.brightness_factor = brightness_factor
        self.contrast_factor = contrast_factor
        self.saturation_factor = saturation_factor
        self.hue_factor = hue_factor
        common = {
            "value_range": value_range,
            "data_format": self.data_format,
            "dtype": self.dtype_policy,
        }
        steps = (
            ("brightness", RandomBrightness, brightness_factor),
            ("contrast", RandomContrast, contrast_factor),
            ("saturation", RandomSaturation, saturation_factor),
            ("hue", RandomHue, hue_factor),
        )
        self.steps = [
            cls(factor, seed=seed, name=f"{self.name}_{step}", **common)
            for step, cls, factor in steps
            if factor is not None
        ]

    def get_random_transformation(self, data, training=True, seed=None):
        keys = self.draw_keys(len(self.steps), seed) if self.steps else []
        return [
            step.get_random_transformation(data, training, key)
            for step, key in zip(self.steps, keys)
        ]

    def transform_images(self, images, transformation, training=True):
        images = self.as_float(images)
        for step, step_transformation in zip(self.steps, transformation):
            images = step.transform_images(images, step_transformation, training)
        return images

    def get_config(self):
        return {
            **super().get_config(),
            "brightness_factor": self.brightness_factor,
            "contrast_factor": self.contrast_factor,
            "saturation_factor": self.saturation_factor,
            "hue_factor": self.hue_factor,
        }
