"""`GroupedQueryAttention`: multi-head attention in which groups of query heads share
key/value heads."""

import math

from tripod.backends import active
from tripod.backends.common.keras_tensor import KerasTensor
from tripod.layers.attention import _common
from tripod.layers.attention.base_multi_head import _BaseMultiHead
from tripod.saving import registry

ops = active()


class GroupedQueryAttention(_BaseMultiHead):
    """Grouped-query attention: multi-head attention in which several query heads share each
    key/value head (`GroupQueryAttention` is the same class).

    The layer projects the query into `num_query_heads` heads and the key and value into
    `num_key_value_heads` heads, all of size `head_dim`; each key/value head serves
    `num_query_heads / num_key_value_heads` query heads (1 key/value head is multi-query
    attention, as many as query heads is `MultiHeadAttention`). The weighted values are
    projected back to the query's last size. Inputs are `(batch, steps, features)`.

    Call arguments: `query` `(batch, T, dim)`, `value` `(batch, S, dim)`, `key` (default
    `value`), `query_mask`/`value_mask`/`key_mask` (padding masks), `attention_mask`
    (boolean, `(batch, T, S)`: True where a query may attend), `return_attention_scores`
    (bool: also return the scores, `(batch, num_query_heads, T, S)`), `training` and
    `use_causal_mask` (bool: no query sees a later position).

    Args:
        head_dim: int > 0, the size of each query, key and value head.
        num_query_heads: int > 0, the number of query heads.
        num_key_value_heads: int > 0 dividing `num_query_heads`, the number of key/value heads.
        dropout: float in [0, 1], dropout on the attention scores in training (default 0.0).
        use_bias: bool, the projections add a bias (default True).
        sliding_window: int > 0, each query sees only keys less than that many positions away;
            default None, no limit.
        flash_attention: None (use a fused attention kernel where the backend and the call
            allow), or False (never).
        kernel_initializer: initializer of the projection kernels; default "glorot_uniform".
        bias_initializer: initializer of the projection biases; default "zeros".
        kernel_regularizer: regularizer of the projection kernels.
        bias_regularizer: regularizer of the projection biases.
        activity_regularizer: regularizer of the output.
        kernel_constraint: constraint of the projection kernels.
        bias_constraint: constraint of the projection biases.
        use_gate: bool, multiply the attended values by a sigmoid gate projected from the query
            (default False).
        seed: int, seed of the attention dropout; default None.
        **kwargs: the `Layer` arguments (name, dtype, ...).

    Raises:
        ValueError: `head_dim`, a head count or `sliding_window` is not a positive integer,
            `num_query_heads` is not a multiple of `num_key_value_heads`, `dropout` is outside
            [0, 1], or (on the first call) an input is not of rank 3.

    Examples:
        >>> attention = tripod.layers.GroupedQueryAttention(
        ...     head_dim=4, num_query_heads=4, num_key_value_heads=2
        ... )
        >>> query, value = np.zeros((2, 3, 8)), np.zeros((2, 5, 8))
        >>> output, scores = attention(query, value, return_attention_scores=True)
        >>> tuple(output.shape), tuple(scores.shape)
        ((2, 3, 8), (2, 4, 3, 5))
    """

    _keras_class_name = "GroupQueryAttention"
    _mask_heads_axis = 1  # a (batch, T, S) mask broadcasts over scores (batch, heads, T, S)
    _attention_axes = (1,)  # the steps

    def __init__(
        self,
        head_dim,
        num_query_heads,
        num_key_value_heads,
        dropout=0.0,
        use_bias=True,
        sliding_window=None,
        flash_attention=None,
        kernel_initializer="glorot_uniform",
        bias_initializer="zeros",
        kernel_regularizer=None,
        bias_regularizer=None,
        activity_regularizer=None,
        kernel_constraint=None,
        bias_constraint=None,
        use_gate=False,
        seed=None,
        **kwargs,
    ):
        super().__init__(
            dropout=dropout,
            use_bias=use_bias,
            sliding_window=sliding_window,
            flash_attention=flash_attention,
            kernel_initializer=kernel_initializer,
            bias_initializer=bias_initializer,
            kernel_regularizer=kernel_regularizer,
            bias_regularizer=bias_regularizer,
            activity_regularizer=activity_regularizer,
            kernel_constraint=kernel_constraint,
            bias_constraint=bias_constraint,
            use_gate=use_gate,
            seed=seed,
            **kwargs,
        )
        label = f"GroupedQueryAttention '{self.name}'"
        self.head_dim = _common.positive_int(head_dim, "head_dim", label)
        self.num_query_heads = _common.positive_int(num_query_heads, "num_query_heads", label)
        self.num_key_value_heads = _common.positive_int(
            num_key_value_heads, "num_key_value_heads", label
        )
        if num_query_heads % num_key_value_heads:
            raise ValueError(
                f"{label}: num_query_heads ({num_query_heads}) must be a multiple of "
                f"num_key_value_heads ({num_key_value_heads})."
            )
        self.num_repeats = num_query_heads // num_key_value_heads
        self._query_scale = 1.0 / math.sqrt(float(head_dim))

    def build(self, query_shape, value_shape, key_shape=None):
        key_shape = value_shape if key_shape is None else key_shape
        for what, shape in (("query", query_shape), ("value", value_shape), ("key", key_shape)):
            if len(shape) != 3:
                raise ValueError(
                    f"GroupedQueryAttention '{self.name}': {what} must have shape (batch, steps, "
                    f"features), received {tuple(shape)}."
                )
        query = ("bqm,muh->bquh", (None, self.num_query_heads, self.head_dim), "uh")
        key_value = ("bkm,mvh->bkvh", (None, self.num_key_value_heads, self.head_dim), "vh")
        output = ("bquh,uhm->bqm", (None, query_shape[-1]), "m")
        self._build_projections(
            (query_shape, value_shape, key_shape),
            (query, key_value, query, key_value, output),
            (self.num_query_heads, self.head_dim),
            lambda: self._build_softmax(-1),
        )
        self._heads_fusable = True  # heads are (batch, steps, heads, size)
        self.built = True

    def _scores(self, query, key):
        if self.num_repeats > 1:
            key = ops.repeat(key, self.num_repeats, axis=2)
        return ops.einsum("bquh,bkuh->buqk", query, key)

    def _combine(self, scores, value):
        if self.num_repeats > 1:
            value = ops.repeat(value, self.num_repeats, axis=2)
        return ops.einsum("buqk,bkuh->bquh", scores, value)

    def compute_output_shape(self, query_shape, value_shape=None, key_shape=None):
        return tuple(query_shape)

    def compute_output_spec(
        self,
        query,
        value,
        key=None,
        query_mask=None,
        value_mask=None,
        key_mask=None,
        attention_mask=None,
        return_attention_scores=False,
        training=None,
        use_causal_mask=False,
    ):
        output = KerasTensor(tuple(query.shape), self.compute_dtype)
        if not return_attention_scores:
            return output
        key_steps = (value if key is None else key).shape[1]
        scores = (query.shape[0], self.num_query_heads, query.shape[1], key_steps)
        return output, KerasTensor(scores, self.compute_dtype)

    def get_config(self):
        return {
            **super().get_config(),
            "head_dim": self.head_dim,
            "num_query_heads": self.num_query_heads,
            "num_key_value_heads": self.num_key_value_heads,
            "use_bias": self.use_bias,
            "use_gate": self.use_gate,
            "sliding_window": self.sliding_window,
            "dropout": self.dropout,
            **self._settings_config(),
        }


GroupQueryAttention = GroupedQueryAttention
# Keras writes this layer's class_name as its public name, GroupQueryAttention: load that too.
registry.register_builtin(GroupedQueryAttention, "keras.layers", name="GroupQueryAttention")
