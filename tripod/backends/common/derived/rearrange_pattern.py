"""The einops-style `rearrange` pattern language, resolved to one reshape, transpose, reshape.

A pattern reads `"<input axes> -> <output axes>"`. Each side lists axes separated by spaces: a
name (`b`), a parenthesized group of names that share one dimension (`(h w)`), an anonymous
size-1 axis (`1` or `()`) or one `...` standing for any number of axes.
"""

import math
import re

from tripod.backends.common.derived import helpers as c

_TOKEN = re.compile(r"\.\.\.|\(|\)|[A-Za-z_][A-Za-z0-9_]*|\d+|\S")
_ELLIPSIS = "..."


def _error(message):
    return ValueError(f"ops.rearrange: {message}")


def _parse_side(text):
    """The groups of one side of a pattern: lists of axis names, or '...' for a bare ellipsis.

    An anonymous `1` adds no name; a parenthesized `...` is kept inside its group's list.
    """
    groups, current = [], None
    for token in _TOKEN.findall(text):
        if token == "(":
            if current is not None:
                raise _error(f"nested parentheses in {text!r}.")
            current = []
        elif token == ")":
            if current is None:
                raise _error(f"unbalanced parentheses in {text!r}.")
            groups.append(current)
            current = None
        elif token == _ELLIPSIS and current is None:
            groups.append(_ELLIPSIS)
        elif token == _ELLIPSIS or token.isidentifier() or token == "1":
            names = [] if token == "1" else [token]
            if current is None:
                groups.append(names)
            else:
                current.extend(names)
        else:
            raise _error(f"unexpected {token!r} in {text!r} (anonymous axes must be 1).")
    if current is not None:
        raise _error(f"unbalanced parentheses in {text!r}.")
    return groups


def _names(groups):
    """The axis names of `groups` in order, '...' included."""
    return [n for g in groups for n in ([g] if g == _ELLIPSIS else g)]


def _check_names(groups, side):
    """The named axes of one side, checked to appear once."""
    names = _names(groups)
    if len(set(names)) != len(names):
        raise _error(f"an axis is repeated on the {side} side.")
    if names.count(_ELLIPSIS) > 1:
        raise _error("'...' may appear once per side.")
    return names


def _expand_ellipsis(groups, ellipsis_axes):
    """`groups` with `...` replaced by `ellipsis_axes` (one group each at top level)."""
    expanded = []
    for group in groups:
        if group == _ELLIPSIS:
            expanded.extend([name] for name in ellipsis_axes)
        else:
            index = group.index(_ELLIPSIS) if _ELLIPSIS in group else None
            if index is None:
                expanded.append(group)
            else:
                expanded.append(group[:index] + list(ellipsis_axes) + group[index + 1 :])
    return expanded


def _resolve_sizes(groups, shape, axes_lengths):
    """The size of every elementary axis of the input side, from `shape` and `axes_lengths`."""
    sizes = dict(axes_lengths)
    for group, dim in zip(groups, shape):
        unknown = [n for n in group if n not in sizes]
        known = math.prod(sizes[n] for n in group if n not in unknown)
        if len(unknown) > 1:
            raise _error(f"cannot infer the sizes of {unknown} in one input axis.")
        if dim is None:
            if unknown and len(group) > 1:
                raise _error(f"cannot split an axis of unknown size into {group}.")
            sizes.update({n: None for n in unknown})
        elif unknown:
            if known == 0 or dim % known:
                raise _error(f"an axis of size {dim} cannot be split into {group}.")
            sizes[unknown[0]] = dim // known
        elif known != dim:
            raise _error(f"an axis of size {dim} does not match {group} (size {known}).")
    return sizes


def _group_size(group, sizes):
    """The size of an output group, or None if one of its axes has an unknown size."""
    parts = [sizes[n] for n in group]
    return None if None in parts else math.prod(parts)


def rearrange(ops, tensor, pattern, axes_lengths):
    """`tensor` rearranged by `pattern` (see the module docstring), using backend `ops`."""
    if pattern.count("->") != 1:
        raise _error(f"the pattern must contain one '->', received {pattern!r}.")
    left_text, right_text = pattern.split("->")
    left, right = _parse_side(left_text), _parse_side(right_text)
    left_names, right_names = _check_names(left, "input"), _check_names(right, "output")
    if set(left_names) != set(right_names):
        raise _error(
            f"the axes {sorted(set(left_names) ^ set(right_names))} appear on one side only."
        )
    unused = set(axes_lengths) - set(left_names)
    if unused:
        raise _error(f"axes_lengths name axes not in the pattern: {sorted(unused)}.")
    if any(g != _ELLIPSIS and _ELLIPSIS in g for g in left):
        raise _error("'...' may not be inside parentheses on the input side.")
    tensor = ops.convert_to_tensor(tensor)
    shape = c.shape(ops, tensor)
    extra = len(shape) - (len(left) - (_ELLIPSIS in left_names))
    if extra < 0 or (extra and _ELLIPSIS not in left_names):
        raise _error(
            f"the pattern {left_text.strip()!r} does not match a rank-{len(shape)} tensor."
        )
    ellipsis_axes = [f"{_ELLIPSIS}{i}" for i in range(extra)]
    left, right = _expand_ellipsis(left, ellipsis_axes), _expand_ellipsis(right, ellipsis_axes)
    sizes = _resolve_sizes(left, shape, axes_lengths)
    elementary = [n for g in left for n in g]
    result = ops.reshape(tensor, c.static_shape([sizes[n] for n in elementary]))
    result = ops.transpose(result, [elementary.index(n) for g in right for n in g])
    return ops.reshape(result, c.static_shape([_group_size(g, sizes) for g in right]))
