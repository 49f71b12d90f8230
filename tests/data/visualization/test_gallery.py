"""The `plot_*` galleries: their layout, value-range scaling and titles as plain arrays, and what
they ask of matplotlib, through a fake one (`fakes.py`); without matplotlib, a clear error."""

import sys

import numpy as np
import pytest

import tripod
from tests.data.visualization.fakes import pyplot  # noqa: F401 (a fixture)
from tripod.data.visualization import gallery
from tripod.data.visualization.annotated import (
    plot_bounding_box_gallery,
    plot_segmentation_mask_gallery,
)
from tripod.data.visualization.gallery import plot_image_gallery


def test_grid_shape_fits_every_image():
    assert gallery.grid_shape(4) == (2, 2)
    assert gallery.grid_shape(5) == (3, 2)  # Keras's floor division would show 3 of the 5
    assert gallery.grid_shape(1) == (1, 1)
    assert gallery.grid_shape(6, rows=1) == (1, 6)
    assert gallery.grid_shape(6, cols=4) == (2, 4)


def test_displayable_maps_the_value_range_onto_bytes():
    images = np.array([[[[-1.0, 0.0, 1.0]]]], "float32")
    assert gallery.displayable(images, (-1, 1)).tolist() == [[[[0, 127, 255]]]]
    assert gallery.displayable(images * 300, (0, 255)).tolist() == [[[[0, 0, 255]]]]  # clipped
    gray = gallery.displayable(np.zeros((2, 3, 4, 1)), (0, 1))
    assert gray.shape == (2, 3, 4) and gray.dtype == np.uint8


def test_titles_name_labels_and_predictions():
    names = {0: "cat", 1: "dog"}
    assert gallery.title(0, np.array([1]), np.array([0]), names) == "Label: dog  Pred: cat"
    assert gallery.title(0, None, np.array([7]), names) == "Pred: Unknown"
    assert gallery.title(1, np.array([1]), None, names) == ""


def test_plot_image_gallery_lays_out_titles_and_saves(pyplot, tmp_path):  # noqa: F811
    images = np.arange(5 * 2 * 2 * 3).reshape(5, 2, 2, 3).astype("float32") / 59.0
    plot_image_gallery(
        tripod.ops.convert_to_tensor(images),
        y_true=[0, 1, 0, 1, 0],
        label_map={0: "a", 1: "b"},
        value_range=(0, 1),
        path=tmp_path / "g.png",
        scale=3,
    )
    name, rows, cols, kwargs = pyplot.calls[0]
    assert (name, rows, cols, kwargs["figsize"]) == ("subplots", 3, 2, (6, 9))
    axes = pyplot.axes.flat
    assert [a.title for a in axes][:5] == [
        "Label: a",
        "Label: b",
        "Label: a",
        "Label: b",
        "Label: a",
    ]
    np.testing.assert_array_equal(axes[4].image, (images[4] * 255).astype("uint8"))
    assert axes[5].image is None and axes[5].off  # the sixth cell stays blank
    assert [c[0] for c in pyplot.calls[1:]] == ["savefig", "close"]
    assert pyplot.calls[1][1]["fname"] == tmp_path / "g.png" and pyplot.calls[1][1]["dpi"] == 60


def test_plot_image_gallery_shows_by_default_and_checks_arguments(pyplot):  # noqa: F811
    images = np.zeros((2, 3, 2, 2), "uint8")
    plot_image_gallery(images, data_format="channels_first")
    assert pyplot.axes.shape == (2, 1) and pyplot.axes[0, 0].image.shape == (2, 2, 3)
    assert [c[0] for c in pyplot.calls[1:]] == ["show", "close"]
    with pytest.raises(ValueError, match="either `path`"):
        plot_image_gallery(images, path="x.png", show=True)
    with pytest.raises(ValueError, match="label_map"):
        plot_image_gallery(images, y_pred=[0, 1])


def test_box_gallery_draws_true_and_predicted_boxes_on_rescaled_images(pyplot):  # noqa: F811
    images = np.full((1, 8, 8, 3), 0.5, "float32")
    y_true = {"boxes": np.array([[[1, 1, 4, 4]]]), "labels": np.array([[0]])}
    y_pred = {"boxes": np.array([[[2, 2, 6, 6]]]), "labels": np.array([[0]])}
    plot_bounding_box_gallery(
        images,
        "xyxy",
        y_true=y_true,
        y_pred=y_pred,
        value_range=(0, 1),
        legend=True,
        line_thickness=1,
        show=False,
    )
    shown = pyplot.axes[0, 0].image
    assert shown[1, 1].tolist() == [0, 188, 212]  # the true box's corner
    assert shown[6, 6].tolist() == [255, 235, 59]  # the predicted box's corner
    assert shown[0, 0].tolist() == [127, 127, 127]  # 0.5 in [0, 1] -> 127
    labels = [handle[2] for handle in pyplot.figure.legend_handles]
    assert labels == ["Ground Truth", "Prediction"]
    with pytest.raises(ValueError, match="Only pass `legend` OR `legend_handles`"):
        plot_bounding_box_gallery(images, "xyxy", legend=True, legend_handles=["h"])


def test_mask_gallery_puts_each_image_beside_its_masks(pyplot):  # noqa: F811
    images = np.full((2, 2, 2, 3), 100, "uint8")
    masks = np.array([[[0, 1], [1, 0]], [[1, 1], [0, 0]]])
    plot_segmentation_mask_gallery(
        images,
        num_classes=2,
        y_true=masks,
        y_pred=masks[::-1],
        alpha=0.5,
        color_mapping={0: (0, 0, 0), 1: (200, 200, 200)},
        show=False,
    )
    assert pyplot.axes.shape == (2, 3)
    first_row = [axis.image[0, 1].tolist() for axis in pyplot.axes[0]]
    assert first_row == [[100] * 3, [150] * 3, [150] * 3]  # image, y_true (1), y_pred (1)
    assert pyplot.axes[1, 2].image[0, 0].tolist() == [50] * 3  # y_pred of image 2: class 0


def test_without_matplotlib_the_error_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    images = np.zeros((1, 2, 2, 3))
    for plot in (plot_image_gallery, plot_segmentation_mask_gallery):
        with pytest.raises(ImportError, match="pip install matplotlib"):
            plot(images, 2) if plot is plot_segmentation_mask_gallery else plot(images)
    with pytest.raises(ImportError, match=r"tripod\[visualization\]"):
        plot_bounding_box_gallery(images, "xyxy")
