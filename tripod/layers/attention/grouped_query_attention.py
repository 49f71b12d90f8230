"""`GroupedQueryAttention`: multi-head attention where groups of query heads share key/value heads."""

import math

from tripod.backends import active
from tripod.backends.common.keras_tensor import KerasTensor
from tripod.layers import constraints, initializers, regularizers
from tripod.layers.activations_layers.softmax import Softmax
from tripod.layers.attention import _common
from tripod.layers.attention.multi_head_attention import _positive_int
from tripod.layers.layer import Layer
from tripod.layers.regularization.dropout import Dropout
from tripod.saving import registry

ops = active()


class GroupedQueryAttention(Layer):
    """Attention with `num_query_heads` query heads and `num_key_value_heads` key/value heads of
    size `head_dim`; each key/value head serves num_query_heads / num_key_value_heads query heads.
    Inputs are (batch, steps, features)."""

    _keras_class_name = "GroupQueryAttention"

    def __init__(self, head_dim, num_query_heads, num_key_value_heads, dropout=0.0, use_bias=True,
                 sliding_window=None, flash_attention=None, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None, bias_constraint=None,
                 use_gate=False, seed=None, **kwargs):  # fmt: skip
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        label = f"GroupedQueryAttention '{self.name}'"
        self.head_dim = _positive_int(head_dim, "head_dim", label)
        self.num_query_heads = _positive_int(num_query_heads, "num_query_heads", label)
        self.num_key_value_heads = _positive_int(num_key_value_heads, "num_key_value_heads", label)
        if num_query_heads % num_key_value_heads:
            raise ValueError(
                f"{label}: num_query_heads ({num_query_heads}) must be a multiple of "
                f"num_key_value_heads ({num_key_value_heads})."
            )
        if (
            isinstance(dropout, bool)
            or not isinstance(dropout, (int, float))
            or not 0 <= dropout <= 1
        ):
            raise ValueError(
                f"{label}: dropout must be a number between 0 and 1, received {dropout!r}."
            )
        if sliding_window is not None:
            _positive_int(sliding_window, "sliding_window", label)
        self.num_repeats = num_query_heads // num_key_value_heads
        self.dropout = dropout
        self.use_bias = use_bias
        self.use_gate = use_gate
        self.sliding_window = sliding_window
        self.flash_attention = flash_attention
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.seed = seed
        self._inverse_sqrt_head_dim = 1.0 / math.sqrt(float(head_dim))
        self.supports_masking = True

    def build(self, query_shape, value_shape, key_shape=None):
        key_shape = value_shape if key_shape is None else key_shape
        for what, shape in (("query", query_shape), ("value", value_shape), ("key", key_shape)):
            if len(shape) != 3:
                raise ValueError(
                    f"GroupedQueryAttention '{self.name}': {what} must have shape (batch, steps, "
                    f"features), received {tuple(shape)}."
                )
        query_heads = (None, self.num_query_heads, self.head_dim)
        key_heads = (None, self.num_key_value_heads, self.head_dim)
        self._query_dense = _common.projection(self, "query", "bqm,muh->bquh", query_heads, "uh")
        self._key_dense = _common.projection(self, "key", "bkm,mvh->bkvh", key_heads, "vh")
        if self.use_gate:
            self._gate_dense = _common.projection(
                self, "gate", "bqm,muh->bquh", query_heads, "uh", activation="sigmoid"
            )
        self._value_dense = _common.projection(self, "value", "bkm,mvh->bkvh", key_heads, "vh")
        self._softmax = Softmax(axis=-1, dtype=self.dtype_policy)
        self._dropout_layer = Dropout(rate=self.dropout, seed=self.seed, dtype=self.dtype_policy)
        self._output_dense = _common.projection(
            self, "attention_output", "bquh,uhm->bqm", (None, query_shape[-1]), "m"
        )  # fmt: skip
        self._query_dense.build(tuple(query_shape))
        self._key_dense.build(tuple(key_shape))
        if self.use_gate:
            self._gate_dense.build(tuple(query_shape))
        self._value_dense.build(tuple(value_shape))
        self._output_dense.build(tuple(query_shape[:-1]) + (self.num_query_heads, self.head_dim))
        self.built = True

    def call(self, query, value, key=None, query_mask=None, value_mask=None, key_mask=None,
             attention_mask=None, return_attention_scores=False, training=None, use_causal_mask=False):  # fmt: skip
        key = value if key is None else key
        mask = _common.combined_mask(
            query, value, query_mask, value_mask, key_mask, attention_mask, use_causal_mask, self.sliding_window
        )  # fmt: skip
        projected_query = ops.multiply(self._query_dense(query), self._inverse_sqrt_head_dim)
        projected_key = self._key_dense(key)
        projected_value = self._value_dense(value)
        if self.num_repeats > 1:
            projected_key = ops.repeat(projected_key, self.num_repeats, axis=2)
            projected_value = ops.repeat(projected_value, self.num_repeats, axis=2)
        scores = ops.einsum("bquh,bkuh->buqk", projected_query, projected_key)
        scores = self._softmax(scores, mask=None if mask is None else ops.expand_dims(mask, 1))
        dropped = self._dropout_layer(scores, training=training)
        output = ops.einsum("buqk,bkuh->bquh", dropped, projected_value)
        if self.use_gate:
            output = ops.multiply(output, self._gate_dense(query))
        output = self._output_dense(output)
        return (output, scores) if return_attention_scores else output

    def compute_output_shape(self, query_shape, value_shape=None, key_shape=None):
        return tuple(query_shape)

    def compute_output_spec(self, query, value, key=None, query_mask=None, value_mask=None, key_mask=None,
                            attention_mask=None, return_attention_scores=False, training=None,
                            use_causal_mask=False):  # fmt: skip
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
            "kernel_initializer": initializers.serialize(self.kernel_initializer),
            "bias_initializer": initializers.serialize(self.bias_initializer),
            "kernel_regularizer": regularizers.serialize(self.kernel_regularizer),
            "bias_regularizer": regularizers.serialize(self.bias_regularizer),
            "activity_regularizer": regularizers.serialize(self.activity_regularizer),
            "kernel_constraint": constraints.serialize(self.kernel_constraint),
            "bias_constraint": constraints.serialize(self.bias_constraint),
            "seed": self.seed,
        }


GroupQueryAttention = GroupedQueryAttention
# Keras writes this layer's class_name as its public name, GroupQueryAttention: load that too.
registry.register_builtin(GroupedQueryAttention, "keras.layers", name="GroupQueryAttention")
