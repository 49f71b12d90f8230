"""The asset files of a saved model: each object that has them writes them with
`save_assets(folder)` and reads them back with `load_assets(folder)`, in a folder named by its
object path (Keras 3's layout of a `.keras` archive's `assets/`), such as a tokenizer's
vocabulary."""

import os

from tripod.saving import object_tree, serialization


def _objects_with(model, method):
    """(folder path, bound method) of each object in `model`'s tree that has `method`."""
    for path, obj in object_tree.walk(model):
        bound = getattr(obj, method, None)
        if callable(bound):
            yield path, bound


def _folder(root, path):
    """The folder of the object at `path` ("" for the model itself) under `root`."""
    return os.path.join(root, *path.split("/")) if path else root


def save_assets(model, root):
    """Each object's `save_assets` into its own folder under `root`."""
    for path, save in _objects_with(model, "save_assets"):
        folder = _folder(root, path)
        os.makedirs(folder, exist_ok=True)
        save(folder)


def load_assets(model, root):
    """Each object's `load_assets` from its folder under `root`, where it saved one.

    Safe mode refuses a config that names a file to read (a tokenizer's vocabulary path), since
    the file could lie anywhere; the files read here lie inside the archive, which safe mode
    does not guard against, so they are read outside it, as Keras reads them."""
    if root is None:
        return
    with serialization.SafeModeScope(False):
        for path, load in _objects_with(model, "load_assets"):
            folder = _folder(root, path)
            if os.path.isdir(folder):
                load(folder)
