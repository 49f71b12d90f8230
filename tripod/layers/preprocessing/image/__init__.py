"""Image augmentation layers, written once over the backend ops (see `base`)."""

from tripod.layers.preprocessing.image.aug_mix import AugMix
from tripod.layers.preprocessing.image.auto_contrast import AutoContrast
from tripod.layers.preprocessing.image.clahe import ContrastLimitedAdaptiveHistogramEqualization
from tripod.layers.preprocessing.image.cut_mix import CutMix
from tripod.layers.preprocessing.image.equalization import Equalization
from tripod.layers.preprocessing.image.max_num_bounding_boxes import MaxNumBoundingBoxes
from tripod.layers.preprocessing.image.mix_up import MixUp
from tripod.layers.preprocessing.image.rand_augment import RandAugment
from tripod.layers.preprocessing.image.random_brightness import RandomBrightness
from tripod.layers.preprocessing.image.random_color_degeneration import RandomColorDegeneration
from tripod.layers.preprocessing.image.random_color_jitter import RandomColorJitter
from tripod.layers.preprocessing.image.random_contrast import RandomContrast
from tripod.layers.preprocessing.image.random_crop import RandomCrop
from tripod.layers.preprocessing.image.random_elastic_transform import RandomElasticTransform
from tripod.layers.preprocessing.image.random_erasing import RandomErasing
from tripod.layers.preprocessing.image.random_flip import RandomFlip
from tripod.layers.preprocessing.image.random_gaussian_blur import RandomGaussianBlur
from tripod.layers.preprocessing.image.random_grayscale import RandomGrayscale
from tripod.layers.preprocessing.image.random_hue import RandomHue
from tripod.layers.preprocessing.image.random_invert import RandomInvert
from tripod.layers.preprocessing.image.random_perspective import RandomPerspective
from tripod.layers.preprocessing.image.random_posterization import RandomPosterization
from tripod.layers.preprocessing.image.random_rotation import RandomRotation
from tripod.layers.preprocessing.image.random_saturation import RandomSaturation
from tripod.layers.preprocessing.image.random_sharpness import RandomSharpness
from tripod.layers.preprocessing.image.random_shear import RandomShear
from tripod.layers.preprocessing.image.random_translation import RandomTranslation
from tripod.layers.preprocessing.image.random_zoom import RandomZoom
from tripod.layers.preprocessing.image.solarization import Solarization

__all__ = [
    "AugMix",
    "AutoContrast",
    "ContrastLimitedAdaptiveHistogramEqualization",
    "CutMix",
    "Equalization",
    "MaxNumBoundingBoxes",
    "MixUp",
    "RandAugment",
    "RandomBrightness",
    "RandomColorDegeneration",
    "RandomColorJitter",
    "RandomContrast",
    "RandomCrop",
    "RandomElasticTransform",
    "RandomErasing",
    "RandomFlip",
    "RandomGaussianBlur",
    "RandomGrayscale",
    "RandomHue",
    "RandomInvert",
    "RandomPerspective",
    "RandomPosterization",
    "RandomRotation",
    "RandomSaturation",
    "RandomSharpness",
    "RandomShear",
    "RandomTranslation",
    "RandomZoom",
    "Solarization",
]
