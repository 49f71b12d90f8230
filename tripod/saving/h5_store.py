"""HDF5 weight files in Keras 3's layout: each object's variables in a `<path>/vars` group.

A group `<path>/vars` (attribute `name`: the object's name) holds one dataset per variable,
keyed "0", "1", ... Writing may split the datasets over several files (shards). Reading checks
the whole file first: no external or soft links, no virtual or externally stored datasets, only
plain numeric data, and a bounded number of objects, so a crafted file can point nowhere else.
"""

import h5py
import numpy as np

from tripod.backends import dtypes

VARS = "vars"
#: refuse files with more objects than this (a guard against crafted, endlessly nested files)
MAX_OBJECTS = 1_000_000
MAX_DEPTH = 64
#: dtype attribute marking a bfloat16 variable stored losslessly as float32
_DTYPE_ATTR = "dtype"


class FileFormatError(ValueError):
    """A checkpoint file that is corrupt, unsafe or does not fit the model."""


def vars_path(path):
    """The HDF5 group of an object's variables: `<path>/vars` (`vars` at the top)."""
    return f"{path}/{VARS}" if path else VARS


# -- checking ------------------------------------------------------------------------------------
def check_file(h5, label):
    """Refuse links out of the file, virtual/external datasets and non-numeric data, anywhere."""
    count = [0]
    _check_group(h5, label, count, 0)


def _check_group(group, label, count, depth):
    if depth > MAX_DEPTH:
        raise FileFormatError(f"{label}: groups are nested deeper than {MAX_DEPTH} levels.")
    for name in group:
        count[0] += 1
        if count[0] > MAX_OBJECTS:
            raise FileFormatError(f"{label}: the file holds more than {MAX_OBJECTS} objects.")
        link = group.get(name, getlink=True)
        where = f"{group.name.rstrip('/')}/{name}"
        if isinstance(link, h5py.ExternalLink):
            raise FileFormatError(
                f"{label}: '{where}' is an external link to {link.filename!r}; tripod refuses "
                "HDF5 external links (they read other files)."
            )
        if isinstance(link, h5py.SoftLink):
            raise FileFormatError(
                f"{label}: '{where}' is a soft link; tripod refuses links in weight files."
            )
        obj = group[name]
        if isinstance(obj, h5py.Group):
            _check_group(obj, label, count, depth + 1)
        else:
            _check_dataset(obj, where, label)


def _check_dataset(dataset, where, label):
    if dataset.is_virtual:
        raise FileFormatError(
            f"{label}: '{where}' is a virtual dataset; tripod refuses them (they read other files)."
        )
    if dataset.external:
        raise FileFormatError(
            f"{label}: '{where}' stores its data in external files; tripod refuses that."
        )
    if dataset.dtype.kind not in "biuf":
        raise FileFormatError(
            f"{label}: '{where}' has dtype {dataset.dtype}; weight datasets must be numeric."
        )


# -- writing -------------------------------------------------------------------------------------
class _VarsWriter:
    """The dict-like store one object's `save_own_variables` writes into."""

    def __init__(self, writer, path, name):
        self._writer, self._path, self._name = writer, vars_path(path), name
        self._keys = []
        writer._group(self._path, name)

    def __setitem__(self, key, value):
        key = str(key)
        if "/" in key or not key:
            raise ValueError(f"Variable keys must be non-empty and free of '/', received {key!r}.")
        value = np.asarray(value)
        attrs = {}
        if dtypes.standardize_dtype(value.dtype) == "bfloat16":
            value, attrs = value.astype("float32"), {_DTYPE_ATTR: "bfloat16"}
        self._writer._dataset(self._path, self._name, key, value, attrs)
        self._keys.append(key)

    def __len__(self):
        return len(self._keys)

    def __contains__(self, key):
        return str(key) in self._keys

    def keys(self):
        return list(self._keys)


