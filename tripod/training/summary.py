"""`Model.summary()`: a table of layers, output shapes and parameter counts."""

from tripod.backends.common import tree


def _format_shape(layer):
    nodes = getattr(layer, "_inbound_nodes", [])
    if not nodes or nodes[0].outputs is None:
        return "?"
    shapes = tree.map_structure(lambda x: x.shape, nodes[0].outputs)
    if tree.is_nested(shapes) and not isinstance(shapes, tuple):
        return str(tree.flatten(tree.map_shape_structure(tuple, shapes)))
    return str(shapes)


def _count(variables):
    total = 0
    for v in variables:
        size = 1
        for d in v.shape:
            size *= d
        total += size
    return total


def _bytes(variables):
    size = 0
    for v in variables:
        count = 1
        for d in v.shape:
            count *= d
        size += count * _itemsize(v.dtype)
    return size


def _itemsize(dtype):
    digits = "".join(c for c in str(dtype) if c.isdigit())
    return max(1, int(digits) // 8) if digits else 1


def _human(n):
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.2f} {unit}" if unit != "B" else f"{n} B"
        n /= 1024
    return f"{n:.2f} GB"


def _is_chain(model):
    """Whether the model runs its layers as a plain chain: a Sequential, a subclassed model, or a
    functional graph with one input, no shared layer and no branch or merge (Keras then shows no
    "Connected to" column)."""
    nodes = getattr(model, "_nodes", None)
    if nodes is None:
        return True
    layers, parents = set(), set()
    for node in nodes:
        if len(node.input_tensors) > 1 or id(node.operation) in layers:
            return False
        layers.add(id(node.operation))
        for parent in node.parent_nodes:
            if id(parent) in parents:  # a second reader of one node's output: a branch
                return False
            parents.add(id(parent))
    return sum(1 for node in nodes if node.is_input) <= 1


def _connections(layer, nodes):
    """The "Connected to" cell: every input of each call of `layer` in the model, as
    `layer_name[node_index][tensor_index]` (as Keras writes it), or "-" for none."""
    refs = []
    for node in layer._inbound_nodes:
        if id(node) in nodes:
            for x in node.input_tensors:
                source, node_index, tensor_index = x._keras_history
                refs.append(f"{source.name}[{node_index}][{tensor_index}]")
    return ", ".join(refs) or "-"


def _rows(model, expand_nested, depth=0):
    """(name, output shape, params, trainable, connections) per layer; connections are None
    in a model whose layers form a plain chain."""
    nodes = None if _is_chain(model) else {id(node) for node in model._nodes}
    rows = []
    for layer in model.layers:
        name = f"{'  ' * depth}{layer.name} ({type(layer).__name__})"
        params = _count(layer.weights) if layer.built else 0
        connected = _connections(layer, nodes) if nodes is not None else None
        count = f"{params:,}" if layer.built else "0 (unbuilt)"
        rows.append((name, _format_shape(layer), count, layer.trainable, connected))
        if expand_nested and hasattr(layer, "layers") and layer.layers:
            rows.extend(_rows(layer, expand_nested, depth + 1))
    return rows


def print_summary(
    model,
    line_length=None,
    positions=None,
    print_fn=None,
    expand_nested=False,
    show_trainable=False,
    layer_range=None,
):
    """Print (or hand to `print_fn`, line by line) the summary table of `model`."""
    print_fn = print_fn or print
    rows = _rows(model, expand_nested)
    if layer_range is not None:
        names = [r[0].strip().split(" (")[0] for r in rows]
        start, end = names.index(layer_range[0]), names.index(layer_range[1])
        rows = rows[start : end + 1]
    connected = not _is_chain(model)
    headers = ["Layer (type)", "Output Shape", "Param #"] + (["Connected to"] if connected else [])
    headers += ["Trainable"] if show_trainable else []
    table = [
        tuple(r[:3])
        + ((r[4] or "",) if connected else ())
        + ((("Y" if r[3] else "N"),) if show_trainable else ())
        for r in rows
    ]
    widths = [
        max(len(h), *(len(str(r[i])) for r in table)) if table else len(h)
        for i, h in enumerate(headers)
    ]
    if line_length:
        widths[0] = max(widths[0], line_length - sum(widths[1:]) - 3 * len(widths))
    rule = "━" * (sum(widths) + 3 * (len(widths) - 1))

    def line(cells):
        return " │ ".join(str(c).ljust(w) for c, w in zip(cells, widths))

    print_fn(f'Model: "{model.name}"')
    print_fn(rule)
    print_fn(line(headers))
    print_fn(rule)
    for row in table:
        print_fn(line(row))
    print_fn(rule)
    built = model.built
    trainable = model.trainable_weights if built else []
    non_trainable = model.non_trainable_weights if built else []
    everything = trainable + non_trainable
    print_fn(f" Total params: {_count(everything):,} ({_human(_bytes(everything))})")
    print_fn(f" Trainable params: {_count(trainable):,} ({_human(_bytes(trainable))})")
    print_fn(f" Non-trainable params: {_count(non_trainable):,} ({_human(_bytes(non_trainable))})")
