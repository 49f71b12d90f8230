"""Loading legacy `.h5` models: Keras 2's format (and Keras 3's `.h5` export of it).

The file's root attribute `model_config` holds the model's JSON config, `training_config` the
compile arguments, and the group `model_weights` (or the root, for a weights-only file) lists
`layer_names`; each layer's group lists `weight_names`, the datasets of its weights in Keras 2's
order: trainable, then non-trainable (`legacy_weights`). Keras 2 configs are translated to the
Keras 3 schema first: functional `inbound_nodes` as lists of `[layer, node, tensor, kwargs]`
become `args`/`kwargs` with tensor references, `batch_input_shape` becomes `batch_shape`, and
arguments a tripod class does not take are dropped with a warning.
"""

import inspect
import json
import warnings

import h5py
import numpy as np

from tripod.saving import registry, serialization
from tripod.saving.h5_store import FileFormatError, check_file
from tripod.saving.model_config import model_from_config

#: arguments every layer accepts on top of its constructor's (Keras 2's input-shape arguments)
_LEGACY_LAYER_ARGS = frozenset(
    {"input_shape", "input_dim", "batch_input_shape", "batch_size", "input_length", "weights"}
)
_MODEL_CLASSES = {"Model": "Functional", "Functional": "Functional", "Sequential": "Sequential"}
_MAX_CONFIG_BYTES = 256 * 1024**2
#: the largest attribute HDF5 keeps in an object header; longer name lists are split
ATTRIBUTE_LIMIT = 64512
#: the group of a model's own variables, those of none of its layers
TOP_LEVEL_GROUP = "top_level_model_weights"


def _text(value):
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


def _names(attr):
    """A `layer_names`/`weight_names` attribute's value as a list of str (empty arrays included)."""
    return (
        [_text(v) for v in np.asarray(attr).reshape(-1)]
        if attr is not None and np.size(attr)
        else []
    )


def read_names_attribute(group, key):
    """The names stored under `key`, or split over `key0`, `key1`, ... (a long list)."""
    if key in group.attrs:
        return _names(group.attrs[key])
    names, index = [], 0
    while f"{key}{index}" in group.attrs:
        names += _names(group.attrs[f"{key}{index}"])
        index += 1
    return names


def legacy_weights(layer):
    """A layer's weights in the legacy files' order: trainable ones, then non-trainable ones."""
    return list(layer.trainable_weights) + list(layer.non_trainable_weights)


def _json_attr(h5, key, path):
    raw = h5.attrs.get(key)
    if raw is None:
        return None
    text = _text(raw)
    if len(text) > _MAX_CONFIG_BYTES:
        raise FileFormatError(
            f"{path}: attribute {key!r} is larger than {_MAX_CONFIG_BYTES} bytes."
        )
    try:
        return json.loads(text)
    except ValueError as e:
        raise FileFormatError(f"{path}: attribute {key!r} is not valid JSON: {e}") from e


# -- config translation ---------------------------------------------------------------------------
def _accepted_arguments(cls):
    """The keyword arguments `cls(...)` accepts, following `**kwargs` up the class hierarchy."""
    names = set(_LEGACY_LAYER_ARGS)
    for klass in cls.__mro__:
        if "__init__" not in vars(klass) or klass is object:
            continue
        params = inspect.signature(klass.__init__).parameters.values()
        names.update(p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY))
        if not any(p.kind == p.VAR_KEYWORD for p in params):
            break
    return names


def _tensor_ref(entry):
    name, node_index, tensor_index = entry[:3]
    return {
        "class_name": "__keras_tensor__",
        "config": {"keras_history": [name, node_index, tensor_index]},
    }


def _translate_node(node):
    """A Keras 2 node (a list of [layer, node, tensor, kwargs]) as Keras 3's args/kwargs."""
    if isinstance(node, dict):
        return node  # already Keras 3's schema
    refs = [_tensor_ref(entry) for entry in node]
    kwargs = node[0][3] if node and len(node[0]) > 3 and isinstance(node[0][3], dict) else {}
    return {"args": [refs[0] if len(refs) == 1 else refs], "kwargs": kwargs}


def _translate_dtype(dtype):
    if isinstance(dtype, dict) and dtype.get("class_name") == "Policy":
        return dtype.get("config", {}).get("name")
    return dtype


