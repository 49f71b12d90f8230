"""`save_model` / `load_model` / `load_weights`: whole models in `.keras` archives, and the
dispatch of weight loading by file kind."""

import datetime
import json
import os

from tripod.backends import config as backend_config
from tripod.saving import archive, assets, atomic, legacy_h5, legacy_h5_save, serialization, weights
from tripod.saving.h5_store import H5Reader
from tripod.saving.model_config import model_from_config

KERAS_SUFFIX = ".keras"
LEGACY_SUFFIXES = (".h5", ".hdf5")
#: the Keras version whose `.keras` format tripod writes (recorded in metadata.json)
FORMAT_KERAS_VERSION = "3.15.1"


def _is_weights_file(path):
    return path.endswith((weights.WEIGHTS_SUFFIX, weights.SHARDED_SUFFIX))


def _is_legacy(path):
    return path.endswith(LEGACY_SUFFIXES) and not _is_weights_file(path)


def _metadata():
    return {
        "keras_version": FORMAT_KERAS_VERSION,
        "tripod_backend": backend_config.backend(),
        "date_saved": datetime.datetime.now().strftime("%Y-%m-%d@%H:%M:%S"),
    }


def _model_config(model):
    config = serialization.serialize_keras_object(model)
    try:
        json.dumps(config)
    except (TypeError, ValueError) as e:
        raise TypeError(
            f"save_model: the config of model '{model.name}' is not JSON-serializable ({e}); a "
            "custom layer's get_config() must return plain data (numbers, strings, lists, dicts)."
        ) from None
    return config


def save_model(model, filepath, overwrite=True, zipped=None, **kwargs):
    """Save `model` (config, weights, optimizer state) as a `.keras` zip, or a folder if
    `zipped=False`, or in the legacy HDF5 format for a `.h5`/`.hdf5` name (with a warning);
    the write is atomic."""
    include_optimizer = kwargs.pop("include_optimizer", True)
    if kwargs:
        raise TypeError(f"save_model: unexpected arguments {sorted(kwargs)}.")
    filepath = os.fspath(filepath)
    zipped = True if zipped is None else bool(zipped)
    if _is_weights_file(filepath):
        raise ValueError(
            f"save_model: {filepath!r} is a weights file name; use "
            "model.save_weights('name.weights.h5') for weights, or model.save('name.keras')."
        )
    if zipped and _is_legacy(filepath):
        with atomic.kept_by_process_zero(filepath) as target:
            legacy_h5_save.save_model(model, target, overwrite, _metadata(), include_optimizer)
        return
    if zipped and not filepath.endswith(KERAS_SUFFIX):
        raise ValueError(
            "save_model: the file name must end in '.keras' (or '.h5' for the legacy HDF5 "
            f"format), received {filepath!r}."
        )
    config = _model_config(model)
    with atomic.kept_by_process_zero(filepath) as target:
        archive.write_archive(
            target,
            config,
            _metadata(),
            lambda h5_path: weights.save_weights(model, h5_path),
            lambda folder: assets.save_assets(model, folder),
            zipped,
            overwrite,
        )


def load_model(filepath, custom_objects=None, compile=True, safe_mode=True):
    """Load a model saved by `Model.save` (or by Keras 3, or a legacy Keras 2 `.h5`).

    The file may come from any backend: a model saved on torch loads on jax with the same
    predictions. Only built-in and registered classes (or `custom_objects`) are built; Python
    code in the config (a `Lambda`) loads only with `safe_mode=False`.

    Args:
        filepath: str or path-like: a ".keras" archive or folder, or a legacy ".h5" file.
        custom_objects: dict from class (or function) name to the object, for custom layers,
            losses or metrics not registered with `register_keras_serializable`.
        compile: bool, compile the model as it was saved, restoring the optimizer's state
            (default True).
        safe_mode: bool, refuse to run code stored in the file (default True).

    Returns:
        The `Model`, with its weights (and, when `compile`, its optimizer state) restored.

    Raises:
        ValueError: a weights-only file, an unsupported suffix, or a file that does not hold a
            loadable model (truncated, an unknown class, weights that do not fit), named in the
            message.

    Examples:
        >>> model = tripod.Sequential([tripod.Input((4,)), tripod.layers.Dense(3)])
        >>> model.compile(optimizer="adam", loss="mse")
        >>> model.save("classifier.keras")
        >>> loaded = tripod.saving.load_model("classifier.keras")
        >>> type(loaded).__name__, loaded.compiled, loaded.count_params()
        ('Sequential', True, 15)
    """
    filepath = os.fspath(filepath)
    if _is_weights_file(filepath):
        raise ValueError(
            f"load_model: {filepath!r} holds only weights; build the model and call "
            "model.load_weights() on it."
        )
    if _is_legacy(filepath):
        return legacy_h5.load_model(filepath, custom_objects, compile, safe_mode)
    if not (filepath.endswith(KERAS_SUFFIX) or os.path.isdir(filepath)):
        raise ValueError(
            f"load_model: unsupported file {filepath!r}; expected a '.keras' archive, a saved-model "
            "folder, or a legacy '.h5' file."
        )
    with archive.open_archive(filepath) as (config, _metadata, weights_path, assets_folder):
        model = model_from_config(
            config, custom_objects, compile, safe_mode, f"{filepath}: config.json"
        )
        _load_archive_weights(model, filepath, weights_path)
        assets.load_assets(model, assets_folder)
    return model


def _load_archive_weights(model, filepath, weights_path, skip_mismatch=False):
    label = f"{filepath}: {archive.WEIGHTS}"
    with weights.open_h5(weights_path, label) as h5:
        weights.read_state(model, H5Reader([h5], label), skip_mismatch)


def load_weights(model, filepath, skip_mismatch=False, **kwargs):
    """Load weights into the built `model` from a `.weights.h5` file, a sharded `.weights.json`
    index, a `.keras` archive or folder, or a legacy `.h5` file."""
    if kwargs:
        raise TypeError(f"load_weights: unexpected arguments {sorted(kwargs)}.")
    filepath = os.fspath(filepath)
    if _is_weights_file(filepath):
        weights.load_weights_file(model, filepath, skip_mismatch)
    elif _is_legacy(filepath):
        legacy_h5.load_weights(model, filepath, skip_mismatch)
    elif filepath.endswith(KERAS_SUFFIX) or os.path.isdir(filepath):
        with archive.open_archive(filepath) as (_config, _metadata, weights_path, _assets):
            _load_archive_weights(model, filepath, weights_path, skip_mismatch)
    else:
        raise ValueError(
            f"load_weights: unsupported file {filepath!r}; expected '.weights.h5', '.weights.json', "
            "'.keras' or a legacy '.h5'."
        )


def save_weights(model, filepath, overwrite=True, max_shard_size=None, **kwargs):
    """Save `model`'s variables to a `.weights.h5` file (sharded above `max_shard_size` GiB)."""
    with atomic.kept_by_process_zero(os.fspath(filepath)) as target:
        weights.save_weights(model, target, overwrite, max_shard_size, **kwargs)


def model_from_json(json_string, custom_objects=None):
    """A model (without weights) from the JSON of its config, as `model.to_json()` writes it."""
    return serialization.deserialize_keras_object(
        json.loads(json_string), custom_objects=custom_objects
    )
