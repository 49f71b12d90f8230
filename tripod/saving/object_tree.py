"""Which objects of a model have saved state, and under which path: Keras 3's naming.

The walk starts at the model (path "") and visits each object once, depth first:

- an object with state ("saveable": it has `save_own_variables` and `load_own_variables`, e.g. a
  layer or an optimizer) is listed under its path, then its children are visited;
- a layer's children are its attributes holding saveables or lists/tuples/dicts of them; an
  attribute's path part is its name, and a private attribute `_x` is named `x` when the class
  has a public property `x` (so `_query_dense` behind `query_dense` is saved as `query_dense`);
- public names come first, in sorted order, then private ones; a model's children are its
  `layers` list and its public attributes (`optimizer`, user attributes);
- in a list, tuple or dict, each item is named by its class in snake case, numbered per name:
  `dense`, `dense_1`, ... (items seen before still take their number).
"""

import re

_SNAKE_1 = re.compile(r"(.)([A-Z][a-z]+)")
_SNAKE_2 = re.compile(r"([a-z])([A-Z])")


def snake_case(name):
    """`MultiHeadAttention` -> `multi_head_attention`, `Conv2D` -> `conv2d` (container item names)."""
    return _SNAKE_2.sub(r"\1_\2", _SNAKE_1.sub(r"\1_\2", name)).lower()


def is_saveable(obj):
    """Whether `obj` saves state through `save_own_variables`/`load_own_variables`."""
    return (
        not isinstance(obj, type)
        and callable(getattr(obj, "save_own_variables", None))
        and callable(getattr(obj, "load_own_variables", None))
    )


def _is_model(obj):
    return callable(getattr(obj, "get_layer", None)) and hasattr(obj, "layers")


def _public_name(obj, attr):
    """The path part for attribute `attr`: `x` for `_x` behind a public property `x`."""
    if attr.startswith("_") and not attr.startswith("__"):
        public = attr[1:]
        if isinstance(getattr(type(obj), public, None), property):
            return public
    return attr


def _holds_saveables(value):
    if is_saveable(value):
        return True
    items = value.values() if isinstance(value, dict) else value
    return isinstance(value, (list, tuple, dict)) and any(is_saveable(v) for v in items)


def children(obj):
    """(path part, child or container) pairs of a layer, in visiting order."""
    if not hasattr(obj, "_layers"):
        return []  # optimizers and other saveables keep all their state in their own variables
    skip = getattr(obj, "_UNTRACKED", frozenset())
    model = _is_model(obj)
    found = {"layers": list(obj.layers)} if model else {}
    for attr, value in vars(obj).items():
        if attr in skip or attr.startswith("__") or not _holds_saveables(value):
            continue
        name = _public_name(obj, attr)
        if model and name.startswith("_"):
            continue  # a model's private attributes are its own bookkeeping, not extra state
        found.setdefault(name, value)
    order = sorted(found, key=lambda name: (name.startswith("_"), name))
    return [(name, found[name]) for name in order]


def walk(root):
    """[(path, object)] for `root` and every saveable below it, each object once."""
    result, visited = [], set()
    _visit(root, "", result, visited)
    return result


def _join(path, part):
    return f"{path}/{part}" if path else part


def _visit(obj, path, result, visited):
    if id(obj) in visited:
        return
    visited.add(id(obj))
    result.append((path, obj))
    for part, child in children(obj):
        if is_saveable(child):
            _visit(child, _join(path, part), result, visited)
        else:
            _visit_container(child, _join(path, part), result, visited)


def _visit_container(container, path, result, visited):
    items = container.values() if isinstance(container, dict) else container
    counts = {}
    for item in items:
        if not is_saveable(item):
            continue
        base = snake_case(type(item).__name__)
        number = counts.get(base, 0)
        counts[base] = number + 1
        _visit(item, _join(path, base if number == 0 else f"{base}_{number}"), result, visited)