class H5Writer:
    """Writes `<path>/vars` groups into one HDF5 file, or into shards of at most `max_bytes`.

    `open_shard(index)` returns a new writable `h5py.File` and its file name; it is called for
    shard 0 at once and for each further shard when the current one is full.
    """

    def __init__(self, open_shard, max_bytes=None):
        self._open_shard = open_shard
        self._max_bytes = max_bytes
        self._files, self._names = [], []
        self._used = 0
        self.total_bytes = 0
        #: "/<path>/vars" -> names of the shard files holding its datasets
        self.weight_map = {}
        self._next_shard()

    def _next_shard(self):
        h5, name = self._open_shard(len(self._files))
        self._files.append(h5)
        self._names.append(name)
        self._used = 0

    @property
    def _current(self):
        return self._files[-1]

    def make(self, path, name):
        """The store for the object at `path` (creates its `vars` group with a `name` attribute)."""
        return _VarsWriter(self, path, name)

    def _group(self, group_path, name=None):
        group = self._current.require_group(group_path)
        if name is not None and "name" not in group.attrs:
            group.attrs["name"] = name
        return group

    def _dataset(self, group_path, name, key, value, attrs):
        nbytes = int(value.nbytes)
        if self._max_bytes is not None:
            if nbytes > self._max_bytes:
                raise ValueError(
                    f"Variable '{group_path}/{key}' takes {nbytes} bytes, more than the maximum "
                    f"shard size of {self._max_bytes} bytes; raise max_shard_size."
                )
            if self._used and self._used + nbytes > self._max_bytes:
                self._next_shard()
        group = self._group(group_path, name if len(self._files) == 1 else None)
        if key in group:
            raise ValueError(f"Variable '{group_path}/{key}' was written twice.")
        dataset = group.create_dataset(key, data=value)
        for k, v in attrs.items():
            dataset.attrs[k] = v
        self._used += nbytes
        self.total_bytes += nbytes
        files = self.weight_map.setdefault(f"/{group_path}", [])
        if self._names[-1] not in files:
            files.append(self._names[-1])

    @property
    def shard_names(self):
        return list(self._names)

    def close(self):
        for h5 in self._files:
            h5.close()


# -- reading -------------------------------------------------------------------------------------
class _VarsReader:
    """The read-only mapping one object's `load_own_variables` reads from (values cached)."""

    def __init__(self, datasets, where):
        self._datasets = datasets  # key -> h5py.Dataset
        self._values = {}
        self.where = where

    def __len__(self):
        return len(self._datasets)

    def __contains__(self, key):
        return str(key) in self._datasets

    def __iter__(self):
        return iter(self.keys())

    def keys(self):
        return sorted(
            self._datasets, key=lambda k: (not k.isdigit(), int(k) if k.isdigit() else 0, k)
        )

    def shape(self, key):
        """The stored shape of `key`, without reading its data."""
        return tuple(self._datasets[str(key)].shape)

    def __getitem__(self, key):
        key = str(key)
        if key not in self._datasets:
            raise KeyError(f"{self.where} has no variable {key!r}; it holds {self.keys()}.")
        if key not in self._values:
            dataset = self._datasets[key]
            value = dataset[()]
            if dataset.attrs.get(_DTYPE_ATTR) == "bfloat16":
                value = value.astype(dtypes.to_numpy("bfloat16"))
            self._values[key] = np.asarray(value)
        return self._values[key]


class H5Reader:
    """Reads `<path>/vars` groups from one checked HDF5 file or from several shards."""

    def __init__(self, files, label):
        self._files = list(files)
        self.label = label
        for h5 in self._files:
            check_file(h5, label)
        self._consumed = set()

    def has(self, path):
        return any(vars_path(path) in h5 for h5 in self._files)

    def get(self, path):
        """The variables stored for the object at `path` (empty when the file has none)."""
        group_path = vars_path(path)
        datasets = {}
        for h5 in self._files:
            group = h5.get(group_path)
            if group is None:
                continue
            if not isinstance(group, h5py.Group):
                raise FileFormatError(
                    f"{self.label}: '{group_path}' should be a group of variables."
                )
            for key in group:
                if not isinstance(group[key], h5py.Dataset):
                    raise FileFormatError(
                        f"{self.label}: '{group_path}/{key}' should be a dataset."
                    )
                datasets[key] = group[key]
        self._consumed.add(group_path)
        return _VarsReader(datasets, f"{self.label}: '{group_path}'")

    def unused(self):
        """`vars` groups holding data that no `get` asked for."""
        found = set()
        for h5 in self._files:
            h5.visititems(
                lambda name, obj: (
                    found.add(name)
                    if (isinstance(obj, h5py.Group) and name.split("/")[-1] == VARS and len(obj))
                    else None
                )
            )
        return sorted(found - self._consumed)
