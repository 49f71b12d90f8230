"""`RandAugment`: a few augmentations drawn from a fixed list, applied at one strength."""

from tripod.layers.preprocessing import random_draws
from tripod.layers.preprocessing.image.augmentation_policy import (
    PHOTOMETRIC,
    STRUCTURAL,
    PolicyLayer,
    apply_choice,
)
from tripod.layers.preprocessing.image.base import check_value_range

#: the operations in Keras's order (the drawn indices refer to it)
OPERATIONS = STRUCTURAL[:3] + PHOTOMETRIC + STRUCTURAL[3:]


class RandAugment(PolicyLayer):
    """RandAugment: a few augmentations drawn at random from a fixed list, all at one strength.

    In training, the layer applies `num_ops` operations in a row, each drawn (once per batch) from
    shear, translation, rotation, brightness, colour degeneration, contrast, sharpness,
    posterization, solarization, auto-contrast and equalization, all at strength `factor`;
    segmentation masks follow the operations. At inference (`training=False`) the images pass
    through, cast to the compute dtype. The layer takes images `(batch, height, width, channels)`,
    one image without the batch axis, or a dict with "images" and optionally "labels" (unchanged)
    and "segmentation_masks".

    Args:
        value_range: (low, high), the range of the input values; default (0, 255).
        num_ops: int >= 0, the number of operations applied (default 2).
        factor: number in [0, 1], or a pair (lower, upper) within [0, 1]: the strength of the
            operations, as their own `factor`; a number `f` means [0, f]. Default 0.5.
        interpolation: "bilinear" (default) or "nearest", for the geometric operations.
        seed: int, the seed of the layer's random draws (default None: a random one).
        data_format: "channels_last" or "channels_first"; default
            `tripod.config.image_data_format()`.
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `num_ops` not a non-negative integer, `factor` outside [0, 1], an unknown
            `interpolation`, `value_range` not two different numbers, or images not of rank 3
            or 4.

    Examples:
        >>> layer = tripod.layers.RandAugment(num_ops=1, seed=0)
        >>> images = np.arange(48.0).reshape(1, 4, 4, 3)
        >>> tuple(layer(images, training=True).shape)
        (1, 4, 4, 3)
        >>> bool(np.array_equal(tripod.ops.convert_to_numpy(layer(images, training=False)), images))
        True
    """

    def __init__(
        self,
        value_range=(0, 255),
        num_ops=2,
        factor=0.5,
        interpolation="bilinear",
        seed=None,
        data_format=None,
        **kwargs,
    ):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.value_range = check_value_range(self, value_range)
        if not isinstance(num_ops, int) or isinstance(num_ops, bool) or num_ops < 0:
            raise ValueError(
                f"RandAugment '{self.name}': num_ops must be a non-negative integer, received "
                f"{num_ops!r}."
            )
        self.num_ops = num_ops
        self._use_operations(OPERATIONS, factor, interpolation, seed)

    def get_random_transformation(self, data, training=True, seed=None):
        choices = random_draws.randint(
            self.backend, self.random_key(), (self.num_ops,), 0, len(OPERATIONS)
        )
        transforms = {
            name: layer.get_random_transformation(data, training=training)
            for name, layer in self.augmentations.items()
        }
        return {"layer_idxes": choices, "transforms": transforms}

    def transform_images(self, images, transformation, training=True):
        images = self.backend.cast(images, self.compute_dtype)
        return self._apply_all("transform_images", images, transformation)

    def transform_segmentation_masks(self, segmentation_masks, transformation, training=True):
        return self._apply_all("transform_segmentation_masks", segmentation_masks, transformation)

    def _apply_all(self, method, x, transformation):
        for i in range(self.num_ops):
            x = apply_choice(
                self.backend,
                transformation["layer_idxes"][i],
                self.augmentations,
                transformation["transforms"],
                method,
                x,
            )
        return x

    def get_config(self):
        return {
            **super().get_config(),
            "value_range": self.value_range,
            "num_ops": self.num_ops,
            "factor": self.factor,
            "interpolation": self.interpolation,
        }
