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
    """In training, run `num_chains` chains of `chain_depth` steps; each step applies one
    operation drawn (once per batch) from the list — shear, translation, rotation,
    posterization, solarization, auto-contrast, equalization, and with `all_ops` brightness,
    colour degeneration, contrast and sharpness — or none. The chains are averaged with
    Dirichlet(alpha) weights and blended with the input by a Beta(alpha, alpha) weight, then
    clipped to `value_range`. Segmentation masks go through the same chains and blend."""

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
