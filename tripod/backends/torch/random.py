"""The torch backend: random ops, each drawing from a `torch.Generator` seeded from the op's key.

`draw_seed` turns the `seed` argument into a two-word key; the same int seed gives the same key,
so the same numbers. Inside a torch.compile trace, where a generator cannot be made (it would
break the graph and compile once per key value), `uniform`, `normal` and `dropout` hash each
element's index with the key instead: other numbers than eager draws, as a compiled step's are.
"""

import math

import numpy as np
import torch

from tripod import backends
from tripod.backends import dtypes
from tripod.backends.common.random_args import dropout_rate
from tripod.backends.common.seed import draw_seed
from tripod.backends.torch.helpers import HALF_DTYPES, as_shape, python_number
from tripod.backends.torch.tensors import convert_to_tensor, current_device, to_torch_dtype

__all__ = [
    "beta",
    "binomial",
    "categorical",
    "dropout",
    "gamma",
    "normal",
    "randint",
    "shuffle",
    "truncated_normal",
    "uniform",
]

_MASK64 = 2**64 - 1


def _mix(value):
    """splitmix64's finalizer: every bit of a 64-bit value spread over all 64 (torch's CPU
    generator keeps only the low 32 bits of its seed)."""
    value = (value ^ (value >> 30)) * 0xBF58476D1CE4E5B9 & _MASK64
    value = (value ^ (value >> 27)) * 0x94D049BB133111EB & _MASK64
    return value ^ (value >> 31)


def _generator(seed, device=None):
    """A generator seeded from `seed`'s two-word key."""
    key = draw_seed(seed, backends.load("torch"))
    high, low = key.tolist() if isinstance(key, torch.Tensor) else np.asarray(key).tolist()
    return torch.Generator(device=device or current_device()).manual_seed(
        _mix((int(high) << 32) | int(low))
    )


_MASK32 = 2**32 - 1


def _mix32(x):
    """A 32-bit integer hash of each element of int64 `x` (values in [0, 2**32)): shifts and
    multiplications by odd constants below 2**31, so no product leaves int64."""
    x = x ^ (x >> 16)
    x = (x * 0x21F0AAAD) & _MASK32
    x = x ^ (x >> 15)
    x = (x * 0x735A2D97) & _MASK32
    return x ^ (x >> 15)


def _hashed_uniform(shape, seed, device):
    """float32 draws in [0, 1) of `shape`, each the hash of its index under `seed`'s key: tensor
    arithmetic only, so that a torch.compile trace keeps it in its graph."""
    key = draw_seed(seed, backends.load("torch"))
    key = torch.as_tensor(key, device=device).to(torch.int64)
    # the key's two words become one well-mixed word, then each index is hashed under it
    word = _mix32(key[0] ^ _mix32(key[1] + 0x5BD1E995))
    index = torch.arange(math.prod(shape), device=device, dtype=torch.int64)
    bits = _mix32(_mix32(index ^ word) ^ _mix32(word ^ 0x27D4EB2F))
    return ((bits >> 8).to(torch.float32) * 2.0**-24).reshape(shape)


def _uniform_draws(shape, seed, dtype, device):
    """Draws in [0, 1) of `shape` and `dtype`: from a seeded generator, or hashed inside a trace."""
    if torch.compiler.is_compiling():
        return _hashed_uniform(shape, seed, device).to(dtype)
    return torch.rand(shape, generator=_generator(seed, device), dtype=dtype, device=device)


def _normal_draws(shape, seed, dtype, device):
    """Standard normal draws of `shape`: from a seeded generator, or inside a trace by the
    Box-Muller transform of two hashed uniform draws per element."""
    if not torch.compiler.is_compiling():
        return torch.randn(shape, generator=_generator(seed, device), dtype=dtype, device=device)
    radius_draw, angle_draw = _hashed_uniform((2, *shape), seed, device).to(dtype)
    radius = torch.sqrt(-2.0 * torch.log1p(-radius_draw))
    return radius * torch.cos(2.0 * math.pi * angle_draw)


def _float_dtype(dtype, op):
    """The torch float dtype to return (None: floatx), and the one to sample in."""
    name = dtypes.standardize_dtype(dtype)
    if not dtypes.is_float(name):
        raise ValueError(f"{op}: dtype must be a float type, received {dtype!r}.")
    out = to_torch_dtype(name)
    return out, (torch.float32 if out in HALF_DTYPES else out)


def _param(value, compute):
    """A distribution parameter: a Python number stays one, anything else becomes a tensor."""
    if isinstance(value, (int, float)):
        return value
    return convert_to_tensor(value, compute)


def normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    out, compute = _float_dtype(dtype, "normal")
    sample = _normal_draws(as_shape(shape), seed, compute, current_device())
    return (sample * _param(stddev, compute) + _param(mean, compute)).to(out)


def uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    out, compute = _float_dtype(dtype, "uniform")
    low, high = _param(minval, compute), _param(maxval, compute)
    sample = _uniform_draws(as_shape(shape), seed, compute, current_device())
    return (sample * (high - low) + low).to(out)


