"""Dtype policies: the dtype a layer computes in and the dtype its variables are stored in.

`"mixed_float16"` and `"mixed_bfloat16"` keep float32 variables and compute in low precision;
any plain dtype name (`"float32"`, `"bfloat16"`, ...) uses that dtype for both. A quantized policy
(`"int8_from_float32"`, `"float8_from_mixed_bfloat16"`) is a float policy plus the quantization
mode of the layer's weights (see `tripod.layers.quantization`).
"""

import re
from collections.abc import MutableMapping

from tripod.backends import config, dtypes
from tripod.saving import registry, serialization


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

    @property
    def quantization_mode(self):
        """The quantization mode of the layer's weights: None for a float policy."""
        return None

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

#: the quantization modes a quantized policy may name (Keras 3's int4/gptq/awq are not here yet)
QUANTIZATION_MODES = ("int8", "float8")


class QuantizedDTypePolicy(DTypePolicy):
    """A float policy (`source_name`) whose layers hold their weights quantized in `mode`;
    named `"<mode>_from_<source_name>"`, e.g. `"int8_from_float32"`."""

    def __init__(self, mode, source_name=None):
        source_name = source_name or dtype_policy().name
        super().__init__(source_name)
        if mode not in QUANTIZATION_MODES:
            raise ValueError(
                f"QuantizedDTypePolicy: invalid quantization mode {mode!r}; expected one of "
                f"{QUANTIZATION_MODES}."
            )
        if mode == "int8" and self.compute_dtype == "float16":
            raise ValueError(
                f"QuantizedDTypePolicy: mode 'int8' does not work well with compute dtype "
                f"'float16' (source policy {source_name!r})."
            )
        self._mode, self._source_name = mode, source_name
        self._name = f"{mode}_from_{source_name}"

    @property
    def quantization_mode(self):
        """The quantization mode of the layer's weights, e.g. `"int8"`."""
        return self._mode

    def get_config(self):
        return {"mode": self._mode, "source_name": self._source_name}


class QuantizedFloat8DTypePolicy(QuantizedDTypePolicy):
    """A `"float8_from_<source>"` policy; `amax_history_length` is the length of the windows of
    absolute maxima that float8 scales are computed from."""

    default_amax_history_length = 1024

    def __init__(self, mode, source_name=None, amax_history_length=1024):
        super().__init__(mode, source_name)
        if not isinstance(amax_history_length, int) or isinstance(amax_history_length, bool):
            raise TypeError(
                "QuantizedFloat8DTypePolicy: amax_history_length must be an integer, received "
                f"{amax_history_length!r}."
            )
        self._amax_history_length = amax_history_length

    @property
    def amax_history_length(self):
        """The length of the absolute-maximum history windows."""
        return self._amax_history_length

    def get_config(self):
        return {**super().get_config(), "amax_history_length": self._amax_history_length}

    def __eq__(self, other):
        return super().__eq__(other) and self.amax_history_length == other.amax_history_length

    __hash__ = DTypePolicy.__hash__


for _cls in (DTypePolicy, QuantizedDTypePolicy, QuantizedFloat8DTypePolicy):
    registry.register_builtin(_cls, "keras.dtype_policies")


class DTypePolicyMap(DTypePolicy, MutableMapping):
    """Dtype policies by layer path, given as a layer's `dtype`: a layer takes the policy of its
    path (`layer.path`, settled when it builds), found by an exact key or else by the one key
    that, read as a regular expression, matches part of the path; other layers take
    `default_policy`. Quantized models save their per-layer policies this way, and KerasHub
    backbones check for it in their configs.
    """

    def __init__(self, default_policy=None, policy_map=None):
        if isinstance(default_policy, DTypePolicyMap):
            raise TypeError("DTypePolicyMap: default_policy cannot itself be a DTypePolicyMap.")
        if policy_map is not None and not isinstance(policy_map, dict):
            raise TypeError(
                f"DTypePolicyMap: policy_map must be a dict, received {type(policy_map).__name__}."
            )
        self._default = get(default_policy)
        self._policies = {}
        for path, policy in (policy_map or {}).items():
            self[path] = policy

    @property
    def name(self):
        return f"map_{self._default.name}"

    @property
    def default_policy(self):
        """The policy of a path no key names."""
        return self._default

    @property
    def compute_dtype(self):
        return self._default.compute_dtype

    @property
    def variable_dtype(self):
        return self._default.variable_dtype

    @property
    def quantization_mode(self):
        return self._default.quantization_mode

    def __getitem__(self, path):
        if path in self._policies:
            return self._policies[path]
        matches = [key for key in self._policies if re.search(key, path)]
        if len(matches) > 1:
            raise ValueError(
                f"DTypePolicyMap: the path {path!r} matches several keys {matches}; make the "
                "keys specific enough that one matches."
            )
        return self._policies[matches[0]] if matches else self._default

    def __setitem__(self, path, policy):
        if path in self._policies:
            raise ValueError(
                f"DTypePolicyMap: {path!r} already has the policy {self._policies[path].name!r}; "
                "delete it first to change it."
            )
        policy = get(policy)
        if isinstance(policy, DTypePolicyMap):
            raise TypeError(f"DTypePolicyMap: the policy of {path!r} cannot be a map.")
        self._policies[path] = policy

    def __delitem__(self, path):
        del self._policies[path]

    def __contains__(self, path):
        return path in self._policies

    def __iter__(self):
        return iter(self._policies)

    def __len__(self):
        return len(self._policies)

    def get_config(self):
        """Each policy by its name, as Keras writes the map (a name parses back to its policy)."""
        return {
            "default_policy": self._default.name,
            "policy_map": {path: policy.name for path, policy in self._policies.items()},
        }

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """The map of a config whose policies are names (Keras's form) or full configs."""
        with registry.custom_object_scope(custom_objects or {}):
            return cls(config.get("default_policy"), config.get("policy_map"))

    def __eq__(self, other):
        return isinstance(other, DTypePolicyMap) and other.get_config() == self.get_config()

    __hash__ = None  # a mutable mapping

    def __repr__(self):
        return f'<DTypePolicyMap "{self.name}" with {len(self)} paths>'


registry.register_builtin(DTypePolicyMap, "keras.dtype_policies")  # where Keras writes it

_global = {"policy": None}


def get(identifier):
    """A `DTypePolicy` from None (the global policy), a name, a config dict or a policy."""
    if identifier is None:
        return dtype_policy()
    if isinstance(identifier, DTypePolicy):
        return identifier
    if isinstance(identifier, dict):
        if "class_name" in identifier:
            return deserialize(identifier)
        return DTypePolicy.from_config(identifier.get("config", identifier))
    if not isinstance(identifier, str):
        return DTypePolicy(dtypes.standardize_dtype(identifier))
    mode, sep, source = identifier.partition("_from_")
    if sep and mode in QUANTIZATION_MODES:
        cls = QuantizedFloat8DTypePolicy if mode == "float8" else QuantizedDTypePolicy
        return cls(mode, source)
    return DTypePolicy(identifier)


def serialize(dtype_policy):
    """The config of a dtype policy, as Keras 3 writes it in a layer's config."""
    return serialization.serialize_keras_object(dtype_policy)


def deserialize(config, custom_objects=None):
    """A dtype policy from the config `serialize` gave."""
    policy = serialization.deserialize_keras_object(config, custom_objects)
    if not isinstance(policy, DTypePolicy):
        raise TypeError(f"dtype_policies.deserialize: {config!r} is not a dtype policy config.")
    return policy


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
