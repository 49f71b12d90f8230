"""`tripod.quantizers` functions and objects and the quantized dtype policies, against NumPy,
ml_dtypes' float8 casts and hand-computed values."""

import numpy as np
import pytest

from tripod.layers import dtype_policies
from tripod.layers.quantization import config as qconfig
from tripod.layers.quantization import quantizers
from tripod.layers.quantization.einsum_axes import AxisPlan

RNG = np.random.default_rng(2)


def _np(x):
    return quantizers.ops.convert_to_numpy(x)


@pytest.mark.parametrize("to_numpy", [False, True])
def test_abs_max_quantize_matches_numpy(to_numpy):
    x = RNG.normal(size=(3, 5)).astype("float32")
    quantized, scale = quantizers.abs_max_quantize(x, axis=0, to_numpy=to_numpy)
    expected_scale = 127.0 / (np.abs(x).max(axis=0, keepdims=True) + 1e-7)
    np.testing.assert_allclose(_np(scale), expected_scale, rtol=1e-6)
    np.testing.assert_array_equal(_np(quantized), np.round(x * expected_scale).astype("int8"))
    assert str(_np(quantized).dtype) == "int8"


def test_float8_quantize_and_dequantize_matches_ml_dtypes():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    x = np.concatenate(
        [RNG.normal(scale=100, size=200), RNG.normal(scale=1e-3, size=50), [0.0, 1e4, -1e4]]
    ).astype("float32")
    for name, largest in (("float8_e4m3fn", 448.0), ("float8_e5m2", 57344.0)):
        scale = np.float32(0.5)
        got = _np(quantizers.quantize_and_dequantize(x, scale, name, "float32"))
        clipped = np.clip(x / scale, -largest, largest)
        expected = clipped.astype(getattr(ml_dtypes, name)).astype("float32") * scale
        np.testing.assert_array_equal(got, expected)


def test_float8_scale_and_history():
    scale = np.float32(2.0)
    new = quantizers.compute_float8_scale(np.float32(10.0), scale, np.float32(448.0))
    np.testing.assert_allclose(_np(new), 10.0 / 448.0, rtol=1e-6)
    kept = quantizers.compute_float8_scale(np.float32(0.0), scale, np.float32(448.0))
    np.testing.assert_allclose(_np(kept), 2.0)
    history = np.array([1.0, 2.0, 3.0], "float32")
    out = quantizers.compute_float8_amax_history(np.array([-7.0, 4.0], "float32"), history)
    np.testing.assert_array_equal(_np(out), [7.0, 3.0, 1.0])


def test_quantizer_objects_serialize_and_get():
    quantizer = quantizers.AbsMaxQuantizer(axis=0, value_range=(-100, 100))
    config = quantizers.serialize(quantizer)
    assert config["class_name"] == "AbsMaxQuantizer" and config["module"] == "keras.quantizers"
    again = quantizers.deserialize(config)
    assert (again.axis, again.value_range) == ((0,), (-100, 100))
    assert isinstance(quantizers.get("abs_max_quantizer"), quantizers.AbsMaxQuantizer)
    assert quantizers.get(None) is None
    with pytest.raises(ValueError, match="value_range"):
        quantizers.AbsMaxQuantizer(value_range=(-300, 300))
    with pytest.raises(NotImplementedError):
        quantizers.Quantizer().get_config()
    int8 = qconfig.resolve("int8", None)
    assert isinstance(int8.activation_quantizer, quantizers.AbsMaxQuantizer)
    assert qconfig.resolve(None, int8) is int8
    with pytest.raises(ValueError, match="int4"):
        qconfig.resolve("int4", None)


def test_quantized_dtype_policies():
    policy = dtype_policies.get("int8_from_mixed_bfloat16")
    assert isinstance(policy, dtype_policies.QuantizedDTypePolicy)
    assert (policy.quantization_mode, policy.compute_dtype, policy.variable_dtype) == (
        "int8",
        "bfloat16",
        "float32",
    )
    config = dtype_policies.serialize(policy)
    assert config["class_name"] == "QuantizedDTypePolicy"
    assert config["config"] == {"mode": "int8", "source_name": "mixed_bfloat16"}
    assert dtype_policies.deserialize(config) == policy
    float8 = dtype_policies.QuantizedFloat8DTypePolicy("float8", "float32", 16)
    assert dtype_policies.get(dtype_policies.serialize(float8)).amax_history_length == 16
    assert dtype_policies.get("float32").quantization_mode is None
    with pytest.raises(ValueError, match="float16"):
        dtype_policies.get("int8_from_float16")


def test_axis_plan_matches_hand_derived_layouts():
    # "abc,cde->abde": the kernel's contracted c takes the place of a; b becomes a new axis
    plan = AxisPlan("cde", "abde")
    assert plan.aligned_shape((4, 5, 3)) == (1, 1, 5, 3)
    scale = RNG.normal(size=(1, 5, 3)).astype("float32")
    np.testing.assert_array_equal(_np(plan.unalign(plan.align(scale))), scale)
    # "ab,bc->ac" inputs: the contracted b stays in place
    assert AxisPlan("ab", "ac").aligned_shape((7, 4)) == (7, 1)
