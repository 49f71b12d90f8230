"""Drawing boxes and masks on images and plotting image galleries (Keras's
`keras.visualization`), exposed as `tripod.visualization`.

The `draw_*` functions return NumPy arrays and need nothing beyond NumPy (OpenCV only for box
labels); the `plot_*` functions plot with matplotlib, imported when one is called.
"""

from tripod.data.visualization.annotated import (
    plot_bounding_box_gallery,
    plot_segmentation_mask_gallery,
)
from tripod.data.visualization.boxes import draw_bounding_boxes
from tripod.data.visualization.gallery import plot_image_gallery
from tripod.data.visualization.masks import draw_segmentation_masks

__all__ = [
    "draw_bounding_boxes",
    "draw_segmentation_masks",
    "plot_bounding_box_gallery",
    "plot_image_gallery",
    "plot_segmentation_mask_gallery",
]
