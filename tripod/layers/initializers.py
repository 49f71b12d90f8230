"""Initializers: draw a variable's first value on the host, the same on every backend.

Every initializer returns a NumPy array computed from one backend-neutral generator (NumPy's
PCG64), so the same seed gives bit-identical initial weights on jax, torch and tensorflow. An
unseeded initializer draws its seed from a host stream that `tripod.utils.set_random_seed` resets.
"""

import math

import numpy as np

from tripod.backends import dtypes
from tripod.layers.initializer_base import Initializer
from tripod.layers.stft_initializer import STFT, STFTInitializer  # noqa: F401 (public name)
from tripod.saving import registry, serialization

_host = {"rng": np.random.default_rng()}


def set_host_seed(seed):
    """Restart the host stream that unseeded initializers draw their seeds from."""
    _host["rng"] = np.random.default_rng(seed)


def _generator(seed):
    if seed is None:
        seed = int(_host["rng"].integers(0, 2**63 - 1))
    return np.random.default_rng(seed)


def _as(values, dtype):
    return np.asarray(values).astype(dtypes.to_numpy(dtypes.standardize_dtype(dtype)))


class Zeros(Initializer):
    """All zeros."""

    def __call__(self, shape, dtype=None):
        return np.zeros(shape, dtypes.to_numpy(dtypes.standardize_dtype(dtype)))


class Ones(Initializer):
    """All ones."""

    def __call__(self, shape, dtype=None):
        return np.ones(shape, dtypes.to_numpy(dtypes.standardize_dtype(dtype)))


class Constant(Initializer):
    """Every entry equal to `value` (a scalar, or an array broadcast to the shape)."""

    def __init__(self, value=0.0):
        self.value = value

    def __call__(self, shape, dtype=None):
        return _as(np.broadcast_to(np.asarray(self.value), shape), dtype)

    def get_config(self):
        value = self.value
        return {"value": value.tolist() if isinstance(value, np.ndarray) else value}


class _Seeded(Initializer):
    """An initializer drawing random numbers; `seed` (an int) makes it repeatable."""

    def __init__(self, seed=None):
        if seed is not None and not isinstance(seed, (int, np.integer)):
            raise ValueError(
                f"{type(self).__name__}: seed must be an int or None, received {seed!r}."
            )
        self.seed = seed

    def get_config(self):
        return {"seed": self.seed}


class RandomNormal(_Seeded):
    """Normal samples with the given mean and standard deviation."""

    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        super().__init__(seed)
        self.mean, self.stddev = mean, stddev

    def __call__(self, shape, dtype=None):
        return _as(_generator(self.seed).normal(self.mean, self.stddev, shape), dtype)

    def get_config(self):
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed}


def _truncated_normal(rng, mean, stddev, shape):
    """Normal samples, redrawn until every one lies within two standard deviations."""
    values = rng.standard_normal(shape)
    outside = np.abs(values) > 2
    while outside.any():
        values[outside] = rng.standard_normal(int(outside.sum()))
        outside = np.abs(values) > 2
    return mean + stddev * values


class TruncatedNormal(RandomNormal):
    """Normal samples, redrawn beyond two standard deviations from the mean."""

    def __call__(self, shape, dtype=None):
        return _as(_truncated_normal(_generator(self.seed), self.mean, self.stddev, shape), dtype)


class RandomUniform(_Seeded):
    """Uniform samples in [minval, maxval)."""

    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        super().__init__(seed)
        self.minval, self.maxval = minval, maxval

    def __call__(self, shape, dtype=None):
        return _as(_generator(self.seed).uniform(self.minval, self.maxval, shape), dtype)

    def get_config(self):
        return {"minval": self.minval, "maxval": self.maxval, "seed": self.seed}


def compute_fans(shape):
    """(fan_in, fan_out) of a kernel shape: spatial dims..., inputs, outputs."""
    shape = tuple(shape)
    if len(shape) == 0:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    receptive = math.prod(shape[:-2]) if len(shape) > 2 else 1
    return shape[-2] * receptive, shape[-1] * receptive


class VarianceScaling(_Seeded):
    """Samples scaled to the kernel's fan: variance `scale / fan` (fan_in, fan_out or fan_avg)."""

    _MODES = ("fan_in", "fan_out", "fan_avg")
    _DISTRIBUTIONS = ("truncated_normal", "untruncated_normal", "uniform", "normal")

    def __init__(
        self,
        scale=1.0,
        mode="fan_in",
        distribution="truncated_normal",
        seed=None,
        input_axes=None,
        output_axes=None,
    ):
        super().__init__(seed)
        if scale <= 0:
            raise ValueError(f"{type(self).__name__}: scale must be positive, received {scale}.")
        if mode not in self._MODES:
            raise ValueError(
                f"{type(self).__name__}: mode must be one of {self._MODES}, received {mode!r}."
            )
        if distribution not in self._DISTRIBUTIONS:
            raise ValueError(
                f"{type(self).__name__}: distribution must be one of {self._DISTRIBUTIONS}, "
                f"received {distribution!r}."
            )
        self.scale, self.mode, self.distribution = scale, mode, distribution
        self.input_axes, self.output_axes = input_axes, output_axes

    def _fans(self, shape):
        if self.input_axes is None and self.output_axes is None:
            return compute_fans(shape)
        ins = self.input_axes if self.input_axes is not None else range(len(shape) - 1)
        outs = self.output_axes if self.output_axes is not None else (len(shape) - 1,)
        return math.prod(shape[a] for a in ins), math.prod(shape[a] for a in outs)

    def __call__(self, shape, dtype=None):
        fan_in, fan_out = self._fans(shape)
        fan = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2}[self.mode]
        scale = self.scale / max(1.0, fan)
        rng = _generator(self.seed)
        if self.distribution == "truncated_normal":
            # 0.8796... is the standard deviation of a unit normal truncated to [-2, 2].
            values = _truncated_normal(rng, 0.0, math.sqrt(scale) / 0.87962566103423978, shape)
        elif self.distribution in ("normal", "untruncated_normal"):
            values = rng.normal(0.0, math.sqrt(scale), shape)
        else:
            limit = math.sqrt(3.0 * scale)
            values = rng.uniform(-limit, limit, shape)
        return _as(values, dtype)

    def get_config(self):
        return {
            "scale": self.scale,
            "mode": self.mode,
            "distribution": self.distribution,
            "seed": self.seed,
            "input_axes": self.input_axes,
            "output_axes": self.output_axes,
        }


