"""The torch backend: core ops (tensors, conversion, dtypes, shape, control flow)."""

import builtins
import functools
import threading

import ml_dtypes
import numpy as np
import torch

from tripod.backends import config, dtypes
from tripod.backends.common import blocks, loops, tree, variables

#: where tensors created from host data live when no `tripod.device` scope says otherwise
_DEFAULT_DEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class _Placement(threading.local):
    """Each thread's device for new tensors: the default, or the innermost device scope's."""

    def __init__(self):
        self.device = _DEFAULT_DEVICE


_placement = _Placement()


def _device():
    """The device new tensors go to now."""
    return _placement.device


#: tripod dtype name <-> torch dtype
_TORCH_DTYPES = {name: getattr(torch, name) for name in dtypes.ALLOWED}
_NAMES = {torch_dtype: name for name, torch_dtype in _TORCH_DTYPES.items()}

#: unsigned types torch has little arithmetic for -> the type to compute them in
_COMPUTE = {torch.uint16: torch.int32, torch.uint32: torch.int64, torch.uint64: torch.int64}

_SCALARS = (bool, int, float, complex)
#: sizes torch.export traces symbolically -> the Python scalar type they stand for
_SYMBOLIC = {torch.SymInt: int, torch.SymFloat: float, torch.SymBool: bool}
_BFLOAT16 = np.dtype(ml_dtypes.bfloat16)


def _to_torch_dtype(dtype):
    """The torch dtype for a tripod dtype (name, type, dtype object; None means floatx)."""
    if isinstance(dtype, torch.dtype):
        return dtype
    found = _TORCH_DTYPES.get(dtype) if isinstance(dtype, str) else None
    return found or _TORCH_DTYPES[dtypes.standardize_dtype(dtype)]


def _dtype_name(x):
    """The tripod dtype name of torch tensor `x`."""
    return _NAMES[x.dtype]


_RESULT_TYPES = {}


def _result_type(*kinds):
    """The torch result dtype of mixing tripod dtype names and Python scalar types (cached)."""
    key = (config.floatx(), kinds)
    found = _RESULT_TYPES.get(key)
    if found is None:
        found = _RESULT_TYPES[key] = _TORCH_DTYPES[dtypes.result_type(*kinds)]
    return found


def _cast_to(x, dtype):
    """Tensor `x` as torch `dtype`, skipping `.to`'s call overhead when it already is one."""
    return x if x.dtype == dtype else x.to(dtype)


def _kind(x):
    """`x`'s dtype name if it is a tensor, else its weak Python scalar type."""
    return _NAMES[x.dtype] if isinstance(x, torch.Tensor) else type(x)


def _tensor_or_scalar(x):
    """`x` as a tensor, or unchanged if it is a Python scalar (a weak operand)."""
    if isinstance(x, torch.Tensor) or type(x) in _SCALARS:
        return x
    return convert_to_tensor(x)


def _operands(x1, x2, floating=False):
    """Both operands in their shared result dtype (at least a float when `floating`); a Python
    scalar second operand stays one.

    Returns (x1, x2, dtype). Torch computes a tensor-scalar op in the tensor's dtype, which is
    then the result dtype already.
    """
    x1, x2 = _tensor_or_scalar(x1), _tensor_or_scalar(x2)
    t1, t2 = isinstance(x1, torch.Tensor), isinstance(x2, torch.Tensor)
    if t1 and t2 and x1.dtype == x2.dtype and (not floating or x1.dtype.is_floating_point):
        return x1, x2, x1.dtype
    kinds = (_kind(x1), _kind(x2), float) if floating else (_kind(x1), _kind(x2))
    dtype = _result_type(*kinds)
    # Torch wants a tensor first; the second operand may stay a Python scalar.
    if t1:
        x1 = _cast_to(x1, dtype)
    else:
        x1 = torch.tensor(x1, dtype=dtype, device=x2.device if t2 else _device())
    if t2:
        x2 = _cast_to(x2, dtype)
    return x1, x2, dtype


def _promote(*xs):
    """Every operand as a tensor of their shared result dtype (Python scalars are weak)."""
    xs = [_tensor_or_scalar(x) for x in xs]
    dtype = _result_type(*(_kind(x) for x in xs))
    device = next((x.device for x in xs if isinstance(x, torch.Tensor)), _device())
    return [
        _cast_to(x, dtype)
        if isinstance(x, torch.Tensor)
        else torch.tensor(x, dtype=dtype, device=device)
        for x in xs
    ]


def _widened(x):
    """`x` in a type torch computes with (unsigned 16/32/64-bit widened), and its own dtype."""
    wide = _COMPUTE.get(x.dtype)
    return (x, x.dtype) if wide is None else (x.to(wide), x.dtype)


def _from_numpy(array):
    """A NumPy array as a tensor on the default device (bfloat16 through its bits)."""
    if array.dtype == _BFLOAT16:
        return _from_numpy(array.view(np.uint16)).view(torch.bfloat16)
    if not array.flags.writeable or builtins.any(s < 0 for s in array.strides):
        array = np.array(array)
    tensor = torch.from_numpy(array)
    device = _placement.device
    return tensor if device.type == "cpu" else tensor.to(device)


