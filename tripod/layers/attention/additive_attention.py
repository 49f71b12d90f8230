"""`AdditiveAttention`: Bahdanau-style attention, scores sum(scale * tanh(query_i + key_j))."""

from tripod.backends import active
from tripod.layers.attention.attention import Attention

ops = active()


class AdditiveAttention(Attention):
    """Like `Attention`, with additive scores: sum over features of scale * tanh(query_i + key_j),
    `scale` a trainable per-feature vector when `use_scale`."""

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
