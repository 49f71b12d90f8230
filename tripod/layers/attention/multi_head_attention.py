"""`MultiHeadAttention`: scaled dot-product attention over several learned projections (heads)."""

import math
import string

from tripod.backends import active
from tripod.backends.common.keras_tensor import KerasTensor
from tripod.layers import constraints, initializers, regularizers
from tripod.layers.activations_layers.softmax import Softmax
from tripod.layers.attention import _common
from tripod.layers.layer import Layer
from tripod.layers.regularization.dropout import Dropout

ops = active()

_LETTERS = string.ascii_lowercase


def _positive_int(value, argument, label):
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise ValueError(f"{label}: {argument} must be a positive integer, received {value!r}.")
    return value


def _projection_equation(rank, extra):
    """Equation, kernel letters and output letters projecting the last axis of a rank-`rank`
    input onto `extra` new axes."""
    new = _LETTERS[rank : rank + extra]
    inputs = _LETTERS[:rank]
    return f"{inputs},{inputs[-1]}{new}->{inputs[:-1]}{new}", new


def _attention_equations(rank, attention_axes):
    """For projected tensors of `rank` (…, heads, dim): the score equation, the combine equation
    and the axes of the scores the softmax normalizes."""
    query = _LETTERS[:rank]
    key = list(query)
    fresh = iter(_LETTERS[rank:])
    for axis in attention_axes:
        key[axis] = next(fresh)
    key = "".join(key)
    batch = "".join(query[i] for i in range(rank - 2) if i not in attention_axes)
    query_attended = "".join(query[i] for i in attention_axes)
    key_attended = "".join(key[i] for i in attention_axes)
    scores = batch + query[rank - 2] + query_attended + key_attended
    dot = f"{key},{query}->{scores}"
    combine = f"{scores},{key}->{query}"
    norm_axes = tuple(range(len(scores) - len(attention_axes), len(scores)))
    return dot, combine, norm_axes


