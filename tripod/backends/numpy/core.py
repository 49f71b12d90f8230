"""The numpy backend: core ops (tensors, conversion, shape, control flow).

Control flow runs as plain Python loops; there is no autodiff, so `stop_gradient` is the identity
and `custom_gradient` keeps only the forward value.
"""

import builtins

import numpy as np

from tripod.backends import dtypes
from tripod.backends.common import blocks, dtype_rules, errors, loops, tree, variables

__all__ = [
    "associative_scan",
    "cast",
    "cond",
    "convert_to_numpy",
    "convert_to_tensor",
    "custom_gradient",
    "dtype",
    "fori_loop",
    "is_tensor",
    "map",
    "saturate_cast",
    "scan",
    "scatter",
    "scatter_update",
    "shape",
    "slice",
    "slice_update",
    "stop_gradient",
    "switch",
    "vectorized_map",
    "while_loop",
]


def convert_to_tensor(x, dtype=None, sparse=None, ragged=None):
    errors.check_dense("numpy", sparse, ragged)
    if isinstance(x, variables.Variable):
        x = x.value
    if dtype is not None:
        return np.asarray(x, dtype=dtypes.to_numpy(dtype))
    kind = dtypes.dtype_of_python_scalar(x)
    if kind is not None:
        return np.asarray(x, dtype=dtypes.to_numpy(dtypes.result_type(kind)))
    array = np.asarray(x)
    if isinstance(x, (list, tuple)):
        return array.astype(dtype_rules.sequence_dtype(array.dtype), copy=False)
    return array


def convert_to_numpy(x):
    return np.asarray(convert_to_tensor(x))


def is_tensor(x):
    return isinstance(x, (np.ndarray, np.generic))


def dtype(x):
    return dtypes.standardize_dtype(convert_to_tensor(x).dtype)


def shape(x):
    return tuple(convert_to_tensor(x).shape)


def cast(x, dtype):
    return convert_to_tensor(x).astype(dtypes.to_numpy(dtype), copy=False)


def _limits(name):
    """The (lowest, highest) finite value of dtype `name`."""
    info = np.iinfo(name) if dtypes.is_int(name) else np.finfo(dtypes.to_numpy(name))
    return info.min, info.max


def saturate_cast(x, dtype):
    x = convert_to_tensor(x)
    target = dtypes.standardize_dtype(dtype)
    source = dtypes.standardize_dtype(x.dtype)
    if source == "bool" or target == "bool" or dtypes.is_complex(target):
        return cast(x, target)
    lo, hi = _limits(target)
    if dtypes.is_int(source):
        src_lo, src_hi = _limits(source)
        clipped = np.clip(x, builtins.max(lo, src_lo), builtins.min(hi, src_hi))
    else:
        wide = x.astype(np.float64)
        clipped = np.clip(wide, lo, hi)
        if dtypes.is_int(target):
            clipped = np.where(np.isnan(clipped), 0, clipped)
    return clipped.astype(dtypes.to_numpy(target))


def stop_gradient(variable):
    return convert_to_tensor(variable)


def custom_gradient(f):
    def forward(*args, **kwargs):
        value, _ = f(*args, **kwargs)
        return value

    return forward


# -- nested structures of arrays (tripod.backends.common.tree) -----------------------------------
def _stack(structures):
    """One structure whose leaves stack the matching leaves of `structures` on a new axis 0."""
    columns = zip(*(tree.flatten(s) for s in structures))
    stacked = [
        None if col[0] is None else np.stack([convert_to_tensor(v) for v in col]) for col in columns
    ]
    return tree.pack_sequence_as(structures[0], stacked)


def _item(structure, i):
    """The `i`-th entry along axis 0 of every leaf of `structure`."""
    return tree.map_structure(lambda leaf: leaf[i], structure, none_is_leaf=False)


def _leading_length(structure):
    lengths = {np.shape(leaf)[0] for leaf in tree.flatten(structure) if leaf is not None}
    if len(lengths) != 1:
        raise ValueError(f"all inputs must have one leading dimension, received {sorted(lengths)}.")
    return lengths.pop()


