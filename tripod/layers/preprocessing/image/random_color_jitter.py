"""`RandomColorJitter`: random brightness, contrast, saturation and hue changes, in that order."""

from tripod.layers.preprocessing.image.color_layer import ColorLayer
from tripod.layers.preprocessing.image.random_brightness import RandomBrightness
from tripod.layers.preprocessing.image.random_contrast import RandomContrast
from tripod.layers.preprocessing.image.random_hue import RandomHue
from tripod.layers.preprocessing.image.random_saturation import RandomSaturation


class RandomColorJitter(ColorLayer):
    """In training, apply `RandomBrightness`, `RandomContrast`, `RandomSaturation` and
    `RandomHue` in turn, each with its factor (those left None are skipped) and `value_range`;
    their random draws come from this layer's seed."""

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