def randint(shape, minval, maxval, dtype="int32", seed=None):
    out = to_torch_dtype(dtype)
    if not dtypes.is_int(dtypes.standardize_dtype(dtype)):
        raise ValueError(f"randint: dtype must be an integer type, received {dtype!r}.")
    low, high = int(python_number(minval)), int(python_number(maxval))
    sample = torch.randint(
        low,
        high,
        as_shape(shape),
        generator=_generator(seed),
        dtype=torch.int64,
        device=current_device(),
    )
    return sample.to(out)


_TRUNCATION = 2.0
_CDF_LOW = 0.5 * (1.0 + math.erf(-_TRUNCATION / math.sqrt(2.0)))


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    out, _ = _float_dtype(dtype, "truncated_normal")
    # Inverse-CDF sampling of a standard normal restricted to [-2, 2].
    u = torch.rand(
        as_shape(shape), generator=_generator(seed), dtype=torch.float64, device=current_device()
    )
    u = _CDF_LOW + u * (1.0 - 2.0 * _CDF_LOW)
    z = math.sqrt(2.0) * torch.special.erfinv(2.0 * u - 1.0)
    z = z.clamp(-_TRUNCATION, _TRUNCATION)
    return (z * _param(stddev, torch.float64) + _param(mean, torch.float64)).to(out)


def dropout(inputs, rate, noise_shape=None, seed=None):
    x = convert_to_tensor(inputs)
    rate = dropout_rate(python_number(rate))
    if noise_shape is None:
        shape = x.shape
    else:
        shape = tuple(x.shape[i] if d is None else int(d) for i, d in enumerate(noise_shape))
    keep = 1.0 - rate
    draws = _uniform_draws(shape, seed, torch.float32, x.device)
    kept = draws < keep
    if keep == 0.0:
        return torch.zeros_like(x)
    return torch.where(kept, x / keep, torch.zeros((), dtype=x.dtype, device=x.device)).to(x.dtype)


def shuffle(x, axis=0, seed=None):
    x = convert_to_tensor(x)
    n = x.shape[axis]
    order = torch.randperm(n, generator=_generator(seed, x.device), device=x.device)
    return torch.index_select(x, axis, order)


def categorical(logits, num_samples, dtype="int32", seed=None):
    logits = convert_to_tensor(logits)
    if logits.ndim != 2:
        raise ValueError(f"categorical: logits must be 2-D, got shape {tuple(logits.shape)}.")
    probabilities = torch.softmax(logits.to(torch.float64), dim=-1)
    sample = torch.multinomial(
        probabilities,
        int(num_samples),
        replacement=True,
        generator=_generator(seed, logits.device),
    )
    return sample.to(to_torch_dtype(dtype))


def _standard_gamma(alpha, generator):
    """Gamma(alpha, 1) samples, one per element of float64 `alpha` (Marsaglia and Tsang)."""
    boosted = alpha < 1.0
    a = torch.where(boosted, alpha + 1.0, alpha)
    d = a - 1.0 / 3.0
    c = 1.0 / torch.sqrt(9.0 * d)
    out = torch.empty_like(alpha)
    pending = torch.ones_like(alpha, dtype=torch.bool)
    while bool(pending.any()):
        index = pending.nonzero(as_tuple=True)
        dd, cc = d[index], c[index]
        z = torch.randn(dd.shape, generator=generator, dtype=alpha.dtype, device=alpha.device)
        u = torch.rand(dd.shape, generator=generator, dtype=alpha.dtype, device=alpha.device)
        v = (1.0 + cc * z) ** 3
        log_v = torch.log(torch.clamp(v, min=1e-300))
        accept = (v > 0) & (torch.log(u) < 0.5 * z * z + dd - dd * v + dd * log_v)
        taken = tuple(i[accept] for i in index)
        out[taken] = (dd * v)[accept]
        pending[taken] = False
    # For alpha < 1: Gamma(alpha) = Gamma(alpha + 1) * U ** (1 / alpha).
    u = torch.rand(alpha.shape, generator=generator, dtype=alpha.dtype, device=alpha.device)
    return torch.where(boosted, out * u ** (1.0 / alpha), out)


def _gamma_draws(shape, alphas, generator):
    """Independent standard gamma draws of `shape`, one tensor per alpha in `alphas`."""
    shape = as_shape(shape)
    return [
        _standard_gamma(
            convert_to_tensor(a, "float64").to(current_device()).expand(shape).contiguous(),
            generator,
        )
        for a in alphas
    ]


def gamma(shape, alpha, dtype=None, seed=None):
    out, _ = _float_dtype(dtype, "gamma")
    (sample,) = _gamma_draws(shape, [alpha], _generator(seed))
    return sample.to(out)


def beta(shape, alpha, beta, dtype=None, seed=None):
    out, _ = _float_dtype(dtype, "beta")
    x, y = _gamma_draws(shape, [alpha, beta], _generator(seed))
    return (x / (x + y)).to(out)


def binomial(shape, counts, probabilities, dtype=None, seed=None):
    out, _ = _float_dtype(dtype, "binomial")
    shape = as_shape(shape)
    counts = convert_to_tensor(counts, "float32").to(current_device()).expand(shape).contiguous()
    probabilities = convert_to_tensor(probabilities, "float32").to(current_device()).expand(shape)
    sample = torch.binomial(counts, probabilities.contiguous(), generator=_generator(seed))
    return sample.to(out)