# -- control flow --------------------------------------------------------------------------------
def _truth(value):
    """A condition's value (an array, a Variable or a Python value) as a Python bool."""
    return bool(np.asarray(value))


def cond(pred, true_fn, false_fn):
    return true_fn() if _truth(pred) else false_fn()


def switch(index, branches, *operands):
    chosen = int(np.clip(np.asarray(index), 0, len(branches) - 1))
    return branches[chosen](*operands)


def while_loop(cond, body, loop_vars, maximum_iterations=None):
    return loops.while_loop(cond, body, loop_vars, maximum_iterations, _truth)


def fori_loop(lower, upper, body_fun, init_val):
    return loops.fori_loop(lower, upper, body_fun, init_val)


def scan(f, init, xs=None, length=None, reverse=False, unroll=1):
    n = length if xs is None else _leading_length(xs)
    if n is None:
        raise ValueError("scan needs `xs` or `length`.")
    if length is not None and n != length:
        raise ValueError(f"scan: length={length} does not match the inputs' leading dim {n}.")
    carry, outputs = init, []
    for i in range(n - 1, -1, -1) if reverse else range(n):
        carry, y = f(carry, None if xs is None else _item(xs, i))
        outputs.append(y)
    if reverse:
        outputs.reverse()
    return carry, (_stack(outputs) if outputs else None)


def map(f, xs):
    return _stack([f(_item(xs, i)) for i in range(_leading_length(xs))])


def vectorized_map(function, elements):
    return map(function, elements)


def associative_scan(f, elems, reverse=False, axis=0):
    leaves = [convert_to_tensor(leaf) for leaf in tree.flatten(elems)]
    axis = errors.check_axis("associative_scan", axis, leaves[0].ndim)
    n = leaves[0].shape[axis]

    def element(i):
        """Entry `i` of every leaf, keeping the scanned axis (size 1) so `f` sees full ranks."""
        return tree.pack_sequence_as(elems, [np.take(leaf, [i], axis=axis) for leaf in leaves])

    order = list(range(n - 1, -1, -1)) if reverse else list(range(n))
    results = [element(order[0])] if n else []
    for i in order[1:]:
        results.append(f(results[-1], element(i)))
    if reverse:
        results.reverse()
    columns = zip(*(tree.flatten(r) for r in results))
    return tree.pack_sequence_as(elems, [np.concatenate(col, axis=axis) for col in columns])


# -- indexed updates -----------------------------------------------------------------------------
def _index_tuple(indices):
    indices = convert_to_tensor(indices)
    if not dtypes.is_int(indices.dtype):
        raise TypeError(f"indices must be integers, received {indices.dtype}.")
    return tuple(np.moveaxis(indices, -1, 0))


def scatter(indices, values, shape):
    values = convert_to_tensor(values)
    out = np.zeros(tuple(shape), dtype=values.dtype)
    np.add.at(out, _index_tuple(indices), values)
    return out


_REDUCTIONS = {"add": np.add, "max": np.maximum, "min": np.minimum, "mul": np.multiply}


def scatter_update(inputs, indices, updates, reduction=None):
    out = np.array(convert_to_tensor(inputs), copy=True)
    updates = convert_to_tensor(updates, out.dtype)
    index = _index_tuple(indices)
    if reduction is None:
        out[index] = updates
    elif reduction in _REDUCTIONS:
        _REDUCTIONS[reduction].at(out, index, updates)
    else:
        raise ValueError(
            f"reduction must be None, 'add', 'max', 'min' or 'mul', received {reduction!r}."
        )
    return out


def _window(inputs, start_indices, sizes):
    """The index tuple of the block at `start_indices` with `sizes`; ValueError if out of range."""
    starts = [int(s) for s in np.asarray(convert_to_tensor(start_indices)).reshape(-1)]
    return blocks.block_slices(starts, sizes, inputs.shape)


def slice(inputs, start_indices, shape):
    inputs = convert_to_tensor(inputs)
    return inputs[_window(inputs, start_indices, [int(s) for s in shape])].copy()


def slice_update(inputs, start_indices, updates):
    out = np.array(convert_to_tensor(inputs), copy=True)
    updates = convert_to_tensor(updates, out.dtype)
    out[_window(out, start_indices, updates.shape)] = updates
    return out
