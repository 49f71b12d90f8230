"""MultiHeadAttention and GroupedQueryAttention against explicit softmax(QK^T / sqrt(d)) V."""

import numpy as np
import pytest

import tripod
from tests.layers.harness import TRAINS, random_input, run_layer_test, to_numpy
from tripod import layers
from tripod.saving import object_tree

MHA_KEYS = [
    "name",
    "trainable",
    "dtype",
    "num_heads",
    "key_dim",
    "value_dim",
    "dropout",
    "use_bias",
    "use_gate",
    "output_shape",
    "attention_axes",
    "sliding_window",
    "kernel_initializer",
    "bias_initializer",
    "kernel_regularizer",
    "bias_regularizer",
    "activity_regularizer",
    "kernel_constraint",
    "bias_constraint",
    "seed",
]


def _softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _weights(layer):
    return {"/".join(v.path.split("/")[-2:]): v.numpy() for v in layer.weights}


def _reference(layer, q, v, mask=None, repeats=1):
    """NumPy multi-head attention with the layer's weights; mask (batch, T, S)."""
    w = _weights(layer)
    query = np.einsum("btd,dnh->btnh", q, w["query/kernel"]) + w["query/bias"]
    key = np.einsum("bsd,dnh->bsnh", v, w["key/kernel"]) + w["key/bias"]
    value = np.einsum("bsd,dnh->bsnh", v, w["value/kernel"]) + w["value/bias"]
    key, value = np.repeat(key, repeats, axis=2), np.repeat(value, repeats, axis=2)
    scores = np.einsum("btnh,bsnh->bnts", query, key) / np.sqrt(query.shape[-1])
    if mask is not None:
        scores = np.where(mask[:, None], scores, -1e9)
    probs = _softmax(scores)
    heads = np.einsum("bnts,bsnh->btnh", probs, value)
    return np.einsum("btnh,nho->bto", heads, w["attention_output/kernel"]) + w[
        "attention_output/bias"
    ], probs


def test_mha_contract_and_weights():
    v = random_input((2, 5, 6), seed=9)
    run_layer_test(
        layers.MultiHeadAttention,
        {"num_heads": 2, "key_dim": 3},
        input_shape=(2, 4, 8),
        call_kwargs={"value": v},
        expected_output_shape=(2, 4, 8),
        expected_num_trainable_weights=8,
        supports_masking=True,
    )
    layer = layers.MultiHeadAttention(num_heads=2, key_dim=3, value_dim=5, output_shape=7)
    layer(random_input((2, 4, 8)), v)
    assert [("/".join(v.path.split("/")[-2:]), v.shape) for v in layer.weights] == [
        ("query/kernel", (8, 2, 3)),
        ("query/bias", (2, 3)),
        ("key/kernel", (6, 2, 3)),
        ("key/bias", (2, 3)),
        ("value/kernel", (6, 2, 5)),
        ("value/bias", (2, 5)),
        ("attention_output/kernel", (2, 5, 7)),
        ("attention_output/bias", (7,)),
    ]
    assert [name for name in vars(layer) if name.endswith("_dense")] == [
        "_query_dense",
        "_key_dense",
        "_value_dense",
        "_output_dense",
    ]
    config = layer.get_config()
    assert list(config) == MHA_KEYS
    assert config["output_shape"] == (7,) and config["attention_axes"] == (1,)


