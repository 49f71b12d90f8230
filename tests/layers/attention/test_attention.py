"""Attention and AdditiveAttention against NumPy softmax attention, with masks."""

import numpy as np
import pytest

from tests.layers.harness import TRAINS, random_input, run_layer_test, to_numpy
from tripod import layers


def _softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _attend(scores, value, value_mask=None, causal=False):
    allowed = np.ones(scores.shape, bool)
    if value_mask is not None:
        allowed &= value_mask[:, None, :]
    if causal:
        allowed &= np.tril(np.ones(scores.shape[-2:], bool))
    weights = _softmax(np.where(allowed, scores, -1e9))
    return weights @ value, weights


def test_attention_contract():
    run_layer_test(
        layers.Attention,
        input_shape=[(2, 3, 4), (2, 5, 4)],
        expected_output_shape=(2, 3, 4),
        supports_masking=True,
        expected_num_trainable_weights=0,
    )
    run_layer_test(
        layers.Attention,
        {"use_scale": True, "score_mode": "concat", "dropout": 0.2, "seed": 1},
        input_shape=[(2, 3, 4), (2, 5, 4)],
        expected_output_shape=(2, 3, 4),
        expected_num_trainable_weights=2,
        expected_num_seed_generators=1,
    )
    layer = layers.Attention(use_scale=True, score_mode="concat", name="att")
    layer([random_input((1, 2, 3)), random_input((1, 4, 3))])
    assert [(v.path, v.shape) for v in layer.weights] == [
        ("att/scale", ()),
        ("att/concat_score_weight", ()),
    ]
    assert list(layer.get_config()) == [
        "name",
        "trainable",
        "dtype",
        "use_scale",
        "score_mode",
        "dropout",
        "seed",
    ]


def test_dot_attention_matches_numpy_with_masks():
    q, v, k = (
        random_input((2, 3, 4), seed=1),
        random_input((2, 5, 4), seed=2),
        random_input((2, 5, 4), seed=3),
    )
    q_mask = np.array([[True, True, False], [True, True, True]])
    v_mask = np.array([[True, False, True, True, False], [True, True, True, True, True]])
    out, weights = layers.Attention()(
        [q, v, k], mask=[q_mask, v_mask], return_attention_scores=True
    )
    expected, expected_weights = _attend(q @ k.transpose(0, 2, 1), v, v_mask)
    np.testing.assert_allclose(to_numpy(weights), expected_weights, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(to_numpy(out), expected * q_mask[..., None], rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(
        to_numpy(layers.Attention().compute_mask([q, v], [q_mask, v_mask])), q_mask
    )
    out = layers.Attention()([q, v], use_causal_mask=True)
    np.testing.assert_allclose(
        to_numpy(out), _attend(q @ v.transpose(0, 2, 1), v, causal=True)[0], rtol=1e-5, atol=1e-5
    )


def test_concat_and_scaled_scores():
    q, v = random_input((2, 3, 4), seed=1), random_input((2, 5, 4), seed=2)
    layer = layers.Attention(use_scale=True, score_mode="concat")
    layer.build([q.shape, v.shape])
    layer.set_weights([np.float32(0.5), np.float32(2.0)])
    scores = 2.0 * np.tanh(0.5 * (q[:, :, None, :] + v[:, None, :, :])).sum(-1)
    np.testing.assert_allclose(to_numpy(layer([q, v])), _attend(scores, v)[0], rtol=1e-5, atol=1e-5)


def test_additive_attention():
    run_layer_test(
        layers.AdditiveAttention,
        input_shape=[(2, 3, 4), (2, 5, 4)],
        expected_output_shape=(2, 3, 4),
        expected_num_trainable_weights=1,
        supports_masking=True,
    )
    q, v = random_input((2, 3, 4), seed=1), random_input((2, 5, 4), seed=2)
    layer = layers.AdditiveAttention(name="add")
    layer.build([q.shape, v.shape])
    scale = random_input((4,), seed=3)
    layer.set_weights([scale])
    scores = (scale * np.tanh(q[:, :, None, :] + v[:, None, :, :])).sum(-1)
    np.testing.assert_allclose(to_numpy(layer([q, v])), _attend(scores, v)[0], rtol=1e-5, atol=1e-5)
    assert [(w.path, w.shape) for w in layer.weights] == [("add/scale", (4,))]
    assert list(layer.get_config()) == [
        "name",
        "trainable",
        "dtype",
        "use_scale",
        "dropout",
        "seed",
    ]


@pytest.mark.parametrize("score_mode", ["dot", "concat"])
def test_additive_attention_keeps_but_ignores_score_mode_as_keras_does(score_mode):
    """Keras 3 accepts `score_mode` in AdditiveAttention's kwargs and keeps it, but always scores
    additively, with the one `scale` weight, and leaves it out of the config."""
    q, v = random_input((2, 3, 4), seed=1), random_input((2, 5, 4), seed=2)
    layer = layers.AdditiveAttention(score_mode=score_mode)
    layer.build([q.shape, v.shape])
    scale = random_input((4,), seed=3)
    layer.set_weights([scale])
    scores = (scale * np.tanh(q[:, :, None, :] + v[:, None, :, :])).sum(-1)
    np.testing.assert_allclose(to_numpy(layer([q, v])), _attend(scores, v)[0], rtol=1e-5, atol=1e-5)
    assert layer.score_mode == score_mode and len(layer.weights) == 1
    assert "score_mode" not in layer.get_config()


def test_additive_attention_rejects_an_unknown_score_mode_as_keras_does():
    with pytest.raises(ValueError, match="score_mode must be 'dot' or 'concat'"):
        layers.AdditiveAttention(score_mode="additive")


def test_attention_dropout_only_in_training():
    q, v = random_input((2, 3, 4), seed=1), random_input((2, 5, 4), seed=2)
    layer = layers.Attention(dropout=0.5, seed=0)
    expected = _attend(q @ v.transpose(0, 2, 1), v)[0]
    np.testing.assert_allclose(to_numpy(layer([q, v])), expected, rtol=1e-5, atol=1e-5)
    if TRAINS:
        _, weights = layer([q, v], training=True, return_attention_scores=True)
        assert np.any(to_numpy(weights) == 0)


def test_attention_symbolic_scores_and_errors():
    q, v = layers.Input((3, 4)), layers.Input((5, 4))
    out, scores = layers.Attention()([q, v], return_attention_scores=True)
    assert tuple(out.shape) == (None, 3, 4) and tuple(scores.shape) == (None, 3, 5)
    with pytest.raises(ValueError, match="score_mode"):
        layers.Attention(score_mode="cosine")
    with pytest.raises(ValueError, match=r"\[query, value\]"):
        layers.Attention()(random_input((2, 3, 4)))
