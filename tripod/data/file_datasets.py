"""The part every `*_dataset_from_directory` builder shares: index the files, split them,
and build a data set per subset in the chosen format, with Keras's `class_names` and
`file_paths` attributes."""

import dataclasses
from collections.abc import Callable

import numpy as np

from tripod.data import directory_index
from tripod.data.array_dataset import ArrayDataset, stack_samples
from tripod.data.formats import tf_pipelines


@dataclasses.dataclass
class Pipeline:
    """How one builder turns a file into a sample, in each format.

    `read(path)` gives the NumPy sample (format "tripod"); `tf_load(pipelines)` gives the
    tf.data map function from a path tensor (format "tf"); `padded` batches samples of
    different lengths padded with zeros (tf's `padded_batch`).
    """

    kind: str
    extensions: tuple
    read: Callable
    tf_load: Callable
    collate: Callable = stack_samples
    padded: bool = False


class FileSamples:
    """Sample `i`: `read(paths[i])`, paired with `labels[i]` when there are labels."""

    def __init__(self, paths, labels, read):
        self.paths = paths
        self.labels = labels
        self.read = read

    def __call__(self, index):
        sample = self.read(self.paths[index])
        return sample if self.labels is None else (sample, self.labels[index])


@dataclasses.dataclass
class Request:
    """The arguments every directory builder takes (see `image_dataset_from_directory`)."""

    directory: str
    labels: object
    label_mode: str | None
    class_names: list | None
    batch_size: int | None
    shuffle: bool
    seed: int | None
    validation_split: float | None
    subset: str | None
    follow_links: bool
    format: str
    verbose: bool


def _make(pipeline, request, paths, labels, shuffle):
    """One data set over `paths` (labels already encoded) in the requested format."""
    if request.format == "tf":
        tf_data = tf_pipelines()
        return tf_data.files_dataset(
            paths,
            labels,
            pipeline.tf_load(tf_data),
            shuffle,
            request.seed,
            request.batch_size,
            pipeline.padded,
        )
    samples = FileSamples(paths, labels, pipeline.read)
    return ArrayDataset(
        samples, len(paths), request.batch_size, shuffle, request.seed, pipeline.collate
    )


def _checked(request, kind):
    """`request` with its arguments checked, no-label requests made uniform and a seed drawn
    when none was given (the file order and the data set shuffle share it)."""
    labels, label_mode = directory_index.check_label_args(
        request.labels, request.label_mode, request.class_names, kind
    )
    batch_size = request.batch_size
    if batch_size is not None and (not isinstance(batch_size, int) or batch_size < 1):
        raise ValueError(f"`batch_size` must be a positive int or None. Received: {batch_size!r}")
    directory_index.check_validation_split_arg(
        request.validation_split, request.subset, request.shuffle, request.seed
    )
    seed = int(np.random.randint(1e6)) if request.seed is None else request.seed
    return dataclasses.replace(request, labels=labels, label_mode=label_mode, seed=seed)


def build(pipeline, request):
    """The data set, or `[training, validation]` for subset='both', of `request.directory`."""
    request = _checked(request, pipeline.kind)
    paths, labels, class_names = directory_index.index_directory(
        request.directory,
        request.labels,
        pipeline.extensions,
        request.class_names,
        request.shuffle,
        request.seed,
        request.follow_links,
        request.verbose,
    )
    directory_index.check_binary(request.label_mode, class_names)
    if request.label_mode is not None:
        labels = directory_index.encode_labels(labels, request.label_mode, len(class_names))
    both = request.subset == "both"
    datasets = []
    for subset in ["training", "validation"] if both else [request.subset]:
        part_paths, part_labels = directory_index.split_subset(
            paths, labels, request.validation_split, subset, request.verbose
        )
        if not part_paths:
            which = f"{subset} " if subset else ""
            raise ValueError(
                f"No {which}{pipeline.kind} files found in directory {request.directory!r}. "
                f"Allowed formats: {pipeline.extensions}"
            )
        shuffle = request.shuffle and not (both and subset == "validation")
        dataset = _make(pipeline, request, part_paths, part_labels, shuffle)
        dataset.class_names = class_names
        dataset.file_paths = part_paths
        datasets.append(dataset)
    return datasets if both else datasets[0]