def test_mha_matches_numpy_with_masks():
    q, v = random_input((2, 3, 4), seed=1), random_input((2, 5, 6), seed=2)
    layer = layers.MultiHeadAttention(num_heads=2, key_dim=3, bias_initializer="random_normal")
    attention_mask = np.random.default_rng(0).random((2, 3, 5)) > 0.3
    attention_mask[:, :, 0] = True
    out, scores = layer(q, v, attention_mask=attention_mask, return_attention_scores=True)
    expected, probs = _reference(layer, q, v, attention_mask)
    np.testing.assert_allclose(to_numpy(scores), probs, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(to_numpy(out), expected, rtol=1e-4, atol=1e-5)
    # Padding masks of query and value, and the causal mask, combine into one attention mask.
    value_mask = np.array([[True, True, False, True, False]] * 2)
    out = layer(q, v, value_mask=value_mask, use_causal_mask=True)
    combined = value_mask[:, None, :] & np.tril(np.ones((3, 5), bool))[None]
    np.testing.assert_allclose(
        to_numpy(out), _reference(layer, q, v, combined)[0], rtol=1e-4, atol=1e-5
    )


def test_mha_self_attention_with_sliding_window_and_key():
    q = random_input((1, 5, 4), seed=3)
    layer = layers.MultiHeadAttention(num_heads=1, key_dim=2, sliding_window=2)
    _, scores = layer(q, q, key=q, return_attention_scores=True)
    band = np.abs(np.arange(5)[:, None] - np.arange(5)[None]) < 2
    np.testing.assert_array_equal(to_numpy(scores)[0, 0] > 0, band)


def test_mha_attention_axes_and_gate():
    x = random_input((2, 3, 4, 5), seed=4)
    layer = layers.MultiHeadAttention(num_heads=2, key_dim=3, attention_axes=(1, 2))
    out, scores = layer(x, x, return_attention_scores=True)
    assert tuple(out.shape) == (2, 3, 4, 5) and tuple(scores.shape) == (2, 2, 3, 4, 3, 4)
    np.testing.assert_allclose(to_numpy(scores).reshape(2, 2, 12, 12).sum(-1), 1.0, rtol=1e-5)
    layer = layers.MultiHeadAttention(num_heads=2, key_dim=3, use_gate=True)
    q, v = random_input((2, 3, 4), seed=1), random_input((2, 5, 6), seed=2)
    layer(q, v)
    assert [v.path for v in layer.weights][4:6] == [
        f"{layer.name}/gate/kernel",
        f"{layer.name}/gate/bias",
    ]
    symbolic, symbolic_scores = layer(
        layers.Input((3, 4)), layers.Input((5, 6)), return_attention_scores=True
    )
    assert tuple(symbolic.shape) == (None, 3, 4) and tuple(symbolic_scores.shape) == (None, 2, 3, 5)


def test_mha_dropout_only_in_training():
    q = random_input((2, 3, 4), seed=1)
    layer = layers.MultiHeadAttention(num_heads=2, key_dim=3, dropout=0.5, seed=0)
    np.testing.assert_allclose(
        to_numpy(layer(q, q)), _reference(layer, q, q)[0], rtol=1e-4, atol=1e-5
    )
    if TRAINS:
        _, scores = layer(q, q, training=True, return_attention_scores=True)
        np.testing.assert_allclose(
            to_numpy(scores), _reference(layer, q, q)[1], rtol=1e-4, atol=1e-5
        )
        dropped = to_numpy(layer(q, q, training=True))
        assert not np.allclose(dropped, _reference(layer, q, q)[0], atol=1e-4)


def test_mha_errors():
    with pytest.raises(ValueError, match="num_heads"):
        layers.MultiHeadAttention(num_heads=0, key_dim=2)
    with pytest.raises(ValueError, match="rank"):
        layers.MultiHeadAttention(num_heads=2, key_dim=2)(
            random_input((2, 3)), random_input((2, 3))
        )


def test_grouped_query_attention():
    v = random_input((2, 5, 6), seed=9)
    init = {"head_dim": 3, "num_query_heads": 4, "num_key_value_heads": 2}
    run_layer_test(
        layers.GroupQueryAttention,
        init,
        input_shape=(2, 3, 4),
        call_kwargs={"value": v},
        expected_output_shape=(2, 3, 4),
        expected_num_trainable_weights=8,
    )
    assert layers.GroupQueryAttention is layers.GroupedQueryAttention
    q = random_input((2, 3, 4), seed=1)
    layer = layers.GroupedQueryAttention(bias_initializer="random_normal", **init)
    mask = np.random.default_rng(1).random((2, 3, 5)) > 0.3
    mask[:, :, 0] = True
    out, scores = layer(q, v, attention_mask=mask, return_attention_scores=True)
    expected, probs = _reference(layer, q, v, mask, repeats=2)
    np.testing.assert_allclose(to_numpy(scores), probs, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(to_numpy(out), expected, rtol=1e-4, atol=1e-5)
    assert [("/".join(w.path.split("/")[-2:]), w.shape) for w in layer.weights][:4] == [
        ("query/kernel", (4, 4, 3)),
        ("query/bias", (4, 3)),
        ("key/kernel", (6, 2, 3)),
        ("key/bias", (2, 3)),
    ]
    assert list(layer.get_config()) == [
        "name",
        "trainable",
        "dtype",
        "head_dim",
        "num_query_heads",
        "num_key_value_heads",
        "use_bias",
        "use_gate",
        "sliding_window",
        "dropout",
        "kernel_initializer",
        "bias_initializer",
        "kernel_regularizer",
        "bias_regularizer",
        "activity_regularizer",
        "kernel_constraint",
        "bias_constraint",
        "seed",
    ]
    with pytest.raises(ValueError, match="multiple"):
        layers.GroupedQueryAttention(head_dim=2, num_query_heads=3, num_key_value_heads=2)


def test_checkpoint_paths_and_round_trip(tmp_path):
    def build():
        inputs = tripod.Input((3, 4))
        outputs = layers.MultiHeadAttention(2, 3)(inputs, inputs)
        outputs = layers.GroupedQueryAttention(2, 4, 2, use_gate=True)(outputs, outputs)
        return tripod.Model(inputs, outputs)

    model = build()
    paths = [path for path, _ in object_tree.walk(model)]
    assert "layers/multi_head_attention/query_dense" in paths
    assert "layers/multi_head_attention/output_dense" in paths
    assert "layers/grouped_query_attention/_gate_dense" in paths
    model.save_weights(str(tmp_path / "m.weights.h5"))
    clone = build()
    clone.load_weights(str(tmp_path / "m.weights.h5"))
    x = random_input((2, 3, 4))
    np.testing.assert_allclose(to_numpy(clone(x)), to_numpy(model(x)), rtol=1e-6, atol=1e-6)


#: a (batch, T=3, S=5) mask leaving every query at least one key
_MASK = np.array([[[1, 1, 0, 1, 0]] * 3, [[1, 0, 0, 0, 1], [0, 1, 1, 1, 1], [1, 1, 1, 0, 0]]], bool)


@pytest.mark.parametrize("masked", [False, True], ids=["unmasked", "masked"])
@pytest.mark.parametrize("grouped", [False, True], ids=["mha", "gqa"])
def test_calls_take_dot_product_attention_with_the_same_result(grouped, masked):
    """Without scores asked for or dropout, masked or not, the heads go through
    `ops.dot_product_attention` (one kernel on torch and jax); outputs and weight gradients
    equal the explicit softmax path's."""
    q, v = random_input((2, 3, 4), seed=5), random_input((2, 5, 6), seed=6)
    mask = _MASK if masked else None
    if grouped:
        layer = layers.GroupedQueryAttention(3, 4, 2, bias_initializer="random_normal")
    else:
        layer = layers.MultiHeadAttention(num_heads=2, key_dim=3, bias_initializer="random_normal")
    fused = to_numpy(layer(q, v, attention_mask=mask))
    assert layer._fused_call(False, None)
    expected = _reference(layer, q, v, mask, repeats=2 if grouped else 1)[0]
    np.testing.assert_allclose(fused, expected, rtol=1e-4, atol=1e-5)
    if not TRAINS:
        return

    def squared(output):
        return tripod.ops.sum(tripod.ops.square(output))

    weights = layer.trainable_weights
    fused = lambda: squared(layer(q, v, attention_mask=mask, training=True))
    _, fused_grads = tripod.value_and_grad(fused, weights)()
    explicit = lambda: squared(
        layer(q, v, attention_mask=mask, training=True, return_attention_scores=True)[0]
    )
    _, explicit_grads = tripod.value_and_grad(explicit, weights)()
    # The key bias's gradient is zero in exact arithmetic (softmax ignores a shift shared by all
    # keys), so both paths give float32 rounding noise there: the tolerance floor is relative to
    # the largest gradient, not absolute.
    fused_grads = [to_numpy(g) for g in fused_grads]
    floor = 1e-5 * max(float(np.abs(g).max()) for g in fused_grads)
    for a, b in zip(fused_grads, explicit_grads):
        np.testing.assert_allclose(a, to_numpy(b), rtol=1e-4, atol=floor)


class _CachedAttention(layers.MultiHeadAttention):
    """KerasHub's pattern: project the heads itself (e.g. from a KV cache), then run Keras's
    `_compute_attention` and the output projection."""

    def call(self, query, value, attention_mask=None):
        heads, scores = self._compute_attention(
            self._query_dense(query),
            self._key_dense(value),
            self._value_dense(value),
            attention_mask=attention_mask,
            return_attention_scores=True,
        )
        return self._output_dense(heads), scores


def test_compute_attention_serves_a_subclass_that_projects_its_own_heads():
    q, v = random_input((2, 3, 4), seed=1), random_input((2, 5, 4), seed=2)
    mask = np.tril(np.ones((3, 5), bool))[None].repeat(2, axis=0)
    plain = layers.MultiHeadAttention(2, 3)
    expected, expected_scores = plain(q, v, attention_mask=mask, return_attention_scores=True)
    cached = _CachedAttention(2, 3)
    cached(q, v, attention_mask=mask)
    cached.set_weights(plain.get_weights())
    out, scores = cached(q, v, attention_mask=mask)
    np.testing.assert_allclose(to_numpy(out), to_numpy(expected), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(to_numpy(scores), to_numpy(expected_scores), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(
        to_numpy(out), _reference(plain, q, v, mask)[0], rtol=1e-4, atol=1e-5
    )


class _OwnBuild(layers.MultiHeadAttention):
    """A subclass written against Keras's private surface, as KerasHub's Whisper, Moonshine and
    XLNet attention are: its own `build` from `_get_common_kwargs_for_sublayer` and
    `_build_attention`, scores from `_dot_product_equation` and `_masked_softmax`, and (the
    second output) `_compute_attention` given a mask that has its heads axis already."""

    def build(self, query_shape, value_shape, key_shape=None):
        common = self._get_common_kwargs_for_sublayer()
        width = query_shape[-1]
        for name, size in (("query", self._key_dim), ("key", self._key_dim)):
            dense = layers.EinsumDense(
                "abc,cde->abde", (None, self._num_heads, size), bias_axes="de", name=name, **common
            )
            setattr(self, f"_{name}_dense", dense)
        self._value_dense = layers.EinsumDense(
            "abc,cde->abde",
            (None, self._num_heads, self._value_dim),
            bias_axes="de",
            name="value",
            **common,
        )
        self._build_attention(len(query_shape) + 1)
        self._output_dense = layers.EinsumDense(
            "abcd,cde->abe", (None, width), bias_axes="e", name="attention_output", **common
        )
        self._query_dense.build(query_shape)
        self._key_dense.build(value_shape)
        self._value_dense.build(value_shape)
        self._output_dense.build((None, None, self._num_heads, self._value_dim))

    def call(self, query, value, attention_mask=None):
        q, k, v = self._query_dense(query), self._key_dense(value), self._value_dense(value)
        scaled = tripod.ops.multiply(q, self._inverse_sqrt_key_dim)
        scores = tripod.ops.einsum(self._dot_product_equation, k, scaled)
        probs = self._dropout_layer(self._masked_softmax(scores, attention_mask))
        by_hand = tripod.ops.einsum(self._combine_equation, probs, v)
        heads_mask = tripod.ops.expand_dims(attention_mask, 1)  # (batch, 1, T, S)
        computed, _ = self._compute_attention(q, k, v, attention_mask=heads_mask)
        return self._output_dense(by_hand), self._output_dense(computed)


def test_a_subclass_builds_on_keras_private_attention_surface():
    q = random_input((2, 3, 4), seed=3)
    mask = np.tril(np.ones((3, 3), bool))[None].repeat(2, axis=0)
    layer = _OwnBuild(num_heads=2, key_dim=3)
    by_hand, computed = layer(q, q, attention_mask=mask)
    assert [w.path.split("/")[-2] for w in layer.weights[::2]] == [
        "query",
        "key",
        "value",
        "attention_output",
    ]
    expected, _ = _reference(layer, to_numpy(q), to_numpy(q), mask)
    np.testing.assert_allclose(to_numpy(by_hand), expected, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(to_numpy(computed), expected, rtol=1e-4, atol=1e-5)
    layer._use_bias = False  # the private names write through to the settings
    assert layer.use_bias is False and layer._num_heads == layer.num_heads == 2


def test_compute_attention_applies_a_causal_mask_when_asked():
    q, v = random_input((2, 3, 4), seed=4), random_input((2, 3, 4), seed=5)
    layer = layers.MultiHeadAttention(2, 3)
    expected = layer(q, v, use_causal_mask=True)
    heads, _ = layer._compute_attention(
        layer._query_dense(q), layer._key_dense(v), layer._value_dense(v), use_causal_mask=True
    )
    causal = np.tril(np.ones((3, 3), bool))[None].repeat(2, axis=0)
    np.testing.assert_allclose(
        to_numpy(layer._output_dense(heads)), to_numpy(expected), rtol=1e-5, atol=1e-6
    )
    np.testing.assert_allclose(
        to_numpy(expected),
        _reference(layer, to_numpy(q), to_numpy(v), causal)[0],
        rtol=1e-4,
        atol=1e-5,
    )
