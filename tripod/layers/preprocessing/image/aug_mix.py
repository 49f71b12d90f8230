"""`AugMix`: a blend of the image with several chains of random augmentations."""

import numbers

from tripod.layers.preprocessing import random_draws
from tripod.layers.preprocessing.image import gamma_draws
from tripod.layers.preprocessing.image.augmentation_policy import (
    PHOTOMETRIC,
    STRUCTURAL,
    PolicyLayer,
    apply_choice,
)
from tripod.layers.preprocessing.image.base import check_value_range


class AugMix(PolicyLayer):
    """Blend each batch of images with chains of random augmentations (AugMix).

    In training, the layer runs `num_chains` chains of `chain_depth` steps. Each step applies one
    operation drawn (once per batch) from shear, translation, rotation, posterization,
    solarization, auto-contrast and equalization (and, with `all_ops`, brightness, colour
    degeneration, contrast and sharpness), all at strength `factor`, or no operation. The chains'
    results are averaged with Dirichlet(alpha) weights and blended with the input by a
    Beta(alpha, alpha) weight, then clipped to `value_range`; segmentation masks go through the same
    chains and blend. At inference (`training=False`) the images pass through, cast to the compute
    dtype. The layer takes images `(batch, height, width, channels)`, one image without the batch
    axis, or a dict with "images" and optionally "labels" (unchanged) and "segmentation_masks".

    Args:
        value_range: (low, high), the range of the input values; default (0, 255).
        num_chains: int > 0, the number of augmentation chains (default 3).
        chain_depth: int > 0, the number of steps in each chain (default 3).
        factor: number in [0, 1], or a pair (lower, upper) within [0, 1]: the strength of the
            operations, as their own `factor`; a number `f` means [0, f]. Default 0.3.
        alpha: number > 0, the parameter of the Dirichlet and Beta draws (default 1.0).
        all_ops: bool, also use the colour operations (default True).
        interpolation: "bilinear" (default) or "nearest", for the geometric operations.
        seed: int, the seed of the layer's random draws (default None: a random one).
        data_format: "channels_last" or "channels_first"; default
            `tripod.config.image_data_format()`.
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `num_chains` or `chain_depth` not a positive integer, `alpha` not a positive
            number, `factor` outside [0, 1], an unknown `interpolation`, `value_range` not two
            different numbers, or images not of rank 3 or 4.

    Examples:
        >>> layer = tripod.layers.AugMix(num_chains=1, chain_depth=1, seed=0)
        >>> images = np.arange(48.0).reshape(1, 4, 4, 3)
        >>> tuple(layer(images, training=True).shape)
        (1, 4, 4, 3)
        >>> bool(np.array_equal(tripod.ops.convert_to_numpy(layer(images, training=False)), images))
        True
    """

    def __init__(
        self,
        value_range=(0, 255),
        num_chains=3,
        chain_depth=3,
        factor=0.3,
        alpha=1.0,
        all_ops=True,
        interpolation="bilinear",
        seed=None,
        data_format=None,
        **kwargs,
    ):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.value_range = check_value_range(self, value_range)
        for name, value in (("num_chains", num_chains), ("chain_depth", chain_depth)):
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(
                    f"AugMix '{self.name}': {name} must be a positive integer, received {value!r}."
                )
        if not isinstance(alpha, numbers.Real) or isinstance(alpha, bool) or alpha <= 0:
            raise ValueError(
                f"AugMix '{self.name}': alpha must be a positive number, received {alpha!r}."
            )
        self.num_chains, self.chain_depth, self.alpha, self.all_ops = (
            num_chains,
            chain_depth,
            alpha,
            all_ops,
        )
        self._use_operations(
            STRUCTURAL + PHOTOMETRIC if all_ops else STRUCTURAL, factor, interpolation, seed
        )

    def get_random_transformation(self, data, training=True, seed=None):
        ops = self.backend
        steps = (self.num_chains, self.chain_depth)
        # index len(augmentations) is "no operation" at that step
        choices = random_draws.randint(
            ops, self.random_key(), steps, 0, len(self.augmentations) + 1
        )
        transforms = [
            [
                {
                    name: layer.get_random_transformation(data, training=training)
                    for name, layer in self.augmentations.items()
                }
                for _ in range(self.chain_depth)
            ]
            for _ in range(self.num_chains)
        ]
        return {
            "chain_mixing_weights": gamma_draws.dirichlet(
                ops, self.random_key, self.num_chains, self.alpha
            ),
            "weight_sample": gamma_draws.beta(ops, self.random_key, (), self.alpha, self.alpha),
            "choices": choices,
            "chain_transforms": transforms,
        }

    def transform_images(self, images, transformation, training=True):
        images = self.backend.cast(images, self.compute_dtype)
        return self.backend.clip(
            self._mix("transform_images", images, transformation), *self.value_range
        )

    def transform_segmentation_masks(self, segmentation_masks, transformation, training=True):
        masks = self.backend.cast(segmentation_masks, self.compute_dtype)
        return self._mix("transform_segmentation_masks", masks, transformation)

    def _mix(self, method, x, transformation):
        """w * x + (1 - w) * (the chains' results averaged with the Dirichlet weights)."""
        ops = self.backend
        weights = ops.cast(transformation["chain_mixing_weights"], self.compute_dtype)
        mixed = ops.zeros_like(x)
        for c in range(self.num_chains):
            chain = x
            for d in range(self.chain_depth):
                chain = apply_choice(
                    ops,
                    transformation["choices"][c, d],
                    self.augmentations,
                    transformation["chain_transforms"][c][d],
                    method,
                    chain,
                    identity=True,
                )
            mixed = ops.add(mixed, ops.multiply(weights[c], chain))
        weight = ops.cast(transformation["weight_sample"], self.compute_dtype)
        return ops.add(ops.multiply(weight, x), ops.multiply(ops.subtract(1.0, weight), mixed))

    def get_config(self):
        return {
            **super().get_config(),
            "value_range": self.value_range,
            "num_chains": self.num_chains,
            "chain_depth": self.chain_depth,
            "factor": self.factor,
            "alpha": self.alpha,
            "all_ops": self.all_ops,
            "interpolation": self.interpolation,
        }
