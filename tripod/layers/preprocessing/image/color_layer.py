"""`ColorLayer`: the base of image layers that change pixel values but never move pixels.

Labels, bounding boxes and segmentation masks pass through unchanged, so these layers work on
dict inputs. Images come back as floats in the compute dtype. Also here: the HSV and value-range
helpers these layers share; `value_range` is checked by `base.check_value_range`, factors are
read by `factors.factor_range`.
"""

import numbers

from tripod.layers.preprocessing import random_draws
from tripod.layers.preprocessing.image.base import (
    BaseImagePreprocessingLayer,
    check_value_range,
    transform_value_range,
)
from tripod.layers.preprocessing.image.factors import factor_range

UNIT_RANGE = (0.0, 1.0)
BYTE_RANGE = (0.0, 255.0)


def is_number(value):
    """True for an int or float (not a bool)."""
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def images_of(data):
    """The images of a layer's input: the dict's "images" entry, or the input itself."""
    return data["images"] if isinstance(data, dict) else data


class ColorLayer(BaseImagePreprocessingLayer):
    """An image layer that changes pixel values only (see the module docstring).

    `value_range` (when the layer takes one) is the (low, high) range of the input images;
    outputs stay inside it.
    """

    def __init__(self, value_range=None, **kwargs):
        super().__init__(**kwargs)
        if value_range is not None:
            self.value_range = check_value_range(self, value_range)

    def transform_bounding_boxes(self, bounding_boxes, transformation, training=True):
        return bounding_boxes

    def transform_segmentation_masks(self, segmentation_masks, transformation, training=True):
        return segmentation_masks

    # -- helpers for subclasses ------------------------------------------------------------------
    def draw_keys(self, count, seed=None):
        """`count` independent random keys: derived from `seed` (a key, as RandomColorJitter
        passes its own) or from this layer's stream."""
        key = self.random_key() if seed is None else seed
        if count == 1:
            return [key]
        words = random_draws.random_bits(self.backend, key, (count, 2))
        return [words[i] for i in range(count)]

    def per_image_shape(self, images):
        """(batch, 1, 1, 1): one drawn value per image, broadcasting in either data format."""
        return (self.batch_size(images), 1, 1, 1)

    def as_float(self, images):
        """`images` cast to the compute dtype (inputs may be integers, e.g. uint8)."""
        return self.backend.cast(images, self.compute_dtype)

    def clip_to_range(self, images):
        """`images` clipped to `value_range`."""
        return self.backend.clip(images, self.value_range[0], self.value_range[1])

    def to_range(self, images, target):
        """`images` mapped linearly from `value_range` to `target`, as compute-dtype floats."""
        return transform_value_range(
            self.backend, images, self.value_range, target, self.compute_dtype
        )

    def from_range(self, images, source):
        """`images` mapped linearly from `source` back to `value_range`."""
        return transform_value_range(
            self.backend, images, source, self.value_range, self.compute_dtype
        )

    def adjust_hsv_channel(self, images, index, adjust):
        """`images` with HSV channel `index` (0 hue, 1 saturation) replaced by `adjust(channel)`,
        the result clipped and returned in `value_range`."""
        ops = self.backend
        channel_axis = self.image_axes(images)[3]
        hsv = ops.rgb_to_hsv(self.to_range(images, UNIT_RANGE), data_format=self.data_format)
        channels = ops.split(hsv, 3, axis=channel_axis)
        channels[index] = adjust(channels[index])
        rgb = ops.hsv_to_rgb(
            ops.concatenate(channels, axis=channel_axis), data_format=self.data_format
        )
        return self.from_range(ops.clip(rgb, 0.0, 1.0), UNIT_RANGE)

    def get_config(self):
        config_ = super().get_config()
        if hasattr(self, "value_range"):
            config_["value_range"] = list(self.value_range)
        return config_


class PerImageFactorLayer(ColorLayer):
    """A color layer that draws one factor per image, uniform in `factor` (a number `f` means
    `[0, f]`, a pair is the range; both within [0, 1])."""

    def __init__(self, factor, value_range=(0, 255), data_format=None, seed=None, **kwargs):
        super().__init__(value_range=value_range, data_format=data_format, seed=seed, **kwargs)
        self.factor = factor_range(self, "factor", factor, 0, 1)

    def get_random_transformation(self, data, training=True, seed=None):
        (key,) = self.draw_keys(1, seed)
        shape = self.per_image_shape(images_of(data))
        draw = random_draws.uniform(self.backend, key, shape, *self.factor)
        return {"factor": self.backend.cast(draw, self.compute_dtype)}

    def get_config(self):
        return {**super().get_config(), "factor": self.factor}
