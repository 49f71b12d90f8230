"""Masks on eager tensors (issue 14), as Keras 3 attaches them: a mask-producing layer called on
real tensors attaches `_keras_mask` to its outputs, pass-through layers keep it, and a layer whose
`call` takes `mask` receives it without `mask=` (in a subclassed model's `call` too)."""

import numpy as np

import tripod as keras
from tripod import layers, ops
from tripod.backends import config
from tripod.layers.layer import get_keras_mask

TOKENS = np.array([[1, 2, 0, 0], [3, 0, 0, 0]], "int32")
TOKEN_MASK = np.array([[True, True, False, False], [True, False, False, False]])


def _mask(x):
    """The mask attached to eager `x` as a NumPy array (the `_keras_mask` attribute where the
    backend's tensors take attributes; NumPy arrays do not, so read it through tripod there)."""
    mask = get_keras_mask(x) if config.backend() == "numpy" else x._keras_mask
    return None if mask is None else ops.convert_to_numpy(mask)


def test_embedding_attaches_its_mask():
    out = layers.Embedding(10, 4, mask_zero=True)(TOKENS)
    np.testing.assert_array_equal(_mask(out), TOKEN_MASK)


def test_masking_layer_attaches_its_mask():
    x = np.array([[[1.0], [0.0]], [[2.0], [3.0]]], "float32")
    np.testing.assert_array_equal(_mask(layers.Masking()(x)), [[True, False], [True, True]])


def test_layers_without_masks_attach_nothing():
    out = layers.Dense(2)(np.ones((2, 3), "float32"))
    assert get_keras_mask(out) is None
    assert get_keras_mask(layers.Embedding(10, 4)(TOKENS)) is None  # mask_zero=False


def test_pass_through_layers_keep_the_mask_across_an_autocast():
    masked = layers.Embedding(10, 4, mask_zero=True)(TOKENS)
    out = layers.Dense(3, dtype="mixed_float16")(masked)  # its input is cast to float16 first
    assert ops.dtype(out) == "float16"
    np.testing.assert_array_equal(_mask(out), TOKEN_MASK)


def test_merge_layer_combines_the_masks_of_its_inputs():
    """A position is kept where any input keeps it (Keras's merge rule)."""
    a = layers.Embedding(10, 2, mask_zero=True)(TOKENS)
    b = layers.Embedding(10, 2, mask_zero=True)(np.array([[1, 2, 3, 0], [0, 4, 0, 0]], "int32"))
    expected = TOKEN_MASK | np.array([[True, True, True, False], [False, True, False, False]])
    np.testing.assert_array_equal(_mask(layers.Add()([a, b])), expected)


class TokensToState(keras.Model):
    """Embedding(mask_zero) then an LSTM, with no `mask=` passed in `call` (the masking guide)."""

    def __init__(self):
        super().__init__()
        self.embedding = layers.Embedding(10, 3, mask_zero=True)
        self.lstm = layers.LSTM(2)

    def call(self, x):
        return self.lstm(self.embedding(x))


def test_a_layer_consumes_the_mask_of_the_previous_eager_layer():
    model = TokensToState()
    out = ops.convert_to_numpy(model(TOKENS))
    # Masked trailing steps change nothing: each row equals the LSTM over its unmasked prefix.
    first = model.lstm(np.array(ops.convert_to_numpy(model.embedding(TOKENS[:1, :2]))))
    second = model.lstm(np.array(ops.convert_to_numpy(model.embedding(TOKENS[1:, :1]))))
    np.testing.assert_allclose(out[0], ops.convert_to_numpy(first)[0], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(out[1], ops.convert_to_numpy(second)[0], rtol=1e-5, atol=1e-6)
    unmasked = model.lstm(np.array(ops.convert_to_numpy(model.embedding(TOKENS))))
    assert not np.allclose(out, ops.convert_to_numpy(unmasked), atol=1e-4)


def test_compiled_predict_uses_the_mask_as_the_eager_call_does():
    model = TokensToState()
    eager = ops.convert_to_numpy(model(TOKENS))
    np.testing.assert_allclose(model.predict(TOKENS, verbose=0), eager, rtol=1e-5, atol=1e-6)


def test_an_explicit_mask_wins_over_the_attached_one():
    model = TokensToState()
    embedded = model.embedding(TOKENS)
    everything = ops.convert_to_tensor(np.ones((2, 4), bool))
    explicit = model.lstm(embedded, mask=everything)
    unmasked = model.lstm(np.array(ops.convert_to_numpy(embedded)))
    np.testing.assert_allclose(
        ops.convert_to_numpy(explicit), ops.convert_to_numpy(unmasked), rtol=1e-5
    )
