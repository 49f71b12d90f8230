"""A model's input signature for export: a structure of named `TensorSpec`s like its inputs."""

from tripod.backends.common import tree
from tripod.backends.common.keras_tensor import KerasTensor
from tripod.export.serving import TensorSpec, unique_names
from tripod.layers.input_spec import InputSpec


def model_inputs(model, input_signature=None):
    """The structure of `TensorSpec`s the model is called on: `input_signature` when given,
    else the model's `Input`s (functional and Sequential models), else the shapes it was built
    with (batch dim unknown); an error asking for `input_signature` when none is known."""
    if input_signature is not None:
        return _from_signature(input_signature)
    struct = getattr(model, "_inputs_struct", None)
    if struct is None and getattr(model, "inputs", None):
        struct = model.inputs[0] if len(model.inputs) == 1 else list(model.inputs)
    if struct is not None:
        return _named(struct)
    shapes = getattr(model, "_build_shapes", None) or {}
    shape = shapes.get("input_shape")
    if shape is not None and not tree.is_nested(shape[0] if shape else None):
        return TensorSpec("inputs", (None,) + tuple(shape[1:]), model.compute_dtype)
    raise ValueError(
        f"Model '{model.name}' has no Input and was not built from one input shape, so its "
        "input signature is unknown: pass input_signature=, e.g. "
        "[tripod.InputSpec(shape=(None, 3), dtype='float32')] or an example array."
    )


def _named(struct):
    """KerasTensors -> TensorSpecs named after their dict keys (nested keys joined by "/"),
    else after the tensor (its `Input`'s name)."""
    paths = tree.flatten_with_path(struct)
    specs = [
        TensorSpec(_key_name(path) or x.name or f"input_{i}", x.shape, x.dtype)
        for i, (path, x) in enumerate(paths)
    ]
    return tree.pack_sequence_as(struct, _unique(specs))


def _key_name(path):
    """A leaf's dict keys joined by "/" ("" when no dict leads to it)."""
    return "/".join(str(key) for key in path if isinstance(key, str))


def _from_signature(signature):
    """A user's `input_signature` for a model: one list entry stands for a model taking one
    input (Keras's form), anything else is the structure of its one argument."""
    if isinstance(signature, (list, tuple)) and len(signature) == 1:
        signature = signature[0]
    return specs_like(signature)


def specs_like(signature, prefix="input"):
    """A structure of InputSpecs, KerasTensors, TensorSpecs or arrays (lists, tuples, dicts) as
    the same structure of uniquely named TensorSpecs."""
    paths = tree.flatten_with_path(signature)
    specs = [_spec(x, _path_name(path, i, prefix)) for i, (path, x) in enumerate(paths)]
    return tree.pack_sequence_as(signature, _unique(specs))


def _path_name(path, index, prefix):
    """A dict entry's keys joined by "/", else "inputs" for a lone tensor, else "<prefix>_<i>"."""
    return _key_name(path) or ("inputs" if not path else f"{prefix}_{index}")


def _spec(x, default_name):
    """One signature entry as a TensorSpec; a concrete array's batch dim becomes unknown."""
    name = getattr(x, "name", None) or default_name
    if isinstance(x, InputSpec):
        if x.shape is None:
            raise ValueError(f"input_signature entry {default_name!r}: an InputSpec needs a shape.")
        return TensorSpec(name, x.shape, x.dtype or "float32")
    shape, dtype = getattr(x, "shape", None), getattr(x, "dtype", None)
    if shape is None or dtype is None:
        raise TypeError(
            f"input_signature entry {default_name!r} must be an InputSpec, a KerasTensor, a "
            f"TensorSpec or an array; received {type(x).__name__}."
        )
    shape = tuple(shape)
    if not isinstance(x, (TensorSpec, KerasTensor)) and shape:
        shape = (None,) + shape[1:]
    return TensorSpec(name if isinstance(name, str) else default_name, shape, dtype)


def _unique(specs):
    """The specs, renamed where a name repeats (see `unique_names`)."""
    for spec, name in zip(specs, unique_names([spec.name for spec in specs])):
        spec.name = name
    return specs
