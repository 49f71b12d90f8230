"""`KerasFileEditor`: inspect and edit the weights of a `.keras` or `.weights.h5` file.

The weights are held as `weights_dict`: object path (`"layers/dense"`, `"optimizer"`, `""` for
the model itself) -> {variable key: NumPy array}, in the layout `docs/format.md` describes.
"""

import contextlib
import os

import h5py
import numpy as np

from tripod.saving import archive, atomic, object_tree, weights
from tripod.saving.h5_store import VARS, H5Writer, check_file


def _read_vars(h5):
    """{object path: ({key: array}, name attribute)} of every `vars` group in an HDF5 file."""
    found = {}

    def visit(name, obj):
        if isinstance(obj, h5py.Group) and name.split("/")[-1] == VARS:
            path = name[: -len(VARS)].rstrip("/")
            values = {key: np.asarray(obj[key][()]) for key in obj}
            found[path] = (values, obj.attrs.get("name"))

    h5.visititems(visit)
    return found


def _read_files(folder):
    """{relative path: bytes} of the files under `folder` ({} for None)."""
    found = {}
    for name in archive.files_under(folder) if folder is not None else ():
        with open(os.path.join(folder, *name.split("/")), "rb") as f:
            found[name] = f.read()
    return found


class KerasFileEditor:
    """Open a `.keras` archive (or folder) or a `.weights.h5` file to inspect and edit weights."""

    def __init__(self, filepath):
        self.filepath = str(filepath)
        self.config = self.metadata = None
        self._assets = {}  # the archive's asset files, carried into what `save` writes
        with contextlib.ExitStack() as stack:
            if self.filepath.endswith(weights.WEIGHTS_SUFFIX):
                h5_path = self.filepath
            else:
                self.config, self.metadata, h5_path, assets = stack.enter_context(
                    archive.open_archive(self.filepath)
                )
                self._assets = _read_files(assets)
            h5 = stack.enter_context(weights.open_h5(h5_path))
            check_file(h5, h5_path)
            found = _read_vars(h5)
        self.weights_dict = {path: values for path, (values, _) in found.items()}
        self._names = {path: name for path, (_, name) in found.items() if name is not None}

    def _require(self, path):
        if path not in self.weights_dict:
            raise ValueError(
                f"The file has no object at {path!r}; it has {sorted(self.weights_dict)}."
            )

    def summary(self):
        """Print each object's path, name and variable shapes."""
        for path in sorted(self.weights_dict):
            name = self._names.get(path, "")
            shapes = {k: tuple(v.shape) for k, v in self.weights_dict[path].items()}
            print(f"{path or '/'} ({name}): {shapes}")

    def compare(self, reference_model):
        """Compare the file with a built model: {"status", "error_count", "match_count"}."""
        errors = matches = 0
        seen = set()
        for path, obj in object_tree.walk(reference_model):
            seen.add(path)
            own = weights.expected_variables(obj) or []
            stored = self.weights_dict.get(path, {})
            if len(own) != len(stored):
                print(f"{path or '/'}: the model has {len(own)} variables, the file {len(stored)}.")
                errors += 1
                continue
            for i, variable in enumerate(own):
                value = stored.get(str(i))
                if value is None or tuple(value.shape) != tuple(variable.shape):
                    print(
                        f"{path or '/'}/{i}: the model has shape {tuple(variable.shape)}, the file "
                        f"{None if value is None else tuple(value.shape)}."
                    )
                    errors += 1
                else:
                    matches += 1
        for path in sorted(set(self.weights_dict) - seen):
            if self.weights_dict[path]:
                print(f"{path}: in the file, not in the model.")
                errors += 1
        return {
            "status": "success" if not errors else "error",
            "error_count": errors,
            "match_count": matches,
        }

    def rename_object(self, object_name, new_name):
        """Rename the last part of the path `object_name` (and move what lies under it)."""
        self._require(object_name)
        parent = object_name.rpartition("/")[0]
        target = f"{parent}/{new_name}" if parent else new_name
        moves = {
            p: target + p[len(object_name) :]
            for p in self.weights_dict
            if p == object_name or p.startswith(object_name + "/")
        }
        clash = set(moves.values()) & (set(self.weights_dict) - set(moves))
        if clash:
            raise ValueError(
                f"Cannot rename {object_name!r} to {target!r}: {sorted(clash)} exist already."
            )
        for old, new in moves.items():
            self.weights_dict[new] = self.weights_dict.pop(old)
            if old in self._names:
                self._names[new] = self._names.pop(old)

    def delete_object(self, object_name):
        """Remove the object at `object_name` and everything under it."""
        self._require(object_name)
        for path in [
            p for p in self.weights_dict if p == object_name or p.startswith(object_name + "/")
        ]:
            del self.weights_dict[path]
            self._names.pop(path, None)

    def add_object(self, object_path, weights):
        """Add an object at `object_path` with `weights` ({key: array} or a list, keyed 0, 1, ...)."""
        if object_path in self.weights_dict:
            raise ValueError(f"The file already has an object at {object_path!r}.")
        self.weights_dict[object_path] = {}
        self.add_weights(object_path, weights)

    def delete_weight(self, object_name, weight_name):
        """Remove one variable of an object."""
        self._require(object_name)
        if str(weight_name) not in self.weights_dict[object_name]:
            raise ValueError(f"{object_name!r} has no variable {weight_name!r}.")
        del self.weights_dict[object_name][str(weight_name)]

    def add_weights(self, object_name, weights):
        """Add variables to an object: {key: array}, or a list appended after its last key."""
        self._require(object_name)
        values = self.weights_dict[object_name]
        if isinstance(weights, (list, tuple)):
            weights = {str(len(values) + i): w for i, w in enumerate(weights)}
        for key, value in weights.items():
            if str(key) in values:
                raise ValueError(f"{object_name!r} already has a variable {key!r}.")
            values[str(key)] = np.asarray(value)

    def _write(self, h5_path):
        writer = H5Writer(lambda i: (h5py.File(h5_path, "w"), h5_path))
        try:
            for path in sorted(self.weights_dict):
                store = writer.make(
                    path, str(self._names.get(path, path.rpartition("/")[2] or "model"))
                )
                for key, value in self.weights_dict[path].items():
                    store[key] = value
        finally:
            writer.close()

    def resave_weights(self, filepath):
        """Write the edited weights to a `.weights.h5` file."""
        filepath = str(filepath)
        if not filepath.endswith(weights.WEIGHTS_SUFFIX):
            raise ValueError(
                f"resave_weights: the file name must end in '.weights.h5', received {filepath!r}."
            )
        with atomic.atomic_file(filepath) as tmp:
            self._write(tmp)

    def save(self, filepath):
        """Write the edited file: a `.keras` archive (when a `.keras` file was opened) or weights."""
        filepath = str(filepath)
        if filepath.endswith(weights.WEIGHTS_SUFFIX):
            self.resave_weights(filepath)
            return
        if self.config is None:
            raise ValueError(
                "save: the opened file holds only weights; save to a '.weights.h5' name."
            )
        archive.write_archive(
            filepath, self.config, self.metadata or {}, self._write, self._write_assets
        )

    def _write_assets(self, folder):
        for name, data in self._assets.items():
            target = os.path.join(folder, *name.split("/"))
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "wb") as f:
                f.write(data)
