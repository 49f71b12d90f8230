"""`clone_model`: a new model with the same architecture and fresh weights."""

from tripod.backends.common import tree
from tripod.backends.common.keras_tensor import KerasTensor
from tripod.layers.input_layer import Input, InputLayer
from tripod.training.functional import Functional
from tripod.training.sequential import Sequential


def _default_clone(layer):
    return type(layer).from_config(layer.get_config())


def clone_model(
    model, input_tensors=None, clone_function=None, call_function=None, recursive=False, **kwargs
):
    """Rebuild `model`'s architecture with new layers (`clone_function(layer)` makes each one).

    Functional graphs are replayed layer call by layer call (shared layers stay shared);
    `call_function(layer, *args, **kwargs)` may replace how each cloned layer is called. A
    compiled model's clone is compiled as it was (a new optimizer of the same config), as in
    Keras 3.
    """
    if kwargs:
        raise TypeError(f"clone_model: unexpected arguments {sorted(kwargs)}.")
    cloned = _clone_architecture(model, input_tensors, clone_function, call_function, recursive)
    if getattr(model, "compiled", False):
        cloned.compile_from_config(model.get_compile_config())
    return cloned


def _clone_architecture(model, input_tensors, clone_function, call_function, recursive):
    """`clone_model` before compiling: the model rebuilt from cloned layers."""
    base = clone_function or _default_clone

    def clone(layer):
        if recursive and isinstance(layer, (Sequential, Functional)):
            return clone_model(
                layer, clone_function=clone_function, call_function=call_function, recursive=True
            )
        return base(layer)

    if isinstance(model, Sequential):
        layers = [clone(layer) for layer in model.layers]
        if model._input_layer is not None:
            layers.insert(
                0,
                InputLayer(
                    batch_shape=model._input_layer.batch_shape, dtype=model._input_layer.dtype
                ),
            )
        return Sequential(layers, name=model.name, trainable=model.trainable)
    if isinstance(model, Functional):
        return _clone_functional(model, input_tensors, clone, call_function)
    return type(model).from_config(model.get_config())


def _clone_functional(model, input_tensors, clone, call_function):
    new_tensor = {}
    originals = model.inputs
    replacements = (
        model._flatten_inputs(input_tensors)
        if input_tensors is not None
        else [
            Input(batch_shape=x.shape, dtype=x.dtype, name=x._keras_history[0].name)
            for x in originals
        ]
    )
    new_tensor.update({id(old): new for old, new in zip(originals, replacements)})
    cloned = {}
    for node in model._nodes:
        layer = node.operation
        if isinstance(layer, InputLayer):
            continue
        if id(layer) not in cloned:
            cloned[id(layer)] = clone(layer)
        args, kwargs = tree.map_structure(
            lambda x: new_tensor[id(x)] if isinstance(x, KerasTensor) else x, node.arguments
        )
        new_layer = cloned[id(layer)]
        outputs = (
            call_function(new_layer, *args, **kwargs)
            if call_function
            else new_layer(*args, **kwargs)
        )
        for old, new in zip(node.output_tensors, tree.flatten(outputs)):
            new_tensor[id(old)] = new
    outputs = tree.map_structure(lambda x: new_tensor[id(x)], model._outputs_struct)
    inputs = tree.pack_sequence_as(model._inputs_struct, replacements)
    return Functional(inputs, outputs, name=model.name)
