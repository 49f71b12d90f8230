"""`AdditiveAttention`: Bahdanau-style attention, scores sum(scale * tanh(query_i + key_j))."""

from tripod.backends import active
from tripod.layers.attention.attention import Attention

ops = active()


class AdditiveAttention(Attention):
    """Additive (Bahdanau-style) attention: `softmax(scores) @ value`, where the score of query
    step i and key step j is the sum over features of `scale * tanh(query_i + key_j)`.

    Called as `Attention` is, on `[query, value]` or `[query, value, key]` of shapes
    `(batch, Tq, dim)`, `(batch, Tv, dim)`, `(batch, Tv, dim)`, with the same call arguments
    (`mask`, `training`, `return_attention_scores`, `use_causal_mask`); the output has shape
    `(batch, Tq, dim)`.

    Args:
        use_scale: bool, learn `scale`, a per-feature vector of size `dim` (default True); when
            False the scale is 1.
        dropout: float in [0, 1], the fraction of attention weights dropped in training
            (default 0.0).
        **kwargs: `seed` (int, the seed of the dropout), `score_mode` ("dot" or "concat",
            accepted and kept as in Keras but without effect: the scores are always additive,
            and it is not in the config), and the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `dropout` is outside [0, 1], `score_mode` is neither "dot" nor "concat", or
            the inputs (or the mask) are not a list of 2 or 3 tensors.

    Examples:
        >>> attention = tripod.layers.AdditiveAttention()
        >>> query, value = np.zeros((2, 3, 4)), np.ones((2, 5, 4))
        >>> output, weights = attention([query, value], return_attention_scores=True)
        >>> tuple(output.shape), tuple(weights.shape), tuple(attention.scale.shape)
        ((2, 3, 4), (2, 3, 5), (4,))
    """

    def __init__(self, use_scale=True, dropout=0.0, **kwargs):
        super().__init__(use_scale=use_scale, dropout=dropout, **kwargs)

    def build(self, input_shape):
        self._check_inputs(input_shape)
        self.scale = None
        if self.use_scale:
            self.scale = self.add_weight(
                name="scale", shape=(input_shape[0][-1],), initializer="glorot_uniform"
            )
        self.built = True

    def _scores(self, query, key):
        pairs = ops.tanh(ops.add(ops.expand_dims(query, -2), ops.expand_dims(key, -3)))
        if self.scale is not None:
            pairs = ops.multiply(pairs, self.scale.value)
        return ops.sum(pairs, axis=-1)

    def get_config(self):
        config = super().get_config()
        del config["score_mode"]
        return config
