"""The torch backend: numpy-style ops that make arrays (filled, ranges, grids, windows).

Dtypes follow `tripod.backends.dtypes` (Python scalars are weak). Unsigned 16/32/64-bit tensors,
which torch stores but barely computes with, are computed in a wider signed type and cast back.
"""

import torch

from tripod.backends.torch.helpers import (
    as_shape,
    filled,
    python_number,
    widen,
)
from tripod.backends.torch.tensors import (
    COMPUTE_DTYPES,
    SCALARS,
    cast_to,
    convert_to_tensor,
    current_device,
    dtype_name,
    kind_of,
    tensor_or_scalar,
    to_torch_dtype,
    torch_result_type,
)

__all__ = [
    "arange",
    "diag",
    "diagflat",
    "eye",
    "full",
    "full_like",
    "linspace",
    "meshgrid",
    "ones",
    "ones_like",
    "tril",
    "triu",
    "zeros",
    "zeros_like",
]


# -- creation ---------------------------------------------------------------------------------
def _creation_dtype(dtype, *values):
    """The dtype of a created tensor: `dtype`, else the result type of the `values`."""
    if dtype is not None:
        return to_torch_dtype(dtype)
    return torch_result_type(*(kind_of(tensor_or_scalar(v)) for v in values if v is not None))


def zeros(shape, dtype=None):
    return filled(shape, 0, dtype)


def ones(shape, dtype=None):
    return filled(shape, 1, dtype)


def zeros_like(x, dtype=None):
    x = convert_to_tensor(x)
    return torch.zeros_like(x, dtype=to_torch_dtype(dtype) if dtype is not None else x.dtype)


def ones_like(x, dtype=None):
    x = convert_to_tensor(x)
    return filled(x.shape, 1, dtype if dtype is not None else x.dtype)


def full(shape, fill_value, dtype=None):
    dtype = to_torch_dtype(dtype)
    if type(fill_value) in SCALARS:
        return filled(shape, fill_value, dtype)
    return convert_to_tensor(fill_value, dtype).expand(as_shape(shape)).clone()


def full_like(x, fill_value, dtype=None):
    x = convert_to_tensor(x)
    return full(x.shape, fill_value, dtype if dtype is not None else x.dtype)


def eye(N, M=None, k=0, dtype=None):
    M = N if M is None else M
    rows = torch.arange(int(N), device=current_device()).unsqueeze(1)
    cols = torch.arange(int(M), device=current_device()).unsqueeze(0)
    return (cols - rows == int(k)).to(to_torch_dtype(dtype))


def arange(start, stop=None, step=None, dtype=None):
    out_dtype = _creation_dtype(dtype, start, stop, step)
    if stop is None:
        start, stop = 0, start
    start, stop = python_number(start), python_number(stop)
    step = 1 if step is None else python_number(step)
    compute = COMPUTE_DTYPES.get(out_dtype, out_dtype)
    if compute == torch.bool:
        compute = torch.int8
    if (stop - start) * step <= 0:  # numpy gives an empty range where torch refuses
        return torch.zeros((0,), dtype=out_dtype, device=current_device())
    return cast_to(
        torch.arange(start, stop, step, dtype=compute, device=current_device()), out_dtype
    )


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    num = int(num)
    start, stop = convert_to_tensor(start), convert_to_tensor(stop)
    float_dtype = torch_result_type(dtype_name(start), dtype_name(stop), float)
    out_dtype = to_torch_dtype(dtype) if dtype is not None else float_dtype
    start, stop = torch.broadcast_tensors(start.to(torch.float64), stop.to(torch.float64))
    div = (num - 1) if endpoint else num
    step = (stop - start) / div if div > 0 else torch.full_like(start, float("nan"))
    shape = (num,) + (1,) * start.ndim
    steps = torch.arange(num, dtype=torch.float64, device=start.device).reshape(shape)
    out = start + steps * (step if div > 0 else 0)
    if endpoint and num > 1:
        out[-1] = stop
    out = torch.movedim(out, 0, axis)
    if not (out_dtype.is_floating_point or out_dtype.is_complex):
        out = torch.floor(out)
    out = out.to(out_dtype)
    return (out, step.to(float_dtype)) if retstep else out


def meshgrid(*x, indexing="xy"):
    if indexing not in ("xy", "ij"):
        raise ValueError(f"indexing must be 'xy' or 'ij', received {indexing!r}.")
    tensors = [convert_to_tensor(v).reshape(-1) for v in x]
    lengths = [t.shape[0] for t in tensors]
    # Output dim of each input: its own position, the first two swapped for 'xy'.
    order = list(range(len(tensors)))
    if indexing == "xy" and len(order) > 1:
        order[0], order[1] = 1, 0
    shape = [lengths[order.index(d)] for d in range(len(tensors))]
    grids = []
    for t, d in zip(tensors, order):
        view = [1] * len(tensors)
        view[d] = t.shape[0]
        grids.append(t.reshape(view).expand(shape))
    return grids


def diag(x, k=0):
    x = convert_to_tensor(x)
    if x.ndim not in (1, 2):
        raise ValueError(f"diag needs a 1-D or 2-D input, got rank {x.ndim}.")
    return cast_to(torch.diag(widen(x), k), x.dtype)


def diagflat(x, k=0):
    x = convert_to_tensor(x)
    return cast_to(torch.diagflat(widen(x), k), x.dtype)


def tril(x, k=0):
    x = convert_to_tensor(x)
    return cast_to(torch.tril(widen(x), k), x.dtype)


def triu(x, k=0):
    x = convert_to_tensor(x)
    return cast_to(torch.triu(widen(x), k), x.dtype)
