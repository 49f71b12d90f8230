"""`tripod.visualization`: bounding boxes and segmentation masks drawn on images, and image
galleries plotted with matplotlib (Keras's `keras.visualization`); the code lives in
tripod/data/visualization.py."""

from tripod.data.visualization import (
    draw_bounding_boxes,
    draw_segmentation_masks,
    plot_bounding_box_gallery,
    plot_image_gallery,
    plot_segmentation_mask_gallery,
)

__all__ = [
    "draw_bounding_boxes",
    "draw_segmentation_masks",
    "plot_bounding_box_gallery",
    "plot_image_gallery",
    "plot_segmentation_mask_gallery",
]
