"""Weight constraints (`tripod.constraints`): projections applied after each optimizer update."""

from tripod.backends import active
from tripod.saving import registry, serialization

ops = active()


class Constraint:
    """Base class: `constraint(w)` returns the projected weight."""

    def __call__(self, w):
        return w

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def _norms(w, axis):
    return ops.sqrt(ops.sum(ops.square(w), axis=axis, keepdims=True))


class MaxNorm(Constraint):
    """Rescale weights whose norm along `axis` exceeds `max_value`."""

    def __init__(self, max_value=2, axis=0):
        self.max_value, self.axis = max_value, axis

    def __call__(self, w):
        norms = _norms(w, self.axis)
        desired = ops.clip(norms, 0, self.max_value)
        return ops.multiply(w, ops.divide(desired, ops.add(norms, 1e-7)))

    def get_config(self):
        return {"max_value": self.max_value, "axis": self.axis}


class MinMaxNorm(Constraint):
    """Pull weight norms along `axis` into [min_value, max_value] at the given `rate`."""

    def __init__(self, min_value=0.0, max_value=1.0, rate=1.0, axis=0):
        self.min_value, self.max_value, self.rate, self.axis = min_value, max_value, rate, axis

    def __call__(self, w):
        norms = _norms(w, self.axis)
        clipped = ops.clip(norms, self.min_value, self.max_value)
        desired = ops.add(ops.multiply(self.rate, clipped), ops.multiply(1 - self.rate, norms))
        return ops.multiply(w, ops.divide(desired, ops.add(norms, 1e-7)))

    def get_config(self):
        return {
            "min_value": self.min_value,
            "max_value": self.max_value,
            "rate": self.rate,
            "axis": self.axis,
        }


class NonNeg(Constraint):
    """Negative weights become zero."""

    def __call__(self, w):
        return ops.multiply(w, ops.cast(ops.greater_equal(w, 0.0), ops.dtype(w)))


class UnitNorm(Constraint):
    """Weights rescaled to unit norm along `axis`."""

    def __init__(self, axis=0):
        self.axis = axis

    def __call__(self, w):
        return ops.divide(w, ops.add(_norms(w, self.axis), 1e-7))

    def get_config(self):
        return {"axis": self.axis}


max_norm, min_max_norm, non_neg, unit_norm = MaxNorm, MinMaxNorm, NonNeg, UnitNorm
for _cls in (Constraint, MaxNorm, MinMaxNorm, NonNeg, UnitNorm):
    registry.register_builtin(_cls, "keras.constraints")
_ALIASES = {
    "max_norm": MaxNorm,
    "min_max_norm": MinMaxNorm,
    "non_neg": NonNeg,
    "unit_norm": UnitNorm,
}


serialize = serialization.serialize
deserialize = serialization.deserialize
get = serialization.identifier_getter("constraint", "keras.constraints", Constraint, _ALIASES)
