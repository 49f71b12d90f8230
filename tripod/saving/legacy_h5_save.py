"""Writing legacy `.h5` models, the layout Keras 3 writes for `model.save("name.h5")`.

Root attributes: `keras_version`, `backend`, `model_config` (JSON of `{"class_name", "config"}`)
and, for a compiled model, `training_config` (the compile arguments, the optimizer as
`optimizer_config`). The group `model_weights` lists `layer_names` and holds one group per layer
whose `weight_names` attribute names its datasets (the variables' paths), trainable weights first;
`optimizer_weights` holds the optimizer's variables the same way. `legacy_h5.load_model` (and
Keras 3's loader) read it back. The write is atomic.
"""

import json
import warnings

import h5py
import numpy as np

from tripod.backends import active
from tripod.saving import atomic, registry, serialization
from tripod.saving.legacy_h5 import ATTRIBUTE_LIMIT, TOP_LEVEL_GROUP, legacy_weights, own_weights


def save_model(model, filepath, overwrite=True, metadata=None, include_optimizer=True):
    """Save `model` (config, weights and, with `include_optimizer`, its compile arguments and
    optimizer state) as a legacy `.h5`."""
    warnings.warn(
        f"Saving model '{model.name}' to {filepath!r} in the legacy HDF5 format; the `.keras` "
        "format (model.save('name.keras')) keeps more of the model and is recommended.",
        UserWarning,
        stacklevel=4,
    )
    attributes = _root_attributes(model, metadata or {}, include_optimizer)
    optimizer = getattr(model, "optimizer", None) if include_optimizer else None
    optimizer_variables = list(getattr(optimizer, "variables", None) or [])
    with atomic.atomic_file(filepath, overwrite) as tmp, h5py.File(tmp, "w") as h5:
        for key, value in attributes.items():
            h5.attrs[key] = value
        _write_layers(h5.create_group("model_weights"), model, attributes)
        if optimizer_variables:
            _write_variables(h5.create_group("optimizer_weights"), optimizer_variables)


def _root_attributes(model, metadata, include_optimizer):
    config = serialization.serialize_keras_object(model)
    model_config = {"class_name": config["class_name"], "config": config["config"]}
    attributes = {
        "keras_version": str(metadata.get("keras_version", "")),
        "backend": str(metadata.get("tripod_backend", "")),
        "model_config": _json(model, model_config),
    }
    training_config = _training_config(model) if include_optimizer else None
    if training_config is not None:
        attributes["training_config"] = _json(model, training_config)
    return attributes


def _training_config(model):
    """The compile arguments as Keras writes them: the optimizer apart, as `optimizer_config`."""
    compile_config = model.get_compile_config() if getattr(model, "compiled", False) else None
    if not compile_config or getattr(model, "optimizer", None) is None:
        return None
    config = {k: v for k, v in compile_config.items() if k != "optimizer"}
    optimizer = model.optimizer
    config["optimizer_config"] = {
        "class_name": registry.get_registered_name(type(optimizer)),
        "config": optimizer.get_config(),
    }
    return config


def _json(model, value):
    try:
        return json.dumps(value).encode("utf8")
    except (TypeError, ValueError) as e:
        raise TypeError(
            f"save_model: the config of model '{model.name}' is not JSON-serializable ({e}); a "
            "custom layer's get_config() must return plain data (numbers, strings, lists, dicts)."
        ) from None


def _write_layers(group, model, attributes):
    """One group per layer (even those without weights), named by the layer."""
    group.attrs["backend"] = attributes["backend"]
    group.attrs["keras_version"] = attributes["keras_version"]
    layers = list(model.layers)
    names = [layer.name for layer in layers]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise ValueError(
            f"save_model: model '{model.name}' has several layers named {duplicates}; the legacy "
            ".h5 format needs unique layer names (use the .keras format)."
        )
    write_names_attribute(group, "layer_names", names)
    for layer in layers:
        _write_variables(group.create_group(layer.name), legacy_weights(layer))
    _write_variables(group.create_group(TOP_LEVEL_GROUP), own_weights(model))


def _write_variables(group, variables):
    """`variables` as datasets named by their paths, listed in the `weight_names` attribute."""
    names = [str(getattr(v, "path", v.name)) for v in variables]
    write_names_attribute(group, "weight_names", names)
    for name, variable in zip(names, variables):
        value = np.asarray(active().convert_to_numpy(variable))
        if value.dtype.kind == "V" or value.dtype.name == "bfloat16":
            value = value.astype("float32")  # HDF5 has no bfloat16: stored losslessly widened
        group.create_dataset(name, data=value)


def write_names_attribute(group, key, names):
    """A list of names as a bytes-array attribute, split into `key0`, `key1`, ... when one
    attribute would exceed HDF5's object-header limit (as Keras does)."""
    data = np.asarray([n.encode("utf8") for n in names])
    parts = [data]
    while any(part.nbytes > ATTRIBUTE_LIMIT for part in parts) and len(parts) < len(names):
        parts = np.array_split(data, len(parts) + 1)
    if len(parts) == 1:
        group.attrs[key] = data
        return
    for index, part in enumerate(parts):
        group.attrs[f"{key}{index}"] = part
