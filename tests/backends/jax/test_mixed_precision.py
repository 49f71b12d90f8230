"""Under `mixed_bfloat16` the jax backend computes as XLA's accelerator kernels want it: read
from the jaxpr of a layer call, convolutions take bfloat16 operands and accumulate in float32,
and attention normalizes float32 logits."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from tripod import layers, ops
from tripod.backends import config

if config.backend() != "jax":
    pytest.skip("the jax backend's compute dtypes, read from a jaxpr", allow_module_level=True)


def _equations(fn, *args):
    """Every equation of `fn`'s jaxpr, those of nested calls (jit, custom gradients) too."""
    found = []

    def visit(jaxpr):
        for eqn in jaxpr.eqns:
            found.append(eqn)
            for param in eqn.params.values():
                inner = getattr(param, "jaxpr", param)
                if hasattr(inner, "eqns"):
                    visit(inner)

    visit(jax.make_jaxpr(fn)(*args).jaxpr)
    return found


def _call(layer, *inputs):
    """A function of the inputs calling `layer` (built first, so its variables exist)."""
    layer(*inputs)
    return lambda *xs: layer(*xs)


def test_convolutions_take_bfloat16_operands_and_accumulate_in_float32(bfloat16_policy):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 8, 8, 512)).astype("float32")  # 4608 products a sum
    layer = layers.Conv2D(4, 3, use_bias=False)
    convs = [
        e for e in _equations(_call(layer, x), x) if e.primitive.name == "conv_general_dilated"
    ]
    assert convs, "no convolution in the jaxpr"
    for eqn in convs:
        assert [v.aval.dtype for v in eqn.invars] == [jnp.bfloat16, jnp.bfloat16]
        assert eqn.outvars[0].aval.dtype == jnp.bfloat16
    # XLA sums the bf16 products in float32 and rounds once: the float32 convolution of the same
    # bf16 values, rounded to bf16, to the bit (a bf16 running sum would be far off)
    kernel = layer.kernel.value.astype(jnp.bfloat16).astype(jnp.float32)
    bf16_x = jnp.asarray(x, jnp.bfloat16).astype(jnp.float32)
    exact = jax.lax.conv_general_dilated(
        bf16_x,
        kernel,
        (1, 1),
        "VALID",
        dimension_numbers=("NHWC", "HWIO", "NHWC"),
        precision="highest",
    )
    np.testing.assert_array_equal(
        np.asarray(layer(x), "float32"), np.asarray(exact.astype(jnp.bfloat16), "float32")
    )


def _logits_and_exps(fn, *args, logits_size):
    """The dot_general equations forming `logits_size` values, and the dtypes `exp` takes."""
    equations = _equations(fn, *args)
    logits = [
        e
        for e in equations
        if e.primitive.name == "dot_general" and np.prod(e.outvars[0].aval.shape) == logits_size
    ]
    exps = {e.invars[0].aval.dtype for e in equations if e.primitive.name in ("exp", "exp2")}
    assert logits and exps, "no logits or no softmax in the jaxpr"
    return logits, exps


def test_fused_attention_takes_bfloat16_heads_into_float32_logits(bfloat16_policy):
    """The fused path (masked too): bfloat16 query and key heads, float32 logits and softmax."""
    x = np.ones((2, 6, 8), "float32")
    attention = layers.MultiHeadAttention(num_heads=2, key_dim=4)
    call = _call(lambda q, v: attention(q, v, use_causal_mask=True), x, x)
    logits, exps = _logits_and_exps(call, x, x, logits_size=2 * 2 * 6 * 6)
    for eqn in logits:
        assert [v.aval.dtype for v in eqn.invars] == [jnp.bfloat16, jnp.bfloat16]
        assert eqn.outvars[0].aval.dtype == np.float32
    assert exps == {np.dtype("float32")}


def test_explicit_attention_forms_float32_logits_and_returns_compute_dtype_scores(
    bfloat16_policy,
):
    """The explicit path (scores asked for): float32 logits and softmax, bfloat16 scores out."""
    x = np.ones((2, 6, 8), "float32")
    attention = layers.MultiHeadAttention(num_heads=2, key_dim=4)
    call = _call(lambda q, v: attention(q, v, return_attention_scores=True), x, x)
    logits, exps = _logits_and_exps(call, x, x, logits_size=2 * 2 * 6 * 6)
    assert {eqn.outvars[0].aval.dtype for eqn in logits} == {np.dtype("float32")}
    assert exps == {np.dtype("float32")}
    output, scores = call(x, x)
    assert output.dtype == scores.dtype == jnp.bfloat16


def test_cross_entropy_of_bfloat16_logits_normalizes_them_in_float32():
    """The loss from logits: logsumexp over float32 values (the logits are upcast first)."""
    logits = jnp.asarray(np.random.default_rng(0).standard_normal((2, 5, 16)), jnp.bfloat16)
    labels = np.arange(10).reshape(2, 5) % 16
    for loss in (
        lambda x: ops.sparse_categorical_crossentropy(labels, x, from_logits=True),
        lambda x: ops.categorical_crossentropy(jax.nn.one_hot(labels, 16), x, from_logits=True),
    ):
        exps = {
            e.invars[0].aval.dtype for e in _equations(loss, logits) if e.primitive.name == "exp"
        }
        assert exps == {np.dtype("float32")}


@pytest.mark.parametrize(
    "platform, dtype, flash, expected",
    [
        ("gpu", jnp.bfloat16, None, "cudnn"),
        ("gpu", jnp.float16, True, "cudnn"),
        ("gpu", jnp.bfloat16, False, None),
        ("gpu", jnp.float32, None, None),
        ("tpu", jnp.bfloat16, None, None),
        ("cpu", jnp.float16, True, None),
    ],
)
def test_attention_takes_cudnn_flash_kernels_for_half_inputs_on_a_gpu(
    platform, dtype, flash, expected
):
    """The GPU path, chosen on CPU: cuDNN's kernel for half inputs unless flash is refused."""
    from tripod.backends.jax.nn import attention_implementation

    assert attention_implementation(platform, dtype, flash) == expected
