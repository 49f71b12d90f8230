"""Dtype policies by layer path (`DTypePolicyMap`) and the layer path they are looked up by."""

import numpy as np
import pytest

from tripod import dtype_policies, layers
from tripod.backends import active

ops = active()


def test_a_path_takes_its_exact_key_else_the_one_matching_pattern_else_the_default():
    policies = dtype_policies.DTypePolicyMap(
        "mixed_bfloat16", {"encoder/dense": "float16", r"decoder/.*_norm": "float32"}
    )
    assert policies["encoder/dense"].name == "float16"
    assert policies["decoder/block_0/layer_norm"].name == "float32"
    assert policies["encoder/other"].name == "mixed_bfloat16"  # the default
    assert policies.name == "map_mixed_bfloat16"
    assert (policies.compute_dtype, policies.variable_dtype) == ("bfloat16", "float32")
    assert "encoder/dense" in policies and len(policies) == 2


def test_ambiguous_paths_and_replaced_keys_fail_clearly():
    policies = dtype_policies.DTypePolicyMap(policy_map={"dense": "float16", "encoder": "float32"})
    with pytest.raises(ValueError, match="matches several keys"):
        policies["encoder/dense_1"]
    with pytest.raises(ValueError, match="already has the policy 'float16'"):
        policies["dense"] = "bfloat16"
    del policies["dense"]
    policies["dense"] = "bfloat16"
    assert policies["dense"].name == "bfloat16"
    with pytest.raises(TypeError, match="cannot be a map"):
        policies["other"] = dtype_policies.DTypePolicyMap()


def test_the_map_round_trips_through_its_config():
    policies = dtype_policies.DTypePolicyMap("float32", {"a": "int8_from_float32", "b": "float16"})
    back = dtype_policies.deserialize(dtype_policies.serialize(policies))
    assert isinstance(back, dtype_policies.DTypePolicyMap) and back == policies
    assert back["a"].quantization_mode == "int8"


def test_the_config_is_the_one_keras_writes_and_reads():
    """Keras 3.15 writes the map under `keras.dtype_policies` with each policy by its name."""
    policies = dtype_policies.DTypePolicyMap("mixed_bfloat16", {"a": "int8_from_float32"})
    config = dtype_policies.serialize(policies)
    assert config["module"] == "keras.dtype_policies"
    assert config["config"] == {
        "default_policy": "mixed_bfloat16",
        "policy_map": {"a": "int8_from_float32"},
    }
    # a config with full policy configs inside, which Keras also reads, loads too
    nested = {"default_policy": dtype_policies.serialize(dtype_policies.get("float16"))}
    assert dtype_policies.DTypePolicyMap.from_config(nested).default_policy.name == "float16"


def test_a_layer_given_a_map_computes_in_its_paths_policy():
    policies = dtype_policies.DTypePolicyMap("float32", {"half": "float16"})
    layer = layers.Dense(3, name="half", dtype=policies)
    assert layer.path is None  # settled by the first build, as in Keras
    out = layer(np.ones((2, 4), "float32"))
    assert layer.path == "half"
    assert ops.dtype(out) == "float16" and layer.kernel.dtype == "float16"
    assert layer.dtype_policy is policies  # the map stays the layer's policy
    other = layers.Dense(3, name="full", dtype=policies)
    assert ops.dtype(other(np.ones((2, 4), "float32"))) == "float32"
    copy = layers.Dense.from_config(layer.get_config())
    assert isinstance(copy.dtype_policy, dtype_policies.DTypePolicyMap)
    assert copy.dtype_policy == policies


def test_a_sub_layer_path_nests_under_its_parent():
    class Outer(layers.Layer):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.inner = layers.Dense(2, name="inner")

        def build(self, input_shape):
            self.inner.build(input_shape)

        def call(self, x):
            return self.inner(x)

    outer = Outer(name="outer")
    outer(np.ones((1, 3), "float32"))
    assert (outer.path, outer.inner.path) == ("outer", "outer/inner")
    assert outer.inner.kernel.path == "outer/inner/kernel"


def test_every_layer_reports_its_quantization_mode():
    """Keras's `Layer.quantization_mode` (KerasHub backbones read it in `get_config`): None for
    a float policy, the mode of a quantized one, on any layer."""
    assert layers.Dropout(0.1).quantization_mode is None
    assert layers.Dense(2, dtype="int8_from_float32").quantization_mode == "int8"
