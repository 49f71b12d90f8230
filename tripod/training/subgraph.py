"""A functional model's graph started from intermediate tensors: as in Keras 3, `Model(inputs,
outputs)` may take any tensors of a graph as its inputs (`Model(encoder.output, head_output)`,
a FeatureSpace's encoded features); the layers between are called again on new `Input`s."""

from tripod.backends.common import tree
from tripod.backends.common.keras_tensor import KerasTensor
from tripod.layers.input_layer import Input, InputLayer
from tripod.layers.node import nodes_in_order


def from_input_layers(inputs, outputs):
    """(inputs, outputs) with every input that is not an `Input` replaced by a new `Input` of
    its shape and dtype, and the layer calls from the inputs to the outputs replayed on them
    (the same layers and weights). Graphs whose inputs are all `Input`s come back unchanged."""
    flat_inputs = tree.flatten(inputs)
    if all(_is_input(x) for x in flat_inputs):
        return inputs, outputs
    values = {id(x): x if _is_input(x) else _input_like(x) for x in flat_inputs}
    for node in nodes_in_order([x for x in tree.flatten(outputs) if isinstance(x, KerasTensor)]):
        _replay(node, values)
    return tree.map_structure(lambda x: values[id(x)], inputs), tree.map_structure(
        lambda x: values.get(id(x), x), outputs
    )


def _is_input(x):
    """Whether `x` stays as it is: an `Input`'s output, or no layer's output at all (the model
    then refuses it)."""
    history = getattr(x, "_keras_history", None)
    return history is None or isinstance(history[0], InputLayer)


def _input_like(x):
    """A new `Input` of `x`'s shape (batch axis included) and dtype."""
    return Input(batch_shape=tuple(x.shape), dtype=x.dtype, sparse=x.sparse)


def _replay(node, values):
    """Call `node`'s layer again on the replacements of its inputs, when the inputs reach all
    of them and its outputs are not inputs themselves; record the new outputs in `values`."""
    old = node.output_tensors
    if isinstance(node.operation, InputLayer) or all(id(x) in values for x in old):
        return
    if not node.input_tensors or any(id(x) not in values for x in node.input_tensors):
        return  # not downstream of the inputs: left for the model to report, if needed
    args, kwargs = tree.map_structure(
        lambda v: values[id(v)] if isinstance(v, KerasTensor) else v, node.arguments
    )
    new = [x for x in tree.flatten(node.operation(*args, **kwargs)) if isinstance(x, KerasTensor)]
    values.update((id(a), b) for a, b in zip(old, new))
