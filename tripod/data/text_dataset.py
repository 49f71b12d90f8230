"""`text_dataset_from_directory`: a labelled text data set from a folder per class."""

from tripod.data import file_datasets
from tripod.data.formats import resolve_format

TEXT_EXTENSIONS = (".txt",)


class TextReader:
    """path -> the file's UTF-8 text (its first `max_length` characters if given)."""

    def __init__(self, max_length):
        self.max_length = max_length

    def __call__(self, path):
        with open(path, encoding="utf-8") as file:
            return file.read() if self.max_length is None else file.read(self.max_length)


def text_dataset_from_directory(
    directory,
    labels="inferred",
    label_mode="int",
    class_names=None,
    batch_size=32,
    max_length=None,
    shuffle=True,
    seed=None,
    validation_split=None,
    subset=None,
    follow_links=False,
    format="tf",
    verbose=True,
):
    """A data set of texts (and labels) from the `.txt` files of `directory`.

    Labels, `class_names`, `label_mode`, `validation_split`/`subset`/`seed` and
    `batch_size` work as in `image_dataset_from_directory`; each text is a whole file, cut
    to `max_length` if given. `format="tf"` returns a `tf.data.Dataset` of `tf.string`
    (`max_length` counts bytes) when TensorFlow is installed, else, like `format="tripod"`,
    a `tripod.data.ArrayDataset` whose text batches are NumPy object arrays of `str`
    (`max_length` counts characters).
    """
    format = resolve_format(format, "text_dataset_from_directory")
    if max_length is not None and (not isinstance(max_length, int) or max_length < 0):
        raise ValueError(
            f"`max_length` must be a non-negative int or None. Received: {max_length!r}"
        )
    pipeline = file_datasets.Pipeline(
        "text",
        TEXT_EXTENSIONS,
        TextReader(max_length),
        lambda tf_data: tf_data.text_loader(max_length),
    )
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
