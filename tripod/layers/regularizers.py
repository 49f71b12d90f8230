"""Weight regularizers (`tripod.regularizers`): penalties added to the loss."""

from tripod.backends import active
from tripod.saving import registry, serialization

ops = active()


class Regularizer:
    """Base class: `regularizer(x)` returns a scalar penalty for tensor x."""

    def __call__(self, x):
        return 0.0

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def _check_factor(name, value):
    value = float(value)
    if value < 0:
        raise ValueError(f"{name} must be a non-negative float, received {value}.")
    return value


class L1L2(Regularizer):
    """l1 * sum(|x|) + l2 * sum(x^2)."""

    def __init__(self, l1=0.0, l2=0.0):
        self.l1 = _check_factor("l1", l1)
        self.l2 = _check_factor("l2", l2)

    def __call__(self, x):
        penalty = 0.0
        if self.l1:
            penalty = ops.add(penalty, ops.multiply(self.l1, ops.sum(ops.abs(x))))
        if self.l2:
            penalty = ops.add(penalty, ops.multiply(self.l2, ops.sum(ops.square(x))))
        return penalty

    def get_config(self):
        return {"l1": self.l1, "l2": self.l2}


class L1(Regularizer):
    """l1 * sum(|x|)."""

    def __init__(self, l1=0.01):
        self.l1 = _check_factor("l1", l1)

    def __call__(self, x):
        return ops.multiply(self.l1, ops.sum(ops.abs(x)))

    def get_config(self):
        return {"l1": self.l1}


class L2(Regularizer):
    """l2 * sum(x^2)."""

    def __init__(self, l2=0.01):
        self.l2 = _check_factor("l2", l2)

    def __call__(self, x):
        return ops.multiply(self.l2, ops.sum(ops.square(x)))

    def get_config(self):
        return {"l2": self.l2}


class OrthogonalRegularizer(Regularizer):
    """Penalizes non-orthogonal rows (or columns) of a 2-D kernel: mean |off-diagonal cosine|."""

    def __init__(self, factor=0.01, mode="rows"):
        if mode not in ("rows", "columns"):
            raise ValueError(
                f"OrthogonalRegularizer: mode must be 'rows' or 'columns', received {mode!r}."
            )
        self.factor = _check_factor("factor", factor)
        self.mode = mode

    def __call__(self, x):
        if len(ops.shape(x)) != 2:
            raise ValueError(
                f"OrthogonalRegularizer needs a 2-D input, received shape {ops.shape(x)}."
            )
        if self.mode == "columns":
            x = ops.transpose(x)
        x = ops.normalize(x, axis=1)
        n = ops.shape(x)[0]
        products = ops.abs(ops.matmul(x, ops.transpose(x)))
        off_diagonal = ops.subtract(ops.sum(products), ops.trace(products))
        return ops.multiply(self.factor, ops.divide(off_diagonal, n * (n - 1)))

    def get_config(self):
        return {"factor": self.factor, "mode": self.mode}


l1, l2, l1_l2, orthogonal_regularizer = L1, L2, L1L2, OrthogonalRegularizer
for _cls in (Regularizer, L1, L2, L1L2, OrthogonalRegularizer):
    registry.register_builtin(_cls, "keras.regularizers")
_ALIASES = {"l1": L1, "l2": L2, "l1_l2": L1L2, "orthogonal_regularizer": OrthogonalRegularizer}


serialize = serialization.serialize
deserialize = serialization.deserialize
get = serialization.identifier_getter("regularizer", "keras.regularizers", Regularizer, _ALIASES)
