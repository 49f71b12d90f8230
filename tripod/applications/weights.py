"""The `weights=` argument of the applications: None, "imagenet" (Keras's published file, fetched
once into `~/.keras/models`) or the path of a weights file, checked as Keras checks it."""

import os
import urllib.parse

from tripod.data.get_file import get_file, keras_home


def validate_arguments(weights, include_top, classes):
    """ValueError (Keras's messages) unless `weights` is None, "imagenet" or an existing path,
    and unless `classes` is 1000 when ImageNet weights come with the top classifier."""
    is_path = isinstance(weights, (str, os.PathLike)) and os.path.exists(weights)
    if not (weights is None or weights == "imagenet" or is_path):
        raise ValueError(
            "The `weights` argument should be either `None` (random initialization), "
            "'imagenet' (pre-training on ImageNet), or the path to the weights file to be "
            f"loaded.  Received: weights={weights}"
        )
    if weights == "imagenet" and include_top and classes != 1000:
        raise ValueError(
            "If using `weights='imagenet'` with `include_top=True`, `classes` should be 1000.  "
            f"Received classes={classes}"
        )


def cached_path(file_name):
    """Where a published weights file is kept once downloaded: `<keras home>/models/<file_name>`
    (`~/.keras` unless `$KERAS_HOME` says otherwise), the place to put it by hand when offline."""
    return os.path.join(keras_home(), "models", file_name)


def fetch(url, file_hash, file_name=None):
    """The local path of the published file at `url` (downloaded once and hash-checked); OSError
    naming the URL and the cache path to place the file at by hand when it cannot be fetched."""
    file_name = file_name or os.path.basename(urllib.parse.urlsplit(url).path)
    try:
        return get_file(file_name, url, cache_subdir="models", file_hash=file_hash)
    except OSError as e:
        raise OSError(
            f"Could not download the pretrained weights from {url} ({e}). Without network "
            f"access, download that file elsewhere and place it at {cached_path(file_name)} "
            f"(its hash must be {file_hash}); it is then used without downloading."
        ) from e


def load_weights(model, weights, url, file_hash, file_name=None):
    """Load `weights` into `model`: nothing for None, Keras's published file at `url` (its hash
    `file_hash`, cached as `file_name`, default the URL's last part) for "imagenet", else the
    file at path `weights`."""
    if weights is None:
        return
    path = fetch(url, file_hash, file_name) if weights == "imagenet" else weights
    model.load_weights(path)
