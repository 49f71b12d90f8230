"""`Attention`: dot-product (Luong-style) or concat attention of a query over values."""

from tripod.backends import active
from tripod.backends.common.keras_tensor import KerasTensor
from tripod.backends.common.seed import SeedGenerator
from tripod.layers.attention import _common
from tripod.layers.layer import Layer

ops = active()


class Attention(Layer):
    """Dot-product attention of a query over values: `softmax(scores(query, key)) @ value`.

    Called on `[query, value]` or `[query, value, key]` (key defaults to value), of shapes
    `(batch, Tq, dim)`, `(batch, Tv, dim)` and `(batch, Tv, dim)`; the output has shape
    `(batch, Tq, dim)`. There are no projections (see `MultiHeadAttention` for those). Scores
    are `query @ key^T` (times a trainable scalar `scale` with `use_scale`), or with
    `score_mode="concat"` the sum over features of `tanh(scale * (query_i + key_j))`, times a
    trainable scalar.

    Call arguments: `inputs` (the list above), `mask` (`[query_mask, value_mask]`, booleans of
    shape `(batch, Tq)` and `(batch, Tv)`: masked values get no attention, masked query steps
    give zeros), `training` (dropout only then), `return_attention_scores` (bool: also return
    the attention weights, `(batch, Tq, Tv)`) and `use_causal_mask` (bool: query step i sees
    value steps up to i).

    Args:
        use_scale: bool, learn a scalar `scale` of the scores (default False).
        score_mode: "dot" (default) or "concat", how the scores are formed (above).
        dropout: float in [0, 1], the fraction of attention weights dropped in training
            (default 0.0).
        seed: int, the seed of the dropout; default None.
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `score_mode` is neither "dot" nor "concat", `dropout` is outside [0, 1],
            or the inputs (or the mask) are not a list of 2 or 3 tensors.

    Examples:
        >>> attention = tripod.layers.Attention()
        >>> query, value = np.ones((2, 3, 4)), np.ones((2, 5, 4))
        >>> output, weights = attention([query, value], return_attention_scores=True)
        >>> tuple(output.shape), tuple(weights.shape)
        ((2, 3, 4), (2, 3, 5))
        >>> steps = np.ones((1, 2, 4))
        >>> _, weights = attention(
        ...     [steps, steps], return_attention_scores=True, use_causal_mask=True
        ... )
        >>> print(tripod.ops.convert_to_numpy(weights))
        [[[1.  0. ]
          [0.5 0.5]]]
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