class MultiHeadAttention(Layer):
    """Projects query, key and value into `num_heads` heads, attends with
    softmax(Q K^T / sqrt(key_dim)) over `attention_axes`, and projects the heads back."""

    def __init__(self, num_heads, key_dim, value_dim=None, dropout=0.0, use_bias=True,
                 output_shape=None, attention_axes=None, sliding_window=None, flash_attention=None,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, use_gate=False, seed=None, **kwargs):  # fmt: skip
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        label = f"MultiHeadAttention '{self.name}'"
        self.num_heads = _positive_int(num_heads, "num_heads", label)
        self.key_dim = _positive_int(key_dim, "key_dim", label)
        self.value_dim = (
            _positive_int(value_dim, "value_dim", label) if value_dim is not None else key_dim
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
        self.dropout = dropout
        self.use_bias = use_bias
        self.use_gate = use_gate
        self._output_shape = (output_shape,) if isinstance(output_shape, int) else (
            tuple(output_shape) if output_shape is not None else None
        )  # fmt: skip
        if isinstance(attention_axes, int):
            attention_axes = (attention_axes,)
        self._attention_axes = tuple(attention_axes) if attention_axes is not None else None
        self.sliding_window = sliding_window
        self.flash_attention = flash_attention
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.seed = seed
        self._inverse_sqrt_key_dim = 1.0 / math.sqrt(float(self.key_dim))
        self.supports_masking = True

    def build(self, query_shape, value_shape, key_shape=None):
        key_shape = value_shape if key_shape is None else key_shape
        rank = len(query_shape)
        if rank < 3:
            raise ValueError(
                f"MultiHeadAttention '{self.name}': query must have rank >= 3 (batch, ..., features), "
                f"received shape {tuple(query_shape)}."
            )
        axes = self._attention_axes or tuple(range(1, rank - 1))
        self._attention_axes = tuple(a % rank for a in axes)
        free = (None,) * (rank - 2)
        equation, new = _projection_equation(rank, 2)
        self._query_dense = _common.projection(
            self, "query", equation, free + (self.num_heads, self.key_dim), new
        )
        key_equation, key_new = _projection_equation(len(key_shape), 2)
        key_free = (None,) * (len(key_shape) - 2)
        self._key_dense = _common.projection(
            self, "key", key_equation, key_free + (self.num_heads, self.key_dim), key_new
        )
        if self.use_gate:
            self._gate_dense = _common.projection(
                self, "gate", equation, free + (self.num_heads, self.value_dim), new, activation="sigmoid"
            )  # fmt: skip
        value_equation, value_new = _projection_equation(len(value_shape), 2)
        value_free = (None,) * (len(value_shape) - 2)
        self._value_dense = _common.projection(
            self, "value", value_equation, value_free + (self.num_heads, self.value_dim), value_new
        )  # fmt: skip
        self._dot_equation, self._combine_equation, norm_axes = _attention_equations(
            rank + 1, self._attention_axes
        )
        self._softmax = Softmax(axis=norm_axes, dtype=self.dtype_policy)
        self._dropout_layer = Dropout(rate=self.dropout, seed=self.seed, dtype=self.dtype_policy)
        output_dims = self._output_shape or (query_shape[-1],)
        out_letters = _LETTERS[rank + 1 : rank + 1 + len(output_dims)]
        heads = _LETTERS[: rank + 1]
        self._output_dense = _common.projection(
            self, "attention_output", f"{heads},{heads[-2:]}{out_letters}->{heads[:-2]}{out_letters}",
            free + tuple(output_dims), out_letters,
        )  # fmt: skip
        self._query_dense.build(tuple(query_shape))
        self._key_dense.build(tuple(key_shape))
        if self.use_gate:
            self._gate_dense.build(tuple(query_shape))
        self._value_dense.build(tuple(value_shape))
        self._output_dense.build(tuple(query_shape[:-1]) + (self.num_heads, self.value_dim))
        # Masks (batch, T..., S...) gain the heads axis before the attended query axes.
        self._mask_heads_axis = -len(self._attention_axes) * 2 - 1
        self.built = True

    # Public views of the projections: checkpoints name them `query_dense`, ... as Keras does.
    @property
    def query_dense(self):
        return self._query_dense

    @property
    def key_dense(self):
        return self._key_dense

    @property
    def value_dense(self):
        return self._value_dense

    @property
    def output_dense(self):
        return self._output_dense

    @property
    def attention_axes(self):
        return self._attention_axes

    def call(self, query, value, key=None, query_mask=None, value_mask=None, key_mask=None,
             attention_mask=None, return_attention_scores=False, training=None, use_causal_mask=False):  # fmt: skip
        key = value if key is None else key
        mask = _common.combined_mask(
            query, value, query_mask, value_mask, key_mask, attention_mask, use_causal_mask, self.sliding_window
        )  # fmt: skip
        projected_query = ops.multiply(self._query_dense(query), self._inverse_sqrt_key_dim)
        projected_key = self._key_dense(key)
        projected_value = self._value_dense(value)
        scores = ops.einsum(self._dot_equation, projected_key, projected_query)
        if mask is not None:
            mask = ops.expand_dims(mask, self._mask_heads_axis)
        scores = self._softmax(scores, mask=mask)
        dropped = self._dropout_layer(scores, training=training)
        output = ops.einsum(self._combine_equation, dropped, projected_value)
        if self.use_gate:
            output = ops.multiply(output, self._gate_dense(query))
        output = self._output_dense(output)
        return (output, scores) if return_attention_scores else output

    def compute_output_shape(self, query_shape, value_shape=None, key_shape=None):
        return tuple(query_shape[:-1]) + (self._output_shape or (query_shape[-1],))

    def compute_output_spec(self, query, value, key=None, query_mask=None, value_mask=None, key_mask=None,
                            attention_mask=None, return_attention_scores=False, training=None,
                            use_causal_mask=False):  # fmt: skip
        query_shape, key_shape = tuple(query.shape), tuple((value if key is None else key).shape)
        output = KerasTensor(self.compute_output_shape(query_shape), self.compute_dtype)
        if not return_attention_scores:
            return output
        axes = self._attention_axes
        batch = tuple(query_shape[i] for i in range(len(query_shape) - 1) if i not in axes)
        scores = (
            batch
            + (self.num_heads,)
            + tuple(query_shape[a] for a in axes)
            + tuple(key_shape[a] for a in axes)
        )
        return output, KerasTensor(scores, self.compute_dtype)

    def get_config(self):
        return {
            **super().get_config(),
            "num_heads": self.num_heads,
            "key_dim": self.key_dim,
            "value_dim": self.value_dim,
            "dropout": self.dropout,
            "use_bias": self.use_bias,
            "use_gate": self.use_gate,
            "output_shape": self._output_shape,
            "attention_axes": self._attention_axes,
            "sliding_window": self.sliding_window,
            "kernel_initializer": initializers.serialize(self.kernel_initializer),
            "bias_initializer": initializers.serialize(self.bias_initializer),
            "kernel_regularizer": regularizers.serialize(self.kernel_regularizer),
            "bias_regularizer": regularizers.serialize(self.bias_regularizer),
            "activity_regularizer": regularizers.serialize(self.activity_regularizer),
            "kernel_constraint": constraints.serialize(self.kernel_constraint),
            "bias_constraint": constraints.serialize(self.bias_constraint),
            "seed": self.seed,
        }
