"""`plot_bounding_box_gallery` and `plot_segmentation_mask_gallery`: galleries of images with
their true and predicted boxes or masks drawn on, plotted by `plot_image_gallery`."""

import numpy as np

from tripod.data.visualization import arrays
from tripod.data.visualization.boxes import draw_bounding_boxes
from tripod.data.visualization.gallery import plot_image_gallery
from tripod.data.visualization.masks import draw_segmentation_masks


def _legend(legend, legend_handles, true_color, pred_color):
    """The legend handles: the given ones, or with `legend` a patch per box colour."""
    if not legend:
        return legend_handles
    if legend_handles:
        raise ValueError(
            "Only pass `legend` OR `legend_handles` to "
            "`tripod.visualization.plot_bounding_box_gallery()`."
        )
    patches = arrays.require("matplotlib.patches", "matplotlib", "plot_bounding_box_gallery")
    return [
        patches.Patch(color=np.array(true_color) / 255.0, label="Ground Truth"),
        patches.Patch(color=np.array(pred_color) / 255.0, label="Prediction"),
    ]


def plot_bounding_box_gallery(
    images,
    bounding_box_format,
    y_true=None,
    y_pred=None,
    value_range=(0, 255),
    true_color=(0, 188, 212),
    pred_color=(255, 235, 59),
    line_thickness=2,
    font_scale=1.0,
    text_thickness=None,
    class_mapping=None,
    ground_truth_mapping=None,
    prediction_mapping=None,
    legend=False,
    legend_handles=None,
    rows=None,
    cols=None,
    data_format=None,
    **kwargs,
):
    """Plot a gallery of images with their true and predicted boxes drawn on (matplotlib).

    The images are mapped from `value_range` onto [0, 255] first, then `y_true`'s boxes are drawn
    in `true_color` and `y_pred`'s in `pred_color` with `draw_bounding_boxes` (class labels need
    OpenCV, as there), and the result is plotted by `plot_image_gallery`.

    Args:
        images: a batch of images, (batch, height, width, channels) or channels first.
        bounding_box_format: the boxes' format (see `draw_bounding_boxes`).
        y_true: the true boxes, a dict as `draw_bounding_boxes` takes.
        y_pred: the predicted boxes, a dict of the same kind.
        value_range: the (min, max) of the images' values.
        true_color: the RGB colour of the true boxes.
        pred_color: the RGB colour of the predicted boxes.
        line_thickness: the outline width in pixels.
        font_scale: the size of the labels' font.
        text_thickness: the stroke width of the labels (default: `line_thickness`).
        class_mapping: class id -> name, for both kinds of boxes unless overridden.
        ground_truth_mapping: class id -> name for the true boxes.
        prediction_mapping: class id -> name for the predicted boxes.
        legend: add a legend naming the two colours.
        legend_handles: matplotlib handles for a legend of your own (not with `legend`).
        rows: the gallery's rows (see `plot_image_gallery`).
        cols: the gallery's columns.
        data_format: "channels_last" or "channels_first" (default: the configured one).
        **kwargs: passed on to `plot_image_gallery` (`path`, `show`, `scale`, `dpi`, ...).

    Raises:
        ValueError: `images` is not 4-D, or both `legend` and `legend_handles` are given.
        ImportError: matplotlib is not installed (or OpenCV, when labels are asked for).
    """
    arrays.require("matplotlib.pyplot", "matplotlib", "plot_bounding_box_gallery")
    fmt = arrays.data_format(data_format)
    images = arrays.batched_images(images, "plot_bounding_box_gallery")
    plotted = arrays.rescale(arrays.channels_last(images, fmt), value_range).clip(0, 255)
    plotted = plotted.astype("uint8")
    draw = {
        "bounding_box_format": bounding_box_format,
        "line_thickness": line_thickness,
        "text_thickness": text_thickness,
        "font_scale": font_scale,
        "data_format": "channels_last",
    }
    for boxes, color, mapping in (
        (y_true, true_color, ground_truth_mapping or class_mapping),
        (y_pred, pred_color, prediction_mapping or class_mapping),
    ):
        if boxes is not None:
            plotted = draw_bounding_boxes(
                plotted, boxes, color=color, class_mapping=mapping, **draw
            )
    handles = _legend(legend, legend_handles, true_color, pred_color)
    return plot_image_gallery(
        plotted,
        legend_handles=handles,
        rows=rows,
        cols=cols,
        data_format="channels_last",
        **kwargs,
    )


def _mask_columns(images, masks, draw):
    """Per image, the image then each of `masks` (None skipped) drawn on it, as one batch."""
    drawn = [draw(images, m) for m in masks if m is not None]
    return np.stack([picture for row in zip(images, *drawn) for picture in row], axis=0)


def plot_segmentation_mask_gallery(
    images,
    num_classes,
    value_range=(0, 255),
    y_true=None,
    y_pred=None,
    color_mapping=None,
    blend=True,
    alpha=0.8,
    ignore_index=-1,
    data_format=None,
    **kwargs,
):
    """Plot each image beside its true and predicted segmentation masks (matplotlib).

    One row per image: the image, then `y_true` and `y_pred` (those given) drawn on it by
    `draw_segmentation_masks`, after mapping the images from `value_range` onto [0, 255].

    Args:
        images: a batch of images, (batch, height, width, channels) or channels first.
        num_classes: the number of classes (indices 0..num_classes-1).
        value_range: the (min, max) of the images' values.
        y_true: the true masks, (batch, height, width) or with a channel axis of 1.
        y_pred: the predicted masks, shaped like `y_true`.
        color_mapping: a dict from class index to RGB colour (default: the palette).
        blend: blend the masks with the images (True) or paint them over (False).
        alpha: the masks' opacity when blending.
        ignore_index: the mask value left undrawn.
        data_format: "channels_last" or "channels_first" (default: the configured one).
        **kwargs: passed on to `plot_image_gallery` (`path`, `show`, `scale`, `dpi`, ...).

    Raises:
        ValueError: `images` is not 4-D.
        ImportError: matplotlib is not installed.
    """
    arrays.require("matplotlib.pyplot", "matplotlib", "plot_segmentation_mask_gallery")
    fmt = arrays.data_format(data_format)
    images = arrays.batched_images(images, "plot_segmentation_mask_gallery")
    images = arrays.rescale(arrays.channels_last(images, fmt), value_range)
    masks = [None if m is None else arrays.ops.convert_to_numpy(m) for m in (y_true, y_pred)]
    masks = [None if m is None else np.asarray(m).astype("int32") for m in masks]
    if fmt == "channels_first":
        masks = [m[:, 0] if m is not None and m.ndim == 4 else m for m in masks]

    def draw(pictures, mask):
        """`mask` drawn on `pictures` with this gallery's settings."""
        return draw_segmentation_masks(
            pictures,
            mask,
            num_classes,
            color_mapping,
            alpha,
            blend,
            ignore_index,
            "channels_last",
        )

    gallery = _mask_columns(images, masks, draw)
    cols = 1 + sum(m is not None for m in masks)
    return plot_image_gallery(
        gallery, rows=len(images), cols=cols, data_format="channels_last", **kwargs
    )
