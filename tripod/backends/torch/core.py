"""The torch backend: core ops (tensors, conversion, dtypes, shape, control flow)."""

import builtins
import functools
import warnings

import numpy as np
import torch
from torch._higher_order_ops.scan import scan as traced_scan

from tripod.backends.common import blocks, loops, tree, variables
from tripod.backends.torch.tensors import (
    BFLOAT16,
    DTYPE_NAMES,
    cast_to,
    convert_to_tensor,
    dtype_name,
    promote,
    to_torch_dtype,
    unwrap_variables,
    widened,
)

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


def _plain_host_tensor(x):
    """Tensor `x` outside autograd, on the CPU, with its conjugate and negative bits resolved.
    Each step runs only where it is needed: the checks cost a fraction of the calls."""
    if x.requires_grad:
        x = x.detach()
    if not x.is_cpu:
        x = x.cpu()
    if x.is_conj():
        x = x.resolve_conj()
    if x.is_neg():
        x = x.resolve_neg()
    return x


def convert_to_numpy(x):
    if isinstance(x, variables.Variable):
        x = x.value
    if isinstance(x, np.ndarray):
        return x
    if not isinstance(x, torch.Tensor):
        x = convert_to_tensor(x)
    copy = isinstance(x, torch.nn.Parameter)
    x = _plain_host_tensor(x)
    bfloat16 = x.dtype == torch.bfloat16  # NumPy has no bfloat16: its bits, read as ml_dtypes'
    array = x.view(torch.uint16).numpy().view(BFLOAT16) if bfloat16 else x.numpy()
    return array.copy() if copy else array


def cast(x, dtype):
    return cast_to(convert_to_tensor(x), to_torch_dtype(dtype))


def is_tensor(x):
    return isinstance(x, torch.Tensor)


def dtype(x):
    if isinstance(x, torch.Tensor):
        return DTYPE_NAMES[x.dtype]
    if isinstance(x, variables.Variable):
        return x.dtype
    return dtype_name(convert_to_tensor(x))


def shape(x):
    if isinstance(x, (torch.Tensor, np.ndarray, variables.Variable)):
        return tuple(x.shape)
    return tuple(convert_to_tensor(x).shape)


def stop_gradient(variable):
    return convert_to_tensor(variable).detach()


def _limits(dtype):
    """The (lowest, highest) finite value of a real torch dtype, as Python numbers."""
    info = torch.finfo(dtype) if dtype.is_floating_point else torch.iinfo(dtype)
    return info.min, info.max


def saturate_cast(x, dtype):
    x = convert_to_tensor(x)
    target = to_torch_dtype(dtype)
    if torch.bool in (x.dtype, target) or x.is_complex() or target.is_complex:
        return cast_to(x, target)
    low, high = _limits(target)
    if x.is_floating_point():
        clipped = torch.clamp(x.to(torch.float64), low, high)
        if not target.is_floating_point:
            clipped = torch.nan_to_num(clipped, nan=0.0)
        return clipped.to(target)
    wide, own = widened(x)
    # Bounds within both the source's range and the type it is computed in.
    (own_low, own_high), (wide_low, wide_high) = _limits(own), _limits(wide.dtype)
    low = builtins.max(low, own_low, wide_low)
    high = builtins.min(high, own_high, wide_high)
    return torch.clamp(wide, low, high).to(target)


def _index_tuple(indices, k):
    """The first `k` columns of an (..., k) integer index tensor, as a tuple of index tensors."""
    return tuple(indices[..., i] for i in range(k))


def scatter(indices, values, shape):
    indices = convert_to_tensor(indices).long()
    values = convert_to_tensor(values)
    shape = tuple(int(d) for d in shape)
    values, own = widened(values)
    out = torch.zeros(shape, dtype=values.dtype, device=values.device)
    out = out.index_put(_index_tuple(indices, indices.shape[-1]), values, accumulate=True)
    return out.to(own)


_REDUCTIONS = {"max": "amax", "min": "amin", "mul": "prod"}


def scatter_update(inputs, indices, updates, reduction=None):
    inputs, own = widened(convert_to_tensor(inputs))
    indices = convert_to_tensor(indices).long()
    updates = convert_to_tensor(updates, dtype=inputs.dtype)
    k = indices.shape[-1]
    if reduction is None or reduction == "add":
        index = _index_tuple(indices, k)
        return inputs.index_put(index, updates, accumulate=reduction == "add").to(own)
    if reduction not in _REDUCTIONS:
        raise ValueError(
            f"reduction must be None, 'add', 'max', 'min' or 'mul', received {reduction!r}."
        )
    outer, inner = inputs.shape[:k], inputs.shape[k:]
    flat_index = torch.zeros(indices.shape[:-1], dtype=torch.long, device=indices.device)
    for i, dim in enumerate(outer):
        flat_index = flat_index * dim + indices[..., i] % dim
    flat_index = flat_index.reshape(-1, *[1] * len(inner)).expand(-1, *inner)
    flat = inputs.reshape(-1, *inner)
    out = flat.scatter_reduce(0, flat_index, updates.reshape(-1, *inner), _REDUCTIONS[reduction])
    return out.reshape(inputs.shape).to(own)


def _slices(inputs, start_indices, shape):
    """The Python slices taking the block of `shape` at `start_indices`; it must fit `inputs`."""
    if isinstance(start_indices, (list, tuple)):
        starts = [int(s) for s in start_indices]
    else:
        starts = convert_to_tensor(start_indices).reshape(-1).tolist()
    return blocks.block_slices(starts, [int(n) for n in shape], inputs.shape)


