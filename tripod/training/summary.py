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


def _rows(model, expand_nested, depth=0):
    rows = []
    for layer in model.layers:
        name = f"{'  ' * depth}{layer.name} ({type(layer).__name__})"
        params = _count(layer.weights) if layer.built else 0
        rows.append((name, _format_shape(layer), f"{params:,}" if layer.built else "0 (unbuilt)", layer.trainable))
        if expand_nested and hasattr(layer, "layers") and layer.layers:
            rows.extend(_rows(layer, expand_nested, depth + 1))
    return rows


def print_summary(model, line_length=None, positions=None, print_fn=None, expand_nested=False,
                  show_trainable=False, layer_range=None):  # fmt: skip
    """Print (or hand to `print_fn`, line by line) the summary table of `model`."""
    print_fn = print_fn or print
    rows = _rows(model, expand_nested)
    if layer_range is not None:
        names = [r[0].strip().split(" (")[0] for r in rows]
        start, end = names.index(layer_range[0]), names.index(layer_range[1])
        rows = rows[start : end + 1]
    headers = ["Layer (type)", "Output Shape", "Param #"] + (["Trainable"] if show_trainable else [])
    table = [tuple(r[:3]) + ((("Y" if r[3] else "N"),) if show_trainable else ()) for r in rows]
    widths = [max(len(h), *(len(str(r[i])) for r in table)) if table else len(h) for i, h in enumerate(headers)]
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
