"""`Attention`: dot-product (Luong-style) or concat attention of a query over values."""

from tripod.backends import active
from tripod.backends.common.keras_tensor import KerasTensor
from tripod.backends.common.seed import SeedGenerator
from tripod.layers.attention import _common
from tripod.layers.layer import Layer

ops = active()


class Attention(Layer):
    """softmax(scores(query, key)) @ value for inputs [query, value] or [query, value, key].

    Scores are query @ key^T (times a trainable `scale` with `use_scale`), or with
    `score_mode="concat"` sum(tanh(scale * (query_i + key_j))) times a trainable weight. `mask`
    is [query_mask, value_mask]: masked values get no attention, masked query steps give zeros.
    """

    def __init__(self, use_scale=False, score_mode="dot", dropout=0.0, seed=None, **kwargs):
        super().__init__(**kwargs)
        label = f"{type(self).__name__} '{self.name}'"
        if score_mode not in ("dot", "concat"):
            raise ValueError(
                f"{label}: score_mode must be 'dot' or 'concat', received {score_mode!r}."
            )
        _common.check_dropout(dropout, label)
        self.use_scale = use_scale
        self.score_mode = score_mode
        self.dropout = dropout
        self.seed = seed
        if dropout > 0:
            self.seed_generator = SeedGenerator(seed)
        self.supports_masking = True

    def build(self, input_shape):
        self._check_inputs(input_shape)
        self.scale = None
        self.concat_score_weight = None
        if self.use_scale:
            self.scale = self.add_weight(name="scale", shape=(), initializer="ones")
        if self.score_mode == "concat":
            self.concat_score_weight = self.add_weight(
                name="concat_score_weight", shape=(), initializer="ones"
            )
        self.built = True

    def _check_inputs(self, inputs, mask=None):
        label = f"{type(self).__name__} '{self.name}'"
        if not isinstance(inputs, (list, tuple)) or len(inputs) not in (2, 3):
            raise ValueError(
                f"{label}: inputs must be a list [query, value] or [query, value, key], received "
                f"{inputs!r}."
            )
        if mask is not None and (not isinstance(mask, (list, tuple)) or len(mask) not in (2, 3)):
            raise ValueError(
                f"{label}: mask must be a list [query_mask, value_mask], received {mask!r}."
            )

    def _scores(self, query, key):
        """Unnormalized scores of shape (batch, Tq, Tv)."""
        if self.score_mode == "dot":
            scores = ops.matmul(query, ops.swapaxes(key, -1, -2))
            return scores if self.scale is None else ops.multiply(scores, self.scale.value)
        pairs = ops.add(ops.expand_dims(query, -2), ops.expand_dims(key, -3))
        if self.scale is not None:
            pairs = ops.multiply(pairs, self.scale.value)
        return ops.multiply(self.concat_score_weight.value, ops.sum(ops.tanh(pairs), axis=-1))

    def call(
        self,
        inputs,
        mask=None,
        training=False,
        return_attention_scores=False,
        use_causal_mask=False,
    ):
        self._check_inputs(inputs, mask)
        query, value = inputs[0], inputs[1]
        key = inputs[2] if len(inputs) > 2 else value
        query_mask = mask[0] if mask is not None else None
        value_mask = mask[1] if mask is not None else None
        scores = self._scores(query, key)
        scores_mask = _common.combined_mask(
            query, value, value_mask=value_mask, use_causal_mask=use_causal_mask
        )
        if scores_mask is not None:
            penalty = _common.large_negative(ops.dtype(scores))
            scores = ops.where(scores_mask, scores, ops.cast(penalty, ops.dtype(scores)))
        weights = ops.softmax(scores, axis=-1)
        if training and self.dropout > 0:
            weights = ops.dropout(weights, self.dropout, seed=self.seed_generator)
        result = ops.matmul(weights, value)
        if query_mask is not None:
            result = ops.multiply(
                result, ops.expand_dims(ops.cast(query_mask, ops.dtype(result)), -1)
            )
        return (result, weights) if return_attention_scores else result

    def compute_mask(self, inputs, mask=None):
        self._check_inputs(inputs, mask)
        return None if mask is None or mask[0] is None else ops.convert_to_tensor(mask[0])

    def compute_output_shape(self, input_shape):
        query_shape, value_shape = input_shape[0], input_shape[1]
        return tuple(query_shape[:-1]) + (value_shape[-1],)

    def compute_output_spec(
        self,
        inputs,
        mask=None,
        training=False,
        return_attention_scores=False,
        use_causal_mask=False,
    ):
        query_shape, value_shape = tuple(inputs[0].shape), tuple(inputs[1].shape)
        output = KerasTensor(
            self.compute_output_shape([query_shape, value_shape]), self.compute_dtype
        )
        if not return_attention_scores:
            return output
        return output, KerasTensor(query_shape[:-1] + (value_shape[-2],), self.compute_dtype)

    def get_config(self):
        return {
            **super().get_config(),
            "use_scale": self.use_scale,
            "score_mode": self.score_mode,
            "dropout": self.dropout,
            "seed": self.seed,
        }