def slice(inputs, start_indices, shape):
    inputs = convert_to_tensor(inputs)
    return inputs[_slices(inputs, start_indices, shape)]


def slice_update(inputs, start_indices, updates):
    inputs = convert_to_tensor(inputs)
    updates = convert_to_tensor(updates, dtype=inputs.dtype)
    out = inputs.clone()
    out[_slices(out, start_indices, updates.shape)] = updates
    return out


def cond(pred, true_fn, false_fn):
    return true_fn() if bool(pred) else false_fn()


def switch(index, branches, *operands):
    index = builtins.min(builtins.max(int(index), 0), len(branches) - 1)
    return branches[index](*operands)


def while_loop(cond, body, loop_vars, maximum_iterations=None):
    return loops.while_loop(cond, body, loop_vars, maximum_iterations)


def fori_loop(lower, upper, body_fun, init_val):
    return loops.fori_loop(lower, upper, body_fun, init_val)


def _stack_results(results):
    """Per-step results (each a structure) as one structure of stacked tensors (None stays)."""

    def stack(*leaves):
        if leaves[0] is None:
            return None
        return torch.stack(promote(*(convert_to_tensor(v) for v in leaves)))

    return tree.map_structure(stack, *results)


def _leading_leaves(xs):
    """The leaves of `xs` as tensors, and their common leading length."""
    leaves = [convert_to_tensor(leaf) for leaf in tree.flatten(xs)]
    lengths = [leaf.shape[0] if leaf.ndim else None for leaf in leaves]
    if None in lengths or any(n != lengths[0] for n in lengths[1:]):
        raise ValueError(f"The leaves of xs need one common leading dimension, got {lengths}.")
    return leaves, lengths[0]


def scan(f, init, xs=None, length=None, reverse=False, unroll=1):
    if xs is None:
        if length is None:
            raise ValueError("scan: pass xs or length.")
        leaves, n = None, int(length)
    else:
        leaves, n = _leading_leaves(xs)
        if isinstance(n, torch.SymInt):
            return _traced_scan(f, init, xs, leaves, reverse)
        if length is not None and int(length) != n:
            raise ValueError(f"scan: length {length} does not match xs' leading dimension {n}.")
    carry, ys = init, []
    for i in range(n - 1, -1, -1) if reverse else range(n):
        x = None if leaves is None else tree.pack_sequence_as(xs, [leaf[i] for leaf in leaves])
        carry, y = f(carry, x)
        ys.append(y)
    if reverse:
        ys.reverse()
    return carry, (_stack_results(ys) if ys else None)


def _traced_scan(f, init, xs, leaves, reverse):
    """`scan` over a length torch.export traces symbolically (a dynamic time axis): torch's
    scan operator, which exports as a loop, where a Python loop would fix the length. Its step
    may not return its inputs, so every output is a copy."""

    def step(carry, x_leaves):
        new_carry, y = f(carry, tree.pack_sequence_as(xs, list(x_leaves)))
        return tree.map_structure(torch.clone, (new_carry, y))

    carry = tree.map_structure(convert_to_tensor, init)
    return traced_scan(step, carry, list(leaves), reverse=reverse)


def map(f, xs):
    leaves, n = _leading_leaves(xs)
    results = [f(tree.pack_sequence_as(xs, [leaf[i] for leaf in leaves])) for i in range(n)]
    return _stack_results(results)


def associative_scan(f, elems, reverse=False, axis=0):
    leaves = [convert_to_tensor(leaf) for leaf in tree.flatten(elems)]
    if reverse:
        leaves = [leaf.flip(axis) for leaf in leaves]
    n = leaves[0].shape[axis]
    offset = 1
    # Hillis-Steele: after the step with offset o, position i combines positions i-2o+1 .. i.
    while offset < n:
        earlier = [leaf.narrow(axis, 0, n - offset) for leaf in leaves]
        later = [leaf.narrow(axis, offset, n - offset) for leaf in leaves]
        earlier, later = (tree.pack_sequence_as(elems, part) for part in (earlier, later))
        combined = tree.flatten(f(earlier, later))
        leaves = [
            torch.cat([leaf.narrow(axis, 0, offset), convert_to_tensor(c).to(leaf.dtype)], axis)
            for leaf, c in zip(leaves, combined)
        ]
        offset *= 2
    if reverse:
        leaves = [leaf.flip(axis) for leaf in leaves]
    return tree.pack_sequence_as(elems, leaves)


def vectorized_map(function, elements):
    elements = tree.map_structure(convert_to_tensor, elements)
    try:
        return torch.vmap(function)(elements)
    except Exception as error:  # noqa: BLE001 - ops that vmap cannot batch: run per element
        warnings.warn(
            f"vectorized_map: torch.vmap cannot batch {getattr(function, '__name__', function)!r} "
            f"({type(error).__name__}: {error}); it runs once per element instead, slower.",
            stacklevel=2,
        )
        return map(function, elements)


class _CustomGradient(torch.autograd.Function):
    """Runs `f` forward and its own gradient function backward."""

    @staticmethod
    def forward(ctx, f, kwargs, *args):
        outputs, ctx.grad_fn = f(*args, **kwargs)
        ctx.num_args = len(args)
        return outputs

    @staticmethod
    def backward(ctx, *upstream):
        grads = ctx.grad_fn(*upstream)
        grads = list(grads) if isinstance(grads, (list, tuple)) else [grads]
        grads += [None] * (ctx.num_args - len(grads))
        return (None, None, *grads)


def custom_gradient(f):
    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        return _CustomGradient.apply(f, kwargs, *unwrap_variables(args))

    return wrapper