def translate_config(config, custom_objects=None):
    """A layer or model config of Keras 2's schema, in Keras 3's (nested models included)."""
    if not isinstance(config, dict) or "class_name" not in config:
        raise FileFormatError(
            f"Expected a layer config with a 'class_name', received {config!r:.200}."
        )
    class_name = _MODEL_CLASSES.get(config["class_name"], config["class_name"])
    inner = dict(config.get("config") or {})
    if class_name in ("Functional", "Sequential"):
        inner["layers"] = [
            translate_config(layer, custom_objects) for layer in inner.get("layers", [])
        ]
        if class_name == "Sequential":
            inner = {
                k: v
                for k, v in inner.items()
                if k in ("name", "trainable", "layers", "build_input_shape")
            }
        else:
            inner = {
                k: v
                for k, v in inner.items()
                if k in ("name", "trainable", "layers", "input_layers", "output_layers")
            }
    else:
        inner = _translate_layer_arguments(config, class_name, inner, custom_objects)
    result = {
        "module": config.get("module"),
        "class_name": class_name,
        "config": inner,
        "registered_name": config.get("registered_name"),
    }
    for key in ("name", "build_config"):
        if key in config:
            result[key] = config[key]
    if "inbound_nodes" in config:
        result["inbound_nodes"] = [_translate_node(node) for node in config["inbound_nodes"]]
    return result


def _translate_layer_arguments(config, class_name, inner, custom_objects):
    if "dtype" in inner:
        inner["dtype"] = _translate_dtype(inner["dtype"])
    if class_name == "InputLayer" and "batch_input_shape" in inner:
        inner["batch_shape"] = inner.pop("batch_input_shape")
    if (
        class_name == "BatchNormalization"
        and isinstance(inner.get("axis"), list)
        and len(inner["axis"]) == 1
    ):
        inner["axis"] = inner["axis"][0]  # Keras 2 wrote the built axis as a one-item list
    cls = registry.resolve(
        config.get("module"), class_name, config.get("registered_name"), custom_objects
    )
    if isinstance(cls, type) and "from_config" not in vars(cls):
        inner = _keep_accepted(cls, inner)
    return inner


def _keep_accepted(cls, arguments):
    """`arguments` without those `cls` does not take (Keras 2 leftovers), with a warning."""
    accepted = _accepted_arguments(cls)
    dropped = sorted(set(arguments) - accepted)
    if dropped:
        warnings.warn(
            f"Legacy {cls.__name__} config: ignoring arguments tripod's {cls.__name__} does not take: {dropped}.",
            stacklevel=5,
        )
    return {k: v for k, v in arguments.items() if k in accepted}


# -- weights --------------------------------------------------------------------------------------
def _layers_with_weights(model):
    return [layer for layer in model.layers if legacy_weights(layer)]


def _file_layers(group, path):
    """[(layer name, [weight arrays' datasets])] of the file's layers that hold weights."""
    result = []
    for name in read_names_attribute(group, "layer_names"):
        if name not in group:
            raise FileFormatError(f"{path}: layer {name!r} is listed but has no group.")
        layer_group = group[name]
        datasets = _datasets(layer_group, path)
        if datasets:
            result.append((name, datasets))
    return result


def _datasets(group, path):
    """The datasets `group`'s `weight_names` attribute lists, in its order."""
    datasets = []
    for weight_name in read_names_attribute(group, "weight_names"):
        dataset = group.get(weight_name)
        if not isinstance(dataset, h5py.Dataset):
            raise FileFormatError(f"{path}: weight {group.name}/{weight_name} is missing.")
        datasets.append(dataset)
    return datasets


def load_weights_from_group(model, group, path, skip_mismatch=False):
    """Assign the layers' weights from a legacy `model_weights` group, layer by layer in order."""
    file_layers = _file_layers(group, path)
    layers = _layers_with_weights(model)
    if len(file_layers) != len(layers):
        raise FileFormatError(
            f"{path}: the file holds weights for {len(file_layers)} layers "
            f"({[name for name, _ in file_layers]}), but model '{model.name}' has {len(layers)} "
            f"layers with weights ({[layer.name for layer in layers]})."
        )
    for layer, (name, datasets) in zip(layers, file_layers):
        variables = legacy_weights(layer)
        shapes = [tuple(d.shape) for d in datasets]
        expected = [tuple(v.shape) for v in variables]
        if shapes != expected:
            message = (
                f"{path}: layer '{layer.name}' expects weights of shapes {expected}, but the "
                f"file's layer {name!r} holds {shapes}."
            )
            if skip_mismatch:
                warnings.warn(message, stacklevel=3)
                continue
            raise FileFormatError(message)
        for variable, dataset in zip(variables, datasets):
            variable.assign(np.asarray(dataset[()]))
    _load_top_level(model, group.get(TOP_LEVEL_GROUP), path)


def own_weights(model):
    """The model's variables that belong to none of its layers (legacy files keep them apart)."""
    in_layers = {id(w) for layer in model.layers for w in layer.weights}
    return [w for w in model.weights if id(w) not in in_layers]


