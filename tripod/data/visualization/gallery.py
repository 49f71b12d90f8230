"""`plot_image_gallery`: a grid of images with matplotlib, optionally titled with their labels and
predictions, shown or saved. matplotlib is imported only when a gallery is plotted."""

import math

import numpy as np

from tripod.data.visualization import arrays


def pyplot(feature):
    """matplotlib's `pyplot`, imported now; an ImportError naming `feature` and the install
    command when matplotlib is missing."""
    return arrays.require("matplotlib.pyplot", "matplotlib", feature)


def grid_shape(count, rows=None, cols=None):
    """(rows, cols) of a gallery of `count` images: the given ones, else enough for every image
    (about square: `rows = ceil(sqrt(count))` unless `cols` is given)."""
    rows = rows or (math.ceil(count / cols) if cols else math.ceil(math.sqrt(count)))
    cols = cols or math.ceil(count / rows)
    return rows, cols


def displayable(images, value_range):
    """Images mapped from `value_range` onto [0, 255] and clipped there, as uint8; a single
    channel squeezed away (matplotlib shows (height, width) images in grey)."""
    images = np.clip(arrays.rescale(images, value_range), 0, 255).astype("uint8")
    return images[..., 0] if images.shape[-1] == 1 else images


def title(index, y_true, y_pred, label_map):
    """The title of image `index`: "Label: name" and/or "Pred: name" (names from `label_map`,
    "Unknown" when absent), or "" when neither applies."""
    parts = []
    for prefix, labels in (("Label", y_true), ("Pred", y_pred)):
        if labels is not None and index < len(labels):
            parts.append(f"{prefix}: {label_map.get(labels[index], 'Unknown')}")
    return "  ".join(parts)


def _check(path, show, y_true, y_pred, label_map):
    """Reject a `path` together with `show`, and labels without a `label_map`."""
    if path is not None and show:
        raise ValueError(
            "plot_image_gallery expects either `path` to be set, or `show` to be true."
        )
    if (y_true is not None or y_pred is not None) and label_map is None:
        raise ValueError(
            "If `y_true` or `y_pred` are provided, a `label_map` must also be provided."
        )


def _fill(axes, images, titles):
    """Show one image (and its title) per axis, row by row; the axes past the images stay blank."""
    for index, axis in enumerate(axes.flat):
        axis.axis("off")
        if index >= len(images):
            continue
        gray = {"cmap": "gray"} if images[index].ndim == 2 else {}
        axis.imshow(images[index], **gray)
        axis.margins(x=0, y=0)
        if titles[index]:
            axis.set_title(titles[index], fontsize=8)


def _labels(values):
    """Labels as a NumPy array, or None."""
    return None if values is None else np.asarray(arrays.ops.convert_to_numpy(values))


def plot_image_gallery(
    images,
    y_true=None,
    y_pred=None,
    label_map=None,
    rows=None,
    cols=None,
    value_range=(0, 255),
    scale=2,
    path=None,
    show=None,
    transparent=True,
    dpi=60,
    legend_handles=None,
    data_format=None,
):
    """Plot a grid of images with matplotlib (`pip install matplotlib`), titled with their
    labels and predictions, then show it or save it to `path`.

    The grid has `rows` x `cols` cells (by default about square, with enough cells for every
    image; cells past the images stay blank, and images past the cells are left out). Images
    are mapped from `value_range` onto [0, 255]; single-channel images show in grey.

    Args:
        images: a batch of images, (batch, height, width, channels) or channels first.
        y_true: class indices of the images, shown as "Label: name".
        y_pred: predicted class indices, shown as "Pred: name".
        label_map: a dict from class index to name; needed with `y_true` or `y_pred`.
        rows: the number of rows (default: `ceil(sqrt(batch))`).
        cols: the number of columns (default: enough for the whole batch).
        value_range: the (min, max) of the images' values.
        scale: the size of each cell, in inches.
        path: save the figure there instead of showing it.
        show: show the figure with `plt.show()` (default: when there is no `path`).
        transparent: save with a transparent background.
        dpi: the resolution of the saved figure.
        legend_handles: matplotlib handles (e.g. `Patch`es) for a legend under the grid.
        data_format: "channels_last" or "channels_first" (default: the configured one).

    Raises:
        ValueError: `path` and `show` are both set, labels come without a `label_map`, or
            `images` is not 4-D.
        ImportError: matplotlib is not installed.
    """
    plt = pyplot("plot_image_gallery")
    _check(path, show, y_true, y_pred, label_map)
    show = path is None if show is None else show
    fmt = arrays.data_format(data_format)
    images = arrays.channels_last(arrays.batched_images(images, "plot_image_gallery"), fmt)
    rows, cols = grid_shape(len(images), rows, cols)
    images = displayable(images[: rows * cols], value_range)
    y_true, y_pred = _labels(y_true), _labels(y_pred)
    titles = [title(i, y_true, y_pred, label_map) for i in range(len(images))]
    figure, axes = plt.subplots(
        nrows=rows,
        ncols=cols,
        figsize=(cols * scale, rows * scale),
        frameon=False,
        layout="tight",
        squeeze=False,
        sharex="row",
        sharey="col",
    )
    figure.subplots_adjust(wspace=0, hspace=0)
    if legend_handles is not None:
        figure.legend(handles=legend_handles, loc="lower center")
    _fill(axes, images, titles)
    if path is not None:
        plt.savefig(fname=path, pad_inches=0, bbox_inches="tight", transparent=transparent, dpi=dpi)
        plt.close()
    elif show:
        plt.show()
        plt.close()
