"""`image_dataset_from_directory`: a labelled image data set from a folder per class."""

from tripod.backends import config
from tripod.data import file_datasets
from tripod.data.formats import resolve_format
from tripod.data.image_utils import COLOR_MODES, ImageReader

IMAGE_EXTENSIONS = (".bmp", ".gif", ".jpeg", ".jpg", ".png")

#: interpolations per format: TensorFlow's resize has two more than tripod's `image.resize`
INTERPOLATIONS = {
    "tf": (
        "bilinear",
        "nearest",
        "bicubic",
        "area",
        "lanczos3",
        "lanczos5",
        "gaussian",
        "mitchellcubic",
    ),
    "tripod": ("bilinear", "nearest", "bicubic", "area", "lanczos3", "lanczos5"),
}


def _image_size(image_size):
    if isinstance(image_size, int):
        image_size = (image_size, image_size)
    if not isinstance(image_size, (list, tuple)) or len(image_size) != 2:
        raise ValueError(
            f"`image_size` must be (height, width). Received: image_size={image_size!r}"
        )
    return tuple(int(s) for s in image_size)


def _check_interpolation(interpolation, format):
    interpolation = interpolation.lower()
    if interpolation not in INTERPOLATIONS[format]:
        raise ValueError(
            f"`interpolation` must be one of {INTERPOLATIONS[format]} for format={format!r}. "
            f"Received: interpolation={interpolation!r}"
        )
    return interpolation


def image_dataset_from_directory(
    directory,
    labels="inferred",
    label_mode="int",
    class_names=None,
    color_mode="rgb",
    batch_size=32,
    image_size=(256, 256),
    shuffle=True,
    seed=None,
    validation_split=None,
    subset=None,
    interpolation="bilinear",
    follow_links=False,
    crop_to_aspect_ratio=False,
    pad_to_aspect_ratio=False,
    data_format=None,
    format="tf",
    verbose=True,
):
    """A data set of float32 images (and labels) from the image files of `directory`.

    With `labels="inferred"` each subdirectory is a class (`class_names` orders them), with a
    list its labels follow the files' alphanumeric order, with None there are none. Batches
    are `images` `(batch, height, width, channels)` (channels first with
    `data_format="channels_first"`; 1, 3 or 4 channels by `color_mode`), or
    `(images, labels)`: labels int32 `(batch,)` (`label_mode="int"`), float32 one-hot
    `(batch, classes)` ("categorical") or float32 `(batch, 1)` ("binary"). Images are resized
    to `image_size` with `interpolation`, keeping their aspect ratio with
    `crop_to_aspect_ratio` (centre crop) or `pad_to_aspect_ratio` (zero pad).
    `validation_split` with `subset` ("training", "validation" or "both" for both) splits the
    shuffled files reproducibly by `seed`, disjointly.

    `format="tf"` returns a `tf.data.Dataset` when TensorFlow is installed (whatever the
    backend), else, like `format="tripod"`, a `tripod.data.ArrayDataset` (images decoded with
    Pillow). Either carries `class_names` and `file_paths`.
    """
    format = resolve_format(format, "image_dataset_from_directory")
    if color_mode not in COLOR_MODES:
        raise ValueError(
            f"`color_mode` must be one of {tuple(COLOR_MODES)}. Received: {color_mode!r}"
        )
    if crop_to_aspect_ratio and pad_to_aspect_ratio:
        raise ValueError(
            "Only one of `crop_to_aspect_ratio` and `pad_to_aspect_ratio` can be True."
        )
    image_size = _image_size(image_size)
    interpolation = _check_interpolation(interpolation, format)
    data_format = config.standardize_data_format(data_format)
    reader = ImageReader(
        image_size,
        color_mode,
        interpolation,
        data_format,
        crop_to_aspect_ratio,
        pad_to_aspect_ratio,
    )

    def tf_load(tf_data):
        return tf_data.image_loader(
            image_size,
            COLOR_MODES[color_mode],
            interpolation,
            data_format,
            crop_to_aspect_ratio,
            pad_to_aspect_ratio,
        )

    pipeline = file_datasets.Pipeline("image", IMAGE_EXTENSIONS, reader, tf_load)
    request = file_datasets.Request(
        directory,
        labels,
        label_mode,
        class_names,
        batch_size,
        shuffle,
        seed,
        validation_split,
        subset,
        follow_links,
        format,
        verbose,
    )
    return file_datasets.build(pipeline, request)
