"""`BaseImagePreprocessingLayer`: what every image augmentation layer shares.

A layer takes images — a batch `(batch, height, width, channels)` or one image without the batch
axis (channels first with `data_format="channels_first"`) — or a dict holding `"images"` and
optionally `"labels"`, `"bounding_boxes"` (a dict of `"boxes"` and `"labels"`) and
`"segmentation_masks"`. `call` draws one random transformation for the batch
(`get_random_transformation`) and applies it to each part with the matching `transform_*`
method, so boxes and masks move with their images. Subclasses write those methods over
`self.backend` (see `DataLayer`) and draw through `random_draws` with `self.random_key()`.
"""

import numbers

from tripod.backends import config
from tripod.layers.preprocessing.data_layer import DataLayer

#: the dict keys a layer's input may hold besides "images"
PARTS = ("labels", "bounding_boxes", "segmentation_masks")


class BaseImagePreprocessingLayer(DataLayer):
    """The base of image augmentation layers (see the module docstring).

    `random = True` (the default) gives the layer a seed stream; `identity_at_inference = True`
    (the default, Keras's random layers) passes the input through at `training=False`, images
    cast to the compute dtype. A layer that transforms at inference too (AutoContrast, RandomCrop's
    center crop) sets `identity_at_inference = False`.
    `bounding_box_format` names the boxes' format ("xyxy", "rel_xyxy", "xywh", "center_xywh",
    "yxyx", "rel_yxyx", ...) where the layer moves boxes.
    """

    random = True
    identity_at_inference = True

    def __init__(
        self, factor=None, bounding_box_format=None, data_format=None, seed=None, **kwargs
    ):
        super().__init__(seed=seed, **kwargs)
        self.bounding_box_format = bounding_box_format
        self.data_format = config.standardize_data_format(data_format)
        if factor is not None:
            self.factor = factor

    # -- what subclasses write -------------------------------------------------------------------
    def get_random_transformation(self, data, training=True, seed=None):
        """The random parameters for this batch (None where the layer has none)."""

    def transform_images(self, images, transformation, training=True):
        raise NotImplementedError(f"{type(self).__name__} must implement transform_images.")

    def transform_labels(self, labels, transformation, training=True):
        return labels

    def transform_bounding_boxes(self, bounding_boxes, transformation, training=True):
        raise NotImplementedError(
            f"{type(self).__name__} '{self.name}' does not transform bounding boxes."
        )

    def transform_segmentation_masks(self, segmentation_masks, transformation, training=True):
        raise NotImplementedError(
            f"{type(self).__name__} '{self.name}' does not transform segmentation masks."
        )

    # -- the shared call -------------------------------------------------------------------------
    def call(self, data, training=True):
        parts = dict(data) if isinstance(data, dict) else {"images": data}
        if "images" not in parts:
            raise ValueError(
                f"{type(self).__name__} '{self.name}': a dict input needs an 'images' entry, "
                f"received keys {sorted(parts)}."
            )
        if not training and self.identity_at_inference:  # in the compute dtype, as Keras gives it
            parts["images"] = self.backend.cast(parts["images"], self.compute_dtype)
            return parts if isinstance(data, dict) else parts["images"]
        unbatched = self._is_unbatched(parts["images"])
        if unbatched:
            parts = self._map_parts(parts, self._add_batch_axis)
        transformation = self.get_random_transformation(parts, training=training)
        out = {"images": self.transform_images(parts["images"], transformation, training=training)}
        for key in PARTS:
            if key in parts:
                method = getattr(self, f"transform_{key}")
                out[key] = method(parts[key], transformation, training=training)
        for key in parts.keys() - out.keys():
            out[key] = parts[key]
        if unbatched:
            out = self._map_parts(out, self._drop_batch_axis)
        return out if isinstance(data, dict) else out["images"]

    def _is_unbatched(self, images):
        rank = len(images.shape)
        if rank not in (3, 4):
            raise ValueError(
                f"{type(self).__name__} '{self.name}': expected images of rank 3 (one image) or 4 "
                f"(a batch), received shape {tuple(images.shape)}."
            )
        return rank == 3

    def _map_parts(self, parts, fn):
        """`parts` with `fn` applied to images, labels, masks and both box entries."""
        mapped = {}
        for key, value in parts.items():
            if key == "bounding_boxes" and isinstance(value, dict):
                mapped[key] = {k: fn(v) for k, v in value.items()}
            elif key in PARTS or key == "images":
                mapped[key] = fn(value)
            else:
                mapped[key] = value
        return mapped

    def _add_batch_axis(self, x):
        return self.backend.expand_dims(self.backend.convert_to_tensor(x), 0)

    def _drop_batch_axis(self, x):
        return self.backend.squeeze(x, 0)

    # -- helpers for subclasses ------------------------------------------------------------------
    def image_axes(self, images):
        """(batch, height, width, channels) axis indices of a batch of images in this layer's
        format."""
        return (0, 1, 2, 3) if self.data_format == "channels_last" else (0, 2, 3, 1)

    def image_size(self, images):
        """(height, width) of a batch: ints where static, scalar tensors otherwise."""
        _, h_axis, w_axis, _ = self.image_axes(images)
        shape = self.backend.shape(images)
        return shape[h_axis], shape[w_axis]

    def batch_size(self, images):
        return self.backend.shape(images)[0]

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        config_ = super().get_config()
        if self.random:  # Keras's deterministic layers take no seed
            config_["seed"] = self.seed
        if self.data_format is not None:
            config_["data_format"] = self.data_format
        if self.bounding_box_format is not None:
            config_["bounding_box_format"] = self.bounding_box_format
        return config_


def transform_value_range(ops, images, original_range, target_range, dtype="float32"):
    """`images` linearly mapped from `original_range` (lo, hi) to `target_range`."""
    images = ops.cast(images, dtype)
    if tuple(original_range) == tuple(target_range):
        return images
    (lo, hi), (new_lo, new_hi) = original_range, target_range
    scaled = ops.divide(ops.subtract(images, lo), hi - lo)
    return ops.add(ops.multiply(scaled, new_hi - new_lo), new_lo)


def check_value_range(layer, value_range):
    """`value_range` as a sorted (low, high) pair of two different numbers, else a ValueError."""
    message = (
        f"{type(layer).__name__} '{layer.name}': `value_range` must be a list or tuple of "
        f"two different numbers, received value_range={value_range!r}."
    )
    if not isinstance(value_range, (tuple, list)) or len(value_range) != 2:
        raise ValueError(message)
    numbers_ = [v for v in value_range if isinstance(v, numbers.Real) and not isinstance(v, bool)]
    if len(numbers_) != 2 or value_range[0] == value_range[1]:
        raise ValueError(message)
    return tuple(sorted(value_range))
