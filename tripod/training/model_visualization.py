"""`model_to_dot` and `plot_model`: a model's layer graph as a Graphviz drawing.

pydot (`pip install 'tripod[plot]'`) is imported only when these are called; `plot_model` also
needs Graphviz's `dot` program to render an image (a `.dot` file needs none).
"""

import itertools
import os

from tripod.backends.common import optional, tree


def model_to_dot(
    model,
    show_shapes=False,
    show_dtype=False,
    show_layer_names=True,
    rankdir="TB",
    expand_nested=False,
    dpi=200,
    subgraph=False,
    show_layer_activations=False,
    show_trainable=False,
    splines="ortho",
    **kwargs,
):
    """A `pydot.Dot` (a `pydot.Cluster` with `subgraph=True`) with one node per layer of `model`
    and an edge per tensor passed between layers. Nested models are drawn as one node."""
    pydot = optional.require("pydot", "plot", "model_to_dot")
    if kwargs:
        raise TypeError(f"model_to_dot: unexpected arguments {sorted(kwargs)}.")
    if not model.built:
        raise ValueError(
            f"model_to_dot: model '{model.name}' is not built yet; call it on data or build it first."
        )
    del expand_nested  # nested models are drawn as one node (see docs/differences.md)
    if subgraph:
        dot = pydot.Cluster(style="dashed", graph_name=model.name, label=model.name)
    else:
        dot = pydot.Dot(
            graph_type="digraph", rankdir=rankdir, dpi=dpi, splines=splines, concentrate=True
        )
    dot.set_node_defaults(shape="box")
    show = {
        "names": show_layer_names,
        "shapes": show_shapes,
        "dtype": show_dtype,
        "activations": show_layer_activations,
        "trainable": show_trainable,
    }
    layers, edges = _graph(model)
    for layer in layers:
        dot.add_node(pydot.Node(str(id(layer)), label=_label(layer, show)))
    for source, target in edges:
        dot.add_edge(pydot.Edge(str(id(source)), str(id(target))))
    return dot


def plot_model(
    model,
    to_file="model.png",
    show_shapes=False,
    show_dtype=False,
    show_layer_names=False,
    rankdir="TB",
    expand_nested=False,
    dpi=200,
    show_layer_activations=False,
    show_trainable=False,
    splines="ortho",
    **kwargs,
):
    """Draw `model`'s layer graph to `to_file`, its format given by the extension (png, svg,
    pdf, ... rendered by Graphviz's `dot` program; `.dot` writes the graph's source)."""
    dot = model_to_dot(
        model,
        show_shapes,
        show_dtype,
        show_layer_names,
        rankdir,
        expand_nested,
        dpi,
        False,
        show_layer_activations,
        show_trainable,
        splines,
        **kwargs,
    )
    extension = os.path.splitext(to_file)[1][1:].lower() or "png"
    if extension == "dot":
        dot.write(to_file, format="raw")
        return
    try:
        dot.write(to_file, format=extension)
    except FileNotFoundError:  # Keras 3 raises ImportError when Graphviz is missing, so do we
        raise ImportError(
            "plot_model needs Graphviz's `dot` program to render a model, and it was not found. "
            "Install Graphviz (https://graphviz.org/download/, e.g. `apt install graphviz`), or "
            "write the graph's source with to_file='model.dot'."
        ) from None


def _graph(model):
    """The layers to draw, in order, and the (source, target) layer pairs between them."""
    nodes = getattr(model, "_nodes", None)
    if nodes is not None:  # a functional model: its recorded graph
        layers = model.layers
        drawn = {id(layer) for layer in layers}
        edges = [
            (parent.operation, node.operation)
            for node in nodes
            if id(node.operation) in drawn
            for parent in node.parent_nodes
            if id(parent.operation) in drawn
        ]
        return layers, edges
    layers = list(model.layers)  # a stack: each layer feeds the next
    return layers, list(itertools.pairwise(layers))


def _label(layer, show):
    """The text of a layer's node: its name and class, then the details asked for."""
    kind = type(layer).__name__
    lines = [f"{layer.name} ({kind})" if show["names"] else kind]
    if show["shapes"]:
        inputs, outputs = _shapes(layer)
        lines.append(f"Input shape: {inputs}")
        lines.append(f"Output shape: {outputs}")
    if show["dtype"]:
        lines.append(f"dtype: {layer.dtype_policy.name}")
    activation = getattr(layer, "activation", None)
    if show["activations"] and activation is not None:
        lines.append(f"Activation: {getattr(activation, '__name__', type(activation).__name__)}")
    if show["trainable"]:
        lines.append(f"Trainable: {layer.trainable}")
    return "\n".join(lines)


def _shapes(layer):
    """The input and output shapes of the layer's last call on symbolic tensors ("?" if none)."""
    if not layer._inbound_nodes:
        return "?", "?"
    node = layer._inbound_nodes[-1]

    def shapes(tensors):
        found = [tuple(x.shape) for x in tensors]
        return "?" if not found else found[0] if len(found) == 1 else found

    return shapes(node.input_tensors or tree.flatten(node.outputs)), shapes(node.output_tensors)
