"""Listing a directory of data files for the dataset builders: the files, their labels, the
class names, the training/validation split and the label encodings (Keras 3 semantics).

With `labels="inferred"` each non-hidden subdirectory is a class (alphanumeric order unless
`class_names` orders them) and every file under it, at any depth, is one of its samples; with
`labels=None` or a list of labels the whole tree is one pool, sorted by path.
"""

import os

import numpy as np

from tripod.training.io_utils import print_msg

LABEL_MODES = ("int", "categorical", "binary", None)
SUBSETS = ("training", "validation", "both", None)


def check_label_args(labels, label_mode, class_names, kind):
    """(labels, label_mode) checked; both None when either asks for no labels."""
    if labels not in ("inferred", None):
        if not isinstance(labels, (list, tuple)):
            raise ValueError(
                f"`labels` must be 'inferred', None or a list/tuple of integer labels, one per "
                f"{kind} file found (in alphanumeric order of their paths). Received: "
                f"labels={labels!r}"
            )
        if class_names:
            raise ValueError(
                "`class_names` can only be passed with labels='inferred'. Received: "
                f"labels={labels!r}, class_names={class_names!r}"
            )
    if label_mode not in LABEL_MODES:
        raise ValueError(
            f"`label_mode` must be one of {LABEL_MODES}. Received: label_mode={label_mode!r}"
        )
    if labels is None or label_mode is None:
        return None, None
    return labels, label_mode


def check_validation_split_arg(validation_split, subset, shuffle, seed):
    """A ValueError for an inconsistent validation_split / subset / seed combination."""
    if validation_split and not 0 < validation_split < 1:
        raise ValueError(
            f"`validation_split` must be between 0 and 1. Received: {validation_split!r}"
        )
    if bool(validation_split) != bool(subset):
        raise ValueError(
            "`subset` and `validation_split` go together: set both or neither. Received: "
            f"validation_split={validation_split!r}, subset={subset!r}"
        )
    if subset not in SUBSETS:
        raise ValueError(
            f"`subset` must be 'training', 'validation' or 'both'. Received: {subset!r}"
        )
    if validation_split and shuffle and seed is None:
        raise ValueError(
            "With `validation_split` and shuffle=True, pass a `seed`: the training and the "
            "validation subsets are drawn from the same shuffle, which must be reproducible "
            "for them not to overlap."
        )


def _class_dirs(directory, class_names):
    """The class subdirectories of `directory`, in class-index order."""
    found = sorted(
        name
        for name in os.listdir(directory)
        if not name.startswith(".") and os.path.isdir(os.path.join(directory, name))
    )
    if class_names is None:
        return found
    if not set(class_names).issubset(found):
        raise ValueError(
            "`class_names` must name subdirectories of the target directory. Expected a "
            f"subset of {found}, received class_names={list(class_names)}"
        )
    return list(class_names)


def walk_files(directory, formats, follow_links=False):
    """Paths under `directory` whose lowercase name ends in one of `formats`, sorted by
    folder then name (the order Keras documents for explicit labels)."""
    walk = sorted(os.walk(directory, followlinks=follow_links), key=lambda entry: entry[0])
    for root, _, files in walk:
        for name in sorted(files):
            if name.lower().endswith(formats):
                yield os.path.join(root, name)


def _explicit_labels(labels, count, directory):
    if len(labels) != count:
        raise ValueError(
            f"`labels` has {len(labels)} entries but {count} files were found in {directory}: "
            "pass one label per file."
        )
    return np.asarray(labels, dtype="int32"), [str(label) for label in sorted(set(labels))]


def index_directory(
    directory,
    labels,
    formats,
    class_names=None,
    shuffle=True,
    seed=None,
    follow_links=False,
    verbose=True,
):
    """(file_paths, labels, class_names) for the files in `directory` with an allowed extension.

    Labels are an int32 array (None with labels=None); with `shuffle` paths and labels are
    permuted together by `seed`, else they are in alphanumeric order.
    """
    if not os.path.isdir(directory):
        raise ValueError(f"Directory not found: {directory!r}")
    if labels == "inferred":
        class_names = _class_dirs(directory, class_names)
        groups = [
            list(walk_files(os.path.join(directory, c), formats, follow_links)) for c in class_names
        ]
        paths = [path for group in groups for path in group]
        label_array = np.repeat(np.arange(len(groups), dtype="int32"), [len(g) for g in groups])
    else:
        paths = list(walk_files(directory, formats, follow_links))
        label_array, class_names = None, None
        if labels is not None:
            label_array, class_names = _explicit_labels(labels, len(paths), directory)
    if verbose:
        classes = "" if label_array is None else f" belonging to {len(class_names)} classes"
        print_msg(f"Found {len(paths)} files{classes}.")
    if shuffle:
        order = np.random.RandomState(seed).permutation(len(paths))
        paths = [paths[i] for i in order]
        label_array = None if label_array is None else label_array[order]
    return paths, label_array, class_names


def split_subset(paths, labels, validation_split, subset, verbose=True):
    """`paths` and `labels` restricted to the training (first) or validation (last
    `validation_split` fraction) part; unchanged without a validation split."""
    if not validation_split:
        return paths, labels
    num_validation = int(validation_split * len(paths))
    num_training = len(paths) - num_validation
    part = slice(0, num_training) if subset == "training" else slice(num_training, None)
    if verbose:
        count = num_training if subset == "training" else num_validation
        print_msg(f"Using {count} files for {subset}.")
    return paths[part], None if labels is None else labels[part]


def encode_labels(labels, label_mode, num_classes):
    """Integer labels encoded as Keras's `label_mode` gives them: int32 (n,), categorical
    float32 (n, num_classes) one-hot (all zeros for a label outside the classes, as
    tf.one_hot), binary float32 (n, 1)."""
    labels = np.asarray(labels, dtype="int32")
    if label_mode == "categorical":
        return (labels[:, None] == np.arange(num_classes)).astype("float32")
    if label_mode == "binary":
        return labels.astype("float32")[:, None]
    return labels


def check_binary(label_mode, class_names):
    """A ValueError when label_mode='binary' has other than two classes."""
    if label_mode == "binary" and len(class_names) != 2:
        raise ValueError(
            f"label_mode='binary' needs exactly 2 classes. Received: class_names={class_names}"
        )
