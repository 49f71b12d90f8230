"""Nested structures (lists, tuples, dicts, namedtuples) of leaves: `tripod.tree`.

Dicts flatten in sorted-key order, so a structure flattens the same way wherever it was built.
`None` is a leaf.
"""

import collections


class MAP_TO_NONE:
    """Returned by a `traverse` function to replace a subtree with None."""


def _is_namedtuple(x):
    return isinstance(x, tuple) and hasattr(type(x), "_fields")


_CONTAINERS = (list, tuple, dict, collections.abc.Mapping)
_LEAF_TYPES = set()  # types seen to be leaves: most calls skip the abstract-class check


def is_nested(structure):
    """Whether `structure` is a list, tuple or dict (rather than a leaf)."""
    kind = type(structure)
    if kind in _LEAF_TYPES:
        return False
    if isinstance(structure, _CONTAINERS):
        return True
    _LEAF_TYPES.add(kind)
    return False


def _children(structure):
    """(keys, values) of one level of a nested structure."""
    if isinstance(structure, collections.abc.Mapping):
        keys = sorted(structure)
        return keys, [structure[k] for k in keys]
    return list(range(len(structure))), list(structure)


def _rebuild(structure, values):
    """A structure like `structure` (one level) holding `values`."""
    if isinstance(structure, collections.abc.Mapping):
        items = dict(zip(sorted(structure), values))
        return type(structure)((k, items[k]) for k in structure)
    if _is_namedtuple(structure):
        return type(structure)(*values)
    return type(structure)(values)


def flatten(structure):
    """The leaves of `structure`, depth first, dicts in sorted-key order."""
    if not is_nested(structure):
        return [structure]
    leaves = []
    for child in _children(structure)[1]:
        leaves.extend(flatten(child))
    return leaves


def flatten_with_path(structure):
    """(path, leaf) pairs; a path is the tuple of keys/indices leading to the leaf."""
    if not is_nested(structure):
        return [((), structure)]
    pairs = []
    for key, child in zip(*_children(structure)):
        pairs.extend(((key,) + path, leaf) for path, leaf in flatten_with_path(child))
    return pairs


def _packed(structure, leaves):
    """`structure` rebuilt with leaves drawn from the iterator `leaves`. A module function, not a
    closure that calls itself: such a closure is a reference cycle that would keep the leaves (a
    step's activations and their autograd graph) alive until the garbage collector runs."""
    if not is_nested(structure):
        return next(leaves)
    return _rebuild(structure, [_packed(c, leaves) for c in _children(structure)[1]])


def pack_sequence_as(structure, flat_sequence):
    """Rebuild `structure` with the leaves taken in order from `flat_sequence`."""
    flat_sequence = list(flat_sequence)
    expected = len(flatten(structure))
    if len(flat_sequence) != expected:
        raise ValueError(
            f"pack_sequence_as: the structure has {expected} leaves, received {len(flat_sequence)}."
        )
    return _packed(structure, iter(flat_sequence))


def assert_same_structure(a, b, check_types=None):
    """Raise ValueError unless `a` and `b` nest the same way."""
    if is_nested(a) != is_nested(b):
        raise ValueError(f"The two structures don't have the same nested structure: {a} vs {b}.")
    if not is_nested(a):
        return
    keys_a, values_a = _children(a)
    keys_b, values_b = _children(b)
    if keys_a != keys_b or (check_types and type(a) is not type(b)):
        raise ValueError(f"The two structures don't have the same nested structure: {a} vs {b}.")
    for x, y in zip(values_a, values_b):
        assert_same_structure(x, y, check_types)


def assert_same_paths(a, b):
    """Raise ValueError unless `a` and `b` have the same set of leaf paths."""
    paths_a = {p for p, _ in flatten_with_path(a)}
    paths_b = {p for p, _ in flatten_with_path(b)}
    if paths_a != paths_b:
        raise ValueError(f"The structures have different paths: {sorted(paths_a ^ paths_b)}.")


def map_structure(func, *structures, none_is_leaf=True):
    """Apply `func` to the corresponding leaves of `structures`; keep the first one's nesting."""
    if not structures:
        raise ValueError("map_structure needs at least one structure.")
    if len(structures) == 1 and none_is_leaf:
        return _map_one(func, structures[0])
    for other in structures[1:]:
        assert_same_structure(structures[0], other)
    flats = [flatten(s) for s in structures]
    if none_is_leaf:
        results = [func(*leaves) for leaves in zip(*flats)]
    else:
        results = [None if leaves[0] is None else func(*leaves) for leaves in zip(*flats)]
    return pack_sequence_as(structures[0], results)


def _map_one(func, structure):
    """`map_structure(func, structure)`, one level at a time."""
    if not is_nested(structure):
        return func(structure)
    return _rebuild(structure, [_map_one(func, child) for child in _children(structure)[1]])


def map_structure_up_to(shallow_structure, func, *structures):
    """Like `map_structure`, but stop descending where `shallow_structure` has a leaf."""
    if not is_nested(shallow_structure):
        return func(*structures)
    _, shallow_children = _children(shallow_structure)
    values = []
    for i, child in enumerate(shallow_children):
        parts = [_children(s)[1][i] for s in structures]
        values.append(map_structure_up_to(child, func, *parts))
    return _rebuild(shallow_structure, values)


def traverse(func, structure, top_down=True):
    """Visit every node; a non-None result of `func` replaces that node (MAP_TO_NONE: None)."""

    def fix(value):
        return None if value is MAP_TO_NONE or isinstance(value, MAP_TO_NONE) else value

    if top_down:
        result = func(structure)
        if result is not None:
            return fix(result)
        if not is_nested(structure):
            return structure
        return _rebuild(structure, [traverse(func, c, True) for c in _children(structure)[1]])
    if is_nested(structure):
        structure = _rebuild(structure, [traverse(func, c, False) for c in _children(structure)[1]])
    result = func(structure)
    return structure if result is None else fix(result)


def lists_to_tuples(structure):
    """The same structure with every list turned into a tuple."""
    if not is_nested(structure):
        return structure
    values = [lists_to_tuples(c) for c in _children(structure)[1]]
    if isinstance(structure, list):
        return tuple(values)
    return _rebuild(structure, values)


def _is_shape(x):
    return isinstance(x, (list, tuple)) and all(d is None or isinstance(d, int) for d in x)


def map_shape_structure(func, structure):
    """Apply `func` to every shape (a tuple/list of ints or None) in a nested structure."""
    if _is_shape(structure):
        return func(tuple(structure))
    if is_nested(structure):
        return _rebuild(structure, [map_shape_structure(func, c) for c in _children(structure)[1]])
    raise ValueError(f"map_shape_structure: {structure!r} is neither a shape nor a structure.")
