"""Reading the pickled parts of downloaded datasets (CIFAR's batches, IMDB's and Reuters' ragged
sequences) without ever running code from the file: the unpickler builds NumPy arrays, dtypes and
plain Python containers, and refuses every other global a pickle names.
"""

import codecs
import io
import pickle
import zipfile

import numpy as np

#: NumPy's array-rebuilding function, whatever module path this NumPy version gives it
_RECONSTRUCT = np.empty(0).__reduce__()[0]
#: the only globals a dataset pickle may name, mapped to what they load as
_ALLOWED = {
    ("numpy", "ndarray"): np.ndarray,
    ("numpy", "dtype"): np.dtype,
    ("numpy.core.multiarray", "_reconstruct"): _RECONSTRUCT,
    ("numpy._core.multiarray", "_reconstruct"): _RECONSTRUCT,
    # protocol-2 pickles written by Python 3 store an array's raw bytes as encode(str, "latin1")
    ("_codecs", "encode"): codecs.encode,
}


class RestrictedUnpickler(pickle.Unpickler):
    """A `pickle.Unpickler` that loads NumPy arrays and builtin containers only; any other global
    (functions, classes, `os.system`...) is refused with `pickle.UnpicklingError`."""

    def find_class(self, module, name):
        """The allowed object for `module.name`; refuse everything else."""
        try:
            return _ALLOWED[(module, name)]
        except KeyError:
            raise pickle.UnpicklingError(
                f"Refusing to load `{module}.{name}` from a dataset file: only NumPy arrays and "
                "builtin containers are allowed. The file may be corrupted or malicious."
            ) from None


def load_pickle(file, encoding="ASCII"):
    """The object pickled in the open binary `file`, read with `RestrictedUnpickler`."""
    return RestrictedUnpickler(file, encoding=encoding).load()


def _read_npy(stream, what):
    """One `.npy` member: numeric arrays with pickling disabled, object arrays through the
    restricted unpickler."""
    version = np.lib.format.read_magic(stream)
    read_header = (
        np.lib.format.read_array_header_1_0
        if version == (1, 0)
        else np.lib.format.read_array_header_2_0
    )
    shape, _, dtype = read_header(stream)
    stream.seek(0)
    if not dtype.hasobject:
        return np.lib.format.read_array(stream, allow_pickle=False)
    np.lib.format.read_magic(stream)
    read_header(stream)
    array = load_pickle(stream)
    if not isinstance(array, np.ndarray) or array.shape != shape:
        raise ValueError(f"{what}: the pickled array does not match its header shape {shape}.")
    return array


def load_npz(path):
    """The arrays of the `.npz` file at `path`, by name, unpickling object arrays safely; the
    replacement for `np.load(path, allow_pickle=True)`."""
    arrays = {}
    with zipfile.ZipFile(path) as archive:
        for name in archive.namelist():
            if name.endswith(".npy"):
                stream = io.BytesIO(archive.read(name))
                arrays[name[: -len(".npy")]] = _read_npy(stream, f"{path}: {name}")
    return arrays