def _preset(name, scale, mode, distribution, doc):
    """A VarianceScaling subclass with fixed scale, mode and distribution (Glorot, He, LeCun)."""

    def __init__(self, seed=None, input_axes=None, output_axes=None):
        VarianceScaling.__init__(
            self,
            scale=scale,
            mode=mode,
            distribution=distribution,
            seed=seed,
            input_axes=input_axes,
            output_axes=output_axes,
        )

    def get_config(self):
        return {"seed": self.seed, "input_axes": self.input_axes, "output_axes": self.output_axes}

    return type(
        name,
        (VarianceScaling,),
        {"__init__": __init__, "get_config": get_config, "__doc__": doc, "__module__": __name__},
    )


GlorotUniform = _preset("GlorotUniform", 1.0, "fan_avg", "uniform", "Glorot (Xavier) uniform.")
GlorotNormal = _preset(
    "GlorotNormal", 1.0, "fan_avg", "truncated_normal", "Glorot (Xavier) normal."
)
HeUniform = _preset("HeUniform", 2.0, "fan_in", "uniform", "He uniform: suits ReLU layers.")
HeNormal = _preset("HeNormal", 2.0, "fan_in", "truncated_normal", "He normal: suits ReLU layers.")
LecunUniform = _preset("LecunUniform", 1.0, "fan_in", "uniform", "LeCun uniform: suits SELU.")
LecunNormal = _preset("LecunNormal", 1.0, "fan_in", "truncated_normal", "LeCun normal: suits SELU.")


class Orthogonal(_Seeded):
    """A (semi-)orthogonal matrix times `gain`, over the last axis against all others flattened."""

    def __init__(self, gain=1.0, seed=None):
        super().__init__(seed)
        self.gain = gain

    def __call__(self, shape, dtype=None):
        if len(shape) < 2:
            raise ValueError(
                f"Orthogonal needs a shape of rank 2 or more, received {tuple(shape)}."
            )
        rows, cols = math.prod(shape[:-1]), shape[-1]
        flat = _generator(self.seed).standard_normal((max(rows, cols), min(rows, cols)))
        q, r = np.linalg.qr(flat)
        q *= np.sign(np.diag(r))
        if rows < cols:
            q = q.T
        return _as(self.gain * q.reshape(shape), dtype)

    def get_config(self):
        return {"gain": self.gain, "seed": self.seed}


class Identity(Initializer):
    """The identity matrix times `gain` (2-D shapes only)."""

    def __init__(self, gain=1.0):
        self.gain = gain

    def __call__(self, shape, dtype=None):
        if len(shape) != 2:
            raise ValueError(f"Identity needs a 2-D shape, received {tuple(shape)}.")
        return _as(self.gain * np.eye(*shape), dtype)

    def get_config(self):
        return {"gain": self.gain}


OrthogonalInitializer = Orthogonal
IdentityInitializer = Identity

_CLASSES = (
    Constant,
    GlorotNormal,
    GlorotUniform,
    HeNormal,
    HeUniform,
    Identity,
    LecunNormal,
    LecunUniform,
    Ones,
    Orthogonal,
    RandomNormal,
    RandomUniform,
    TruncatedNormal,
    VarianceScaling,
    Zeros,
    Initializer,
)
for _cls in _CLASSES:
    registry.register_builtin(_cls, "keras.initializers")

#: snake_case aliases accepted as string identifiers, as in Keras
ALIASES = {
    "constant": Constant,
    "glorot_normal": GlorotNormal,
    "glorot_uniform": GlorotUniform,
    "he_normal": HeNormal,
    "he_uniform": HeUniform,
    "identity": Identity,
    "lecun_normal": LecunNormal,
    "lecun_uniform": LecunUniform,
    "ones": Ones,
    "orthogonal": Orthogonal,
    "random_normal": RandomNormal,
    "random_uniform": RandomUniform,
    "truncated_normal": TruncatedNormal,
    "variance_scaling": VarianceScaling,
    "zeros": Zeros,
    "uniform": RandomUniform,
    "normal": RandomNormal,
    "stft": STFT,
}


# Keras 3 also exposes every initializer under its snake_case name.
globals().update({name: cls for name, cls in ALIASES.items() if name not in ("uniform", "normal")})

serialize = serialization.serialize
deserialize = serialization.deserialize
get = serialization.identifier_getter("initializer", "keras.initializers", Initializer, ALIASES)