def _load_top_level(model, group, path):
    datasets = _datasets(group, path) if isinstance(group, h5py.Group) else []
    variables = own_weights(model)
    if not datasets and not variables:
        return
    shapes = [tuple(d.shape) for d in datasets]
    expected = [tuple(v.shape) for v in variables]
    if shapes != expected:
        raise FileFormatError(
            f"{path}: model '{model.name}' has top-level weights of shapes {expected}, but the "
            f"file's '{TOP_LEVEL_GROUP}' holds {shapes}."
        )
    for variable, dataset in zip(variables, datasets):
        variable.assign(np.asarray(dataset[()]))


def _optimizer_values(h5, path):
    """The optimizer variables' values a file holds (as arrays), or None."""
    group = h5.get("optimizer_weights")
    if not isinstance(group, h5py.Group):
        return None
    return [np.asarray(d[()]) for d in _datasets(group, path)]


def _load_optimizer(model, values, filepath):
    """Restore the optimizer's state; a mismatch leaves it fresh, with a warning (as Keras)."""
    optimizer = model.optimizer
    if not optimizer.built and len(values) > len(optimizer.variables):
        optimizer.build(model.trainable_variables)  # the file holds slots: a trained optimizer
    variables = list(optimizer.variables)
    expected = [tuple(v.shape) for v in variables]
    if [v.shape for v in values] != expected:
        warnings.warn(
            f"{filepath}: the saved optimizer state (shapes {[v.shape for v in values]}) does not "
            f"fit optimizer '{optimizer.name}' (shapes {expected}); it starts fresh.",
            stacklevel=3,
        )
        return
    for variable, value in zip(variables, values):
        variable.assign(value)


def _open(filepath):
    try:
        h5 = h5py.File(filepath, "r")
    except OSError as e:
        raise FileFormatError(
            f"{filepath} is not a readable HDF5 file (truncated or corrupt?): {e}"
        ) from e
    try:
        check_file(h5, filepath)
    except Exception:
        h5.close()
        raise
    return h5


def load_weights(model, filepath, skip_mismatch=False):
    """Load weights from a legacy `.h5` file (a whole model's or a weights-only one)."""
    with _open(filepath) as h5:
        load_weights_from_group(model, h5.get("model_weights", h5), filepath, skip_mismatch)


def _compile(model, training_config, custom_objects, filepath):
    """Compile `model` as the file's `training_config` says, or warn why it cannot."""
    config = dict(training_config)
    optimizer = config.pop("optimizer_config", None)
    arguments = {
        k: config[k] for k in ("loss", "loss_weights", "metrics", "weighted_metrics") if k in config
    }
    try:
        if optimizer is not None:
            optimizer = translate_optimizer(optimizer, custom_objects)
        model.compile(optimizer=optimizer, **arguments)
    except (ValueError, TypeError, KeyError) as e:
        warnings.warn(
            f"{filepath}: the model is not compiled; its training config could not be restored: {e}",
            stacklevel=3,
        )


def translate_optimizer(config, custom_objects=None):
    """A Keras 2 optimizer config as a tripod optimizer (arguments it does not take dropped)."""
    cls = registry.resolve("keras.optimizers", config["class_name"], None, custom_objects)
    if cls is None:
        raise ValueError(f"unknown optimizer {config['class_name']!r}")
    inner = _keep_accepted(cls, config.get("config") or {})
    return serialization.deserialize_keras_object(
        {"module": "keras.optimizers", "class_name": cls.__name__, "config": inner}, custom_objects
    )


def load_model(filepath, custom_objects=None, compile=True, safe_mode=True):
    """A model from a legacy `.h5` file: its config, its weights and (optionally) its compile."""
    with _open(filepath) as h5:
        config = _json_attr(h5, "model_config", filepath)
        if config is None:
            raise FileFormatError(
                f"{filepath} holds no model config (attribute 'model_config'); it may be a "
                "weights-only file: build the model and call load_weights()."
            )
        model = model_from_config(
            translate_config(config, custom_objects),
            custom_objects,
            compile=False,
            safe_mode=safe_mode,
            label=f"{filepath}: model_config",
        )
        load_weights_from_group(model, h5.get("model_weights", h5), filepath)
        training_config = _json_attr(h5, "training_config", filepath)
        optimizer_values = _optimizer_values(h5, filepath) if compile else None
    if compile and training_config:
        _compile(model, training_config, custom_objects, filepath)
        if optimizer_values and model.compiled and model.optimizer is not None:
            _load_optimizer(model, optimizer_values, filepath)
    return model
