"""`save_weights` / `load_weights`: a model's variables in a `.weights.h5` file (or shards).

The state of each object `object_tree.walk` lists goes to `<path>/vars`; loading walks the model
the same way and checks, before reading any data, that every object finds as many variables of
the same shapes as it has, and that the file holds nothing the model lacks.
"""

import contextlib
import json
import os
import warnings

import h5py

from tripod.saving import atomic, object_tree
from tripod.saving.h5_store import FileFormatError, H5Reader, H5Writer

WEIGHTS_SUFFIX = ".weights.h5"
SHARDED_SUFFIX = ".weights.json"
_GIB = 1024**3
#: the largest sharding index file tripod reads
_MAX_INDEX_BYTES = 64 * 1024**2


# -- the state of a model, to and from open stores ---------------------------------------------
def write_state(model, writer):
    """Write every saveable object's variables into `writer` (an `H5Writer`)."""
    for path, obj in object_tree.walk(model):
        store = writer.make(
            path, str(getattr(obj, "name", object_tree.snake_case(type(obj).__name__)))
        )
        obj.save_own_variables(store)


def expected_variables(obj):
    """The variables `obj` will load, when it says so: those it checkpoints when that differs
    from its own weights (`_checkpoint_variables()`, e.g. a LoRA layer's merged kernel), a
    layer's own ones, an optimizer's all."""
    checkpointed = getattr(obj, "_checkpoint_variables", None)
    if callable(checkpointed) and getattr(obj, "built", False):
        variables = checkpointed()
        if variables is not None:
            return variables
    if hasattr(obj, "_own_weights"):
        return obj._own_weights()
    variables = getattr(obj, "variables", None)
    return list(variables) if variables is not None and not callable(variables) else None


def _describe(path, obj):
    name = getattr(obj, "name", None)
    what = f"{type(obj).__name__} '{name}'" if name else type(obj).__name__
    return f"{what} at '{path or '/'}'"


def _precheck(path, obj, store):
    """Count and shapes of `store` against `obj`'s variables, before any data is read."""
    expected = expected_variables(obj)
    if expected is None:
        return
    if len(store) != len(expected):
        hint = ""
        if hasattr(obj, "built") and not obj.built:
            hint = (
                " It is not built yet: build the model (call it once, or build(input_shape)) first."
            )
        raise FileFormatError(
            f"{store.where}: {_describe(path, obj)} has {len(expected)} variables, but the file "
            f"holds {len(store)} for it.{hint}"
        )
    for i, variable in enumerate(expected):
        key = str(i)
        if key in store and store.shape(key) != tuple(variable.shape):
            raise FileFormatError(
                f"{store.where}: variable {key} of {_describe(path, obj)} "
                f"('{getattr(variable, 'path', variable.name)}') has shape {tuple(variable.shape)}, "
                f"but the file holds shape {store.shape(key)}."
            )


def _build_optimizer(model, reader):
    """Build a compiled model's optimizer when the file holds optimizer state to load into it."""
    optimizer = getattr(model, "optimizer", None)
    if optimizer is None or getattr(optimizer, "built", True) or not reader.has("optimizer"):
        return
    if len(reader.get("optimizer")) > len(optimizer.variables):
        optimizer.build(model.trainable_variables)


def read_state(model, reader, skip_mismatch=False):
    """Load every saveable object's variables from `reader` (an `H5Reader`)."""
    _build_optimizer(model, reader)
    has_optimizer = False
    for path, obj in object_tree.walk(model):
        has_optimizer = has_optimizer or path == "optimizer"
        store = reader.get(path)
        if not len(store) and not hasattr(obj, "_layers"):
            continue  # an optimizer (or other non-layer) the file holds no state for keeps its own
        try:
            _precheck(path, obj, store)
            obj.load_own_variables(store)
        except (ValueError, KeyError) as e:
            if not skip_mismatch:
                if isinstance(e, FileFormatError):
                    raise
                raise FileFormatError(
                    f"{store.where}: cannot load {_describe(path, obj)}: {e}"
                ) from e
            warnings.warn(f"Skipping {_describe(path, obj)}: {e}", stacklevel=3)
    unused = [p for p in reader.unused() if has_optimizer or not p.startswith("optimizer/")]
    if unused and not skip_mismatch:
        raise FileFormatError(
            f"{reader.label}: the file holds variables for {unused}, which model "
            f"'{getattr(model, 'name', '?')}' does not have: its architecture differs from the "
            "saved one."
        )


