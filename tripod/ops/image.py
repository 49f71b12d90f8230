"""`tripod.ops.image`: the image ops of the active backend; they are built in tripod/api/ops.py from the ops contract."""

from tripod.api.ops import (
    affine_transform,
    crop_images,
    elastic_transform,
    extract_patches,
    extract_patches_3d,
    gaussian_blur,
    hsv_to_rgb,
    map_coordinates,
    pad_images,
    perspective_transform,
    resize,
    rgb_to_grayscale,
    rgb_to_hsv,
    scale_and_translate,
    sobel_edges,
    ssim,
)

__all__ = [
    "affine_transform",
    "crop_images",
    "elastic_transform",
    "extract_patches",
    "extract_patches_3d",
    "gaussian_blur",
    "hsv_to_rgb",
    "map_coordinates",
    "pad_images",
    "perspective_transform",
    "resize",
    "rgb_to_grayscale",
    "rgb_to_hsv",
    "scale_and_translate",
    "sobel_edges",
    "ssim",
]
