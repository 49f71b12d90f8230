"""Unique default names for layers and other objects: `dense`, `dense_1`, ..."""

import collections
import re

_counts = collections.defaultdict(int)


def to_snake_case(name):
    """`MultiHeadAttention` -> `multi_head_attention`."""
    name = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub(r"([a-z])([A-Z])", r"\1_\2", name).lower()


def unique_name(base):
    """`base` the first time, then `base_1`, `base_2`, ... until `reset()`."""
    count = get_uid(base) - 1
    return base if count == 0 else f"{base}_{count}"


def get_uid(prefix=""):
    """How many names `prefix` has handed out, counting this call: 1, 2, ... until `reset()`."""
    _counts[prefix] += 1
    return _counts[prefix]


def reset():
    """Forget every name handed out (part of `tripod.utils.clear_session`)."""
    _counts.clear()
