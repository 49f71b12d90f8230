"""Under `mixed_bfloat16` the jax backend computes as XLA's accelerator kernels want it: read
from the jaxpr of a layer call, convolutions take bfloat16 operands and accumulate in float32,
and attention normalizes float32 logits."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import tripod
from tripod import layers
from tripod.backends import config

if config.backend() != "jax":
    pytest.skip("the jax backend's compute dtypes, read from a jaxpr", allow_module_level=True)


@pytest.fixture
def bfloat16_policy():
    tripod.config.set_dtype_policy("mixed_bfloat16")
    yield
    tripod.config.set_dtype_policy("float32")


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
    x = np.ones((2, 8, 8, 3), "float32")
    convs = [
        e
        for e in _equations(_call(layers.Conv2D(4, 3), x), x)
        if e.primitive.name == "conv_general_dilated"
    ]
    assert convs, "no convolution in the jaxpr"
    for eqn in convs:
        assert [v.aval.dtype for v in eqn.invars] == [jnp.bfloat16, jnp.bfloat16]
        assert eqn.params["preferred_element_type"] == jnp.float32


def test_attention_forms_and_normalizes_float32_logits(bfloat16_policy):
    x = np.ones((2, 6, 8), "float32")
    attention = layers.MultiHeadAttention(num_heads=2, key_dim=4)
    equations = _equations(_call(attention, x, x), x, x)
    logits = [
        e.outvars[0].aval.dtype
        for e in equations
        if e.primitive.name == "dot_general" and e.outvars[0].aval.shape == (2, 2, 6, 6)
    ]
    exps = [e.invars[0].aval.dtype for e in equations if e.primitive.name in ("exp", "exp2")]
    assert logits and exps, "no logits or no softmax in the jaxpr"
    assert set(logits) == set(exps) == {np.dtype("float32")}
