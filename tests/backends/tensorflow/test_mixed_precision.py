"""Under `mixed_bfloat16` the tensorflow backend computes as its accelerator kernels want it:
read from the graph of a layer call, convolutions and dense products take bfloat16 operands (the
kernels accumulate in float32), and attention forms and normalizes float32 logits."""

import numpy as np
import pytest

import tripod
from tripod import layers
from tripod.backends import config

if config.backend() != "tensorflow":
    pytest.skip("the tensorflow backend's compute dtypes, from a graph", allow_module_level=True)

import tensorflow as tf


def _graph_ops(call, *inputs):
    """(op type, dtype attribute, output shape) of each op in the graph of `call(*inputs)`."""
    call(*inputs)  # builds the layer
    specs = [tf.TensorSpec(x.shape, tf.float32) for x in inputs]
    graph = tf.function(call, autograph=False).get_concrete_function(*specs).graph
    return [
        (op.type, op.get_attr("T") if "T" in op.node_def.attr else None, op.outputs[0].shape)
        for op in graph.get_operations()
        if op.outputs
    ]


def test_convolutions_and_dense_products_take_bfloat16_operands(bfloat16_policy):
    x = np.ones((2, 8, 8, 3), "float32")
    model = tripod.Sequential([layers.Conv2D(4, 3), layers.Flatten(), layers.Dense(2)])
    found = _graph_ops(model, x)
    products = [(kind, dtype) for kind, dtype, _ in found if kind in ("Conv2D", "MatMul")]
    assert {kind for kind, _ in products} == {"Conv2D", "MatMul"}
    assert {dtype for _, dtype in products} == {tf.bfloat16}


@pytest.mark.parametrize("scores", [False, True], ids=["output", "scores"])
def test_attention_forms_and_normalizes_float32_logits(bfloat16_policy, scores):
    x = np.ones((2, 6, 8), "float32")
    attention = layers.MultiHeadAttention(num_heads=2, key_dim=4)
    found = _graph_ops(lambda q: attention(q, q, return_attention_scores=scores), x)
    logits = [dtype for kind, dtype, shape in found if kind == "Einsum" and shape == (2, 2, 6, 6)]
    softmaxes = [dtype for kind, dtype, _ in found if kind == "Softmax"]
    projections = [dtype for kind, dtype, _ in found if kind == "MatMul"]
    assert logits and softmaxes and projections
    assert set(logits) == set(softmaxes) == {tf.float32}
    assert set(projections) == {tf.bfloat16}
