"""The augmentation layers `RandAugment` and `AugMix` choose from, built from one strength, their
shared base, and the switch that applies a drawn choice (only the chosen layer runs)."""

import functools

from tripod.layers.preprocessing.image.auto_contrast import AutoContrast
from tripod.layers.preprocessing.image.base import BaseImagePreprocessingLayer
from tripod.layers.preprocessing.image.equalization import Equalization
from tripod.layers.preprocessing.image.factors import INTERPOLATIONS, check_choice, factor_range
from tripod.layers.preprocessing.image.random_brightness import RandomBrightness
from tripod.layers.preprocessing.image.random_color_degeneration import RandomColorDegeneration
from tripod.layers.preprocessing.image.random_contrast import RandomContrast
from tripod.layers.preprocessing.image.random_posterization import RandomPosterization
from tripod.layers.preprocessing.image.random_rotation import RandomRotation
from tripod.layers.preprocessing.image.random_sharpness import RandomSharpness
from tripod.layers.preprocessing.image.random_shear import RandomShear
from tripod.layers.preprocessing.image.random_translation import RandomTranslation
from tripod.layers.preprocessing.image.solarization import Solarization

#: the operations that move pixels or remap their levels
STRUCTURAL = (
    "random_shear",
    "random_translation",
    "random_rotation",
    "random_posterization",
    "solarization",
    "auto_contrast",
    "equalization",
)
#: the colour operations added to them by default
PHOTOMETRIC = (
    "random_brightness",
    "random_color_degeneration",
    "random_contrast",
    "random_sharpness",
)


def _makers(factor, value_range, interpolation):
    """name -> function(seed, data_format) building that augmentation at strength `factor`."""
    geometric = {"interpolation": interpolation}
    color = {"value_range": value_range}
    return {
        "random_shear": lambda **kw: RandomShear(
            x_factor=factor, y_factor=factor, **geometric, **kw
        ),
        "random_translation": lambda **kw: RandomTranslation(factor, factor, **geometric, **kw),
        "random_rotation": lambda **kw: RandomRotation(factor, **geometric, **kw),
        "random_posterization": lambda **kw: RandomPosterization(
            max(1, int(8 * factor[1])), **color, **kw
        ),
        "solarization": lambda **kw: Solarization(
            addition_factor=factor, threshold_factor=factor, **color, **kw
        ),
        "auto_contrast": lambda seed, **kw: AutoContrast(**color, **kw),
        "equalization": lambda seed, **kw: Equalization(**color, **kw),
        "random_brightness": lambda **kw: RandomBrightness(factor, **color, **kw),
        "random_color_degeneration": lambda **kw: RandomColorDegeneration(factor, **color, **kw),
        "random_contrast": lambda **kw: RandomContrast(factor, **color, **kw),
        "random_sharpness": lambda **kw: RandomSharpness(factor, **color, **kw),
    }


def build_augmentations(names, factor, value_range, interpolation, seed, data_format):
    """{name: layer} for `names`, each seeded from `seed` (offset by its position, so their
    draws differ) and working in `data_format`."""
    makers = _makers(factor, value_range, interpolation)
    return {
        name: makers[name](seed=None if seed is None else seed + i + 1, data_format=data_format)
        for i, name in enumerate(names)
    }


def _apply(layer, method, transformation, x):
    """`layer`'s `method` ("transform_images", ...) on `x`, in `x`'s dtype (branches must agree)."""
    ops = layer.backend
    return ops.cast(getattr(layer, method)(x, transformation, training=True), ops.dtype(x))


def apply_choice(ops, index, layers, transforms, method, x, identity=False):
    """`x` transformed by the `index`-th layer of `layers` (with its drawn transformation in
    `transforms`); with `identity`, index len(layers) leaves `x` unchanged."""
    branches = [
        functools.partial(_apply, layer, method, transforms[name]) for name, layer in layers.items()
    ]
    if identity:
        branches.append(lambda t: t)
    return ops.switch(index, branches, x)


class PolicyLayer(BaseImagePreprocessingLayer):
    """The base of `RandAugment` and `AugMix`: sub-layers for a list of operations, one strength."""

    def _use_operations(self, names, factor, interpolation, seed):
        """Check `factor` and `interpolation`; build the sub-layers for the operations `names`."""
        self.factor = factor_range(self, "factor", factor, 0, 1)
        self.interpolation = check_choice(self, "interpolation", interpolation, INTERPOLATIONS)
        self.augmentations = build_augmentations(
            names, self.factor, self.value_range, interpolation, seed, self.data_format
        )

    def build(self, input_shape):
        for layer in self.augmentations.values():
            layer.build(input_shape)
        self.built = True
