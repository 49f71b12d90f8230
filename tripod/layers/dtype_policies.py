"""Dtype policies: the dtype a layer computes in and the dtype its variables are stored in.

`"mixed_float16"` and `"mixed_bfloat16"` keep float32 variables and compute in low precision;
any plain dtype name (`"float32"`, `"bfloat16"`, ...) uses that dtype for both.
"""

from tripod.backends import config, dtypes
from tripod.saving import registry


class DTypePolicy:
    """A layer's compute dtype and variable dtype, named like `"mixed_float16"` or `"float32"`."""

    def __init__(self, name=None):
        name = name or config.floatx()
        if not isinstance(name, str):
            raise TypeError(f"DTypePolicy: the name must be a string, received {name!r}.")
        if name.startswith("mixed_"):
            low = name.removeprefix("mixed_")
            if low not in ("float16", "bfloat16"):
                raise ValueError(
                    f"DTypePolicy: unknown policy {name!r}; mixed policies are "
                    "'mixed_float16' and 'mixed_bfloat16'."
                )
            self._compute, self._variable = low, "float32"
        else:
            try:
                self._compute = self._variable = dtypes.standardize_dtype(name)
            except TypeError as e:
                raise ValueError(f"DTypePolicy: unknown policy {name!r}.") from e
        self._name = name

    @property
    def name(self):
        """The policy's name, e.g. `"mixed_float16"`."""
        return self._name

    @property
    def compute_dtype(self):
        """The dtype layer computations run in."""
        return self._compute

    @property
    def variable_dtype(self):
        """The dtype layer variables are stored in."""
        return self._variable

    def get_config(self):
        return {"name": self._name}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def __eq__(self, other):
        return isinstance(other, DTypePolicy) and other.name == self.name

    def __hash__(self):
        return hash(self._name)

    def __repr__(self):
        return f'<DTypePolicy "{self._name}">'


#: Keras 3 names both classes; they are one thing here.
FloatDTypePolicy = DTypePolicy
registry.register_builtin(DTypePolicy, "keras")

_global = {"policy": None}


def get(identifier):
    """A `DTypePolicy` from None (the global policy), a name, a config dict or a policy."""
    if identifier is None:
        return dtype_policy()
    if isinstance(identifier, DTypePolicy):
        return identifier
    if isinstance(identifier, dict):
        return DTypePolicy.from_config(identifier.get("config", identifier))
    return DTypePolicy(
        dtypes.standardize_dtype(identifier) if not isinstance(identifier, str) else identifier
    )


def dtype_policy():
    """The global dtype policy (`floatx()` unless set)."""
    return _global["policy"] or DTypePolicy(config.floatx())


def set_dtype_policy(policy):
    """Set the global dtype policy, by name or as a `DTypePolicy`."""
    _global["policy"] = get(policy)


#: Keras 2-era aliases kept in `tripod.mixed_precision`.
Policy = DTypePolicy
global_policy = dtype_policy
set_global_policy = set_dtype_policy