# -- files ----------------------------------------------------------------------------------------
def _stem(filepath):
    for suffix in (WEIGHTS_SUFFIX, SHARDED_SUFFIX):
        if filepath.endswith(suffix):
            return filepath[: -len(suffix)]
    raise ValueError(
        f"save_weights: the file name must end in {WEIGHTS_SUFFIX!r} (or {SHARDED_SUFFIX!r} for "
        f"sharded weights), received {filepath!r}."
    )


def save_weights(model, filepath, overwrite=True, max_shard_size=None, **kwargs):
    """Save `model`'s variables to `filepath` (`*.weights.h5`), sharded above `max_shard_size` GiB.

    With `max_shard_size`, the weights go to `<stem>_00000.weights.h5`, ... and an index
    `<stem>.weights.json` maps each `vars` group to its shard files.
    """
    if kwargs:
        raise TypeError(f"save_weights: unexpected arguments {sorted(kwargs)}.")
    filepath = os.fspath(filepath)
    stem = _stem(filepath)
    if max_shard_size is None:
        if filepath.endswith(SHARDED_SUFFIX):
            raise ValueError(
                f"save_weights: {filepath!r} names a sharded index; pass max_shard_size."
            )
        with atomic.atomic_file(filepath, overwrite) as tmp:
            writer = H5Writer(lambda i: (h5py.File(tmp, "w"), os.path.basename(filepath)))
            try:
                write_state(model, writer)
            finally:
                writer.close()
        return
    if not max_shard_size > 0:
        raise ValueError(
            f"save_weights: max_shard_size must be positive (GiB), received {max_shard_size!r}."
        )
    _save_sharded(model, stem, int(max_shard_size * _GIB), overwrite)


def _save_sharded(model, stem, max_bytes, overwrite):
    index_path = stem + SHARDED_SUFFIX
    with contextlib.ExitStack() as stack:
        # Entered first, so renamed last: the index only ever names complete shards.
        index_tmp = stack.enter_context(atomic.atomic_file(index_path, overwrite))

        def open_shard(i):
            name = f"{os.path.basename(stem)}_{i:05d}{WEIGHTS_SUFFIX}"
            tmp = stack.enter_context(
                atomic.atomic_file(os.path.join(os.path.dirname(index_path), name))
            )
            return h5py.File(tmp, "w"), name

        writer = H5Writer(open_shard, max_bytes)
        try:
            write_state(model, writer)
        finally:
            writer.close()
        index = {
            "metadata": {"total_size": float(writer.total_bytes)},
            "weight_map": writer.weight_map,
        }
        with open(index_tmp, "w") as f:
            json.dump(index, f, indent=4)


@contextlib.contextmanager
def open_h5(path, label=None):
    """An `h5py.File` opened read-only, with a clear error for a missing or corrupt file."""
    label = label or path
    if not os.path.isfile(path):
        raise FileNotFoundError(f"No such weights file: {path}")
    try:
        h5 = h5py.File(path, "r")
    except OSError as e:
        raise FileFormatError(
            f"{label} is not a readable HDF5 file (truncated or corrupt?): {e}"
        ) from e
    try:
        yield h5
    finally:
        h5.close()


def _shard_files(index_path):
    """The shard file paths an index names, each a plain file name in the index's folder."""
    if os.path.getsize(index_path) > _MAX_INDEX_BYTES:
        raise FileFormatError(
            f"{index_path}: the sharding index is larger than {_MAX_INDEX_BYTES} bytes."
        )
    try:
        with open(index_path) as f:
            index = json.load(f)
        weight_map = index["weight_map"]
        names = sorted({name for files in weight_map.values() for name in files})
    except (ValueError, KeyError, TypeError, AttributeError) as e:
        raise FileFormatError(f"{index_path} is not a valid sharded-weights index: {e}") from e
    folder = os.path.dirname(os.path.abspath(index_path))
    for name in names:
        if not isinstance(name, str) or os.path.basename(name) != name or name in ("", ".", ".."):
            raise FileFormatError(
                f"{index_path}: shard name {name!r} is not a plain file name in its folder."
            )
    return [os.path.join(folder, name) for name in names]


def load_weights_file(model, filepath, skip_mismatch=False):
    """Load a `*.weights.h5` file or a sharded `*.weights.json` index into the built `model`."""
    if filepath.endswith(SHARDED_SUFFIX):
        if not os.path.isfile(filepath):
            raise FileNotFoundError(f"No such weights index: {filepath}")
        with contextlib.ExitStack() as stack:
            files = [stack.enter_context(open_h5(p)) for p in _shard_files(filepath)]
            read_state(model, H5Reader(files, filepath), skip_mismatch)
        return
    with open_h5(filepath) as h5:
        read_state(model, H5Reader([h5], filepath), skip_mismatch)