def _holds_tensor(x):
    """Whether the (nested) list or tuple `x` holds a torch tensor or a Variable."""
    return builtins.any(
        isinstance(v, (torch.Tensor, variables.Variable))
        or (isinstance(v, (list, tuple)) and _holds_tensor(v))
        for v in x
    )


def _stack_sequence(x):
    """A (nested) list mixing tensors and other values as one stacked tensor."""
    parts = [convert_to_tensor(v) for v in x]
    return torch.stack(_promote(*parts)) if parts else torch.zeros((0,), device=_device())


def _unwrap(x):
    """`x` with every tripod Variable inside lists, tuples and dicts replaced by its value."""
    if isinstance(x, variables.Variable):
        return x.value
    if isinstance(x, (list, tuple)):
        return type(x)(_unwrap(v) for v in x)
    if isinstance(x, dict):
        return {k: _unwrap(v) for k, v in x.items()}
    return x


def convert_to_tensor(x, dtype=None, sparse=None, ragged=None):
    if sparse or ragged:
        raise ValueError("The torch backend has no sparse or ragged tensors.")
    if isinstance(x, variables.Variable):
        x = x.value
    if isinstance(x, torch.Tensor):
        return x if dtype is None else _cast_to(x, _to_torch_dtype(dtype))
    symbolic = _SYMBOLIC.get(type(x))
    if symbolic is not None:
        # a size torch.export traces symbolically (e.g. the batch): a 0-d tensor of its value
        target = _result_type(symbolic) if dtype is None else _to_torch_dtype(dtype)
        return torch.scalar_tensor(x, dtype=target, device=_device())
    if dtype is not None:
        target = _to_torch_dtype(dtype)
        if type(x) in _SCALARS:
            return torch.tensor(x, dtype=target, device=_device())
        if isinstance(x, np.ndarray) or (isinstance(x, (list, tuple)) and _holds_tensor(x)):
            return _cast_to(convert_to_tensor(x), target)
        return _from_numpy(np.asarray(x, dtype=dtypes.to_numpy(_NAMES[target])))
    kind = type(x)
    if kind in _SCALARS:
        return torch.tensor(x, dtype=_result_type(kind), device=_device())
    if kind is np.ndarray:
        return _from_numpy(x)
    if isinstance(x, (list, tuple)) and _holds_tensor(x):
        return _stack_sequence(x)
    array = np.asarray(x)
    if not isinstance(x, np.generic):
        if array.dtype == np.float64:
            array = array.astype(dtypes.to_numpy(float))
        elif array.dtype == np.int64:
            array = array.astype(np.int32)
    return _from_numpy(array)


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
    if x.dtype == torch.bfloat16:
        array = x.view(torch.uint16).numpy().view(_BFLOAT16)
    else:
        array = x.numpy()
    return array.copy() if copy else array


def cast(x, dtype):
    return _cast_to(convert_to_tensor(x), _to_torch_dtype(dtype))


def is_tensor(x):
    return isinstance(x, torch.Tensor)


def dtype(x):
    if isinstance(x, torch.Tensor):
        return _NAMES[x.dtype]
    if isinstance(x, variables.Variable):
        return x.dtype
    return _dtype_name(convert_to_tensor(x))


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
    target = _to_torch_dtype(dtype)
    if torch.bool in (x.dtype, target) or x.is_complex() or target.is_complex:
        return _cast_to(x, target)
    low, high = _limits(target)
    if x.is_floating_point():
        clipped = torch.clamp(x.to(torch.float64), low, high)
        if not target.is_floating_point:
            clipped = torch.nan_to_num(clipped, nan=0.0)
        return clipped.to(target)
    wide, own = _widened(x)
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
    values, own = _widened(values)
    out = torch.zeros(shape, dtype=values.dtype, device=values.device)
    out = out.index_put(_index_tuple(indices, indices.shape[-1]), values, accumulate=True)
    return out.to(own)


_REDUCTIONS = {"max": "amax", "min": "amin", "mul": "prod"}


def scatter_update(inputs, indices, updates, reduction=None):
    inputs, own = _widened(convert_to_tensor(inputs))
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
        return torch.stack(_promote(*(convert_to_tensor(v) for v in leaves)))

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
    from torch._higher_order_ops.scan import scan as traced

    def step(carry, x_leaves):
        new_carry, y = f(carry, tree.pack_sequence_as(xs, list(x_leaves)))
        return tree.map_structure(torch.clone, (new_carry, y))

    carry = tree.map_structure(convert_to_tensor, init)
    return traced(step, carry, list(leaves), reverse=reverse)


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
    except Exception:  # noqa: BLE001 - ops that vmap cannot batch: run per element instead
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
        return _CustomGradient.apply(f, kwargs, *_unwrap(args))

    return wrapper
