"""`MultiHeadAttention`: scaled dot-product attention over several learned projections (heads)."""

import math
import string

from tripod.backends import active
from tripod.backends.common.keras_tensor import KerasTensor
from tripod.layers.attention import _common
from tripod.layers.attention.base_multi_head import _BaseMultiHead

ops = active()

_LETTERS = string.ascii_lowercase


def _head_projection(rank, heads, dim):
    """(equation, output_shape, bias_axes) of the projection of the last axis of a rank-`rank`
    input onto (`heads`, `dim`)."""
    new = _LETTERS[rank : rank + 2]
    inputs = _LETTERS[:rank]
    equation = f"{inputs},{inputs[-1]}{new}->{inputs[:-1]}{new}"
    return equation, (None,) * (rank - 2) + (heads, dim), new


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


def _alias(name):
    """A private name Keras's layer keeps its setting under, reading and writing `name`."""
    return property(lambda self: getattr(self, name), lambda self, v: setattr(self, name, v))


class MultiHeadAttention(_BaseMultiHead):
    """Multi-head attention: each head attends from `query` to `value` in its own projection.

    The layer projects query, key and value into `num_heads` heads, computes
    `softmax(Q K^T / sqrt(key_dim))` over `attention_axes` (masked where a mask says so), takes
    the weighted sum of the values and projects the heads back to the query's last size (or
    `output_shape`). Called as `layer(query, value, key=None, ...)`; with `query` and `value`
    the same tensor it is self-attention.

    Args:
        num_heads: int > 0, the number of heads.
        key_dim: int > 0, the size of each head's query and key projection.
        value_dim: int > 0, the size of each head's value projection; default `key_dim`.
        dropout: float in [0, 1], dropout on the attention scores in training.
        use_bias: bool, the projections add a bias (default True).
        output_shape: int or tuple, the trailing shape of the output; default the query's last
            size.
        attention_axes: int or tuple of ints, the axes attended over; default every axis
            between the batch and the features (the sequence axis).
        sliding_window: int > 0, each query sees only keys less than that many positions away.
        flash_attention: None (use a fused attention kernel where the backend and the call
            allow), or False (never).
        kernel_initializer: initializer of the projection kernels; default "glorot_uniform".
        bias_initializer: initializer of the projection biases; default "zeros".
        kernel_regularizer: regularizer of the projection kernels.
        bias_regularizer: regularizer of the projection biases.
        activity_regularizer: regularizer of the output.
        kernel_constraint: constraint of the projection kernels.
        bias_constraint: constraint of the projection biases.
        use_gate: bool, multiply the attended values by a sigmoid gate projected from the query.
        seed: int, seed of the attention dropout.
        **kwargs: the `Layer` arguments (name, dtype, ...).

    Call arguments: `query` `(batch, T, dim)`, `value` `(batch, S, dim)`, `key` (default
    `value`), `attention_mask` (boolean, `(batch, T, S)`: True where a query may attend),
    `query_mask`/`value_mask`/`key_mask` (padding masks), `use_causal_mask` (bool: no query
    sees a later position), `return_attention_scores` (bool: also return the scores,
    `(batch, num_heads, T, S)`) and `training`.

    Raises:
        ValueError: `num_heads`, `key_dim`, `value_dim` or `sliding_window` is not a positive
            integer, or the query has rank below 3.

    Examples:
        >>> attention = tripod.layers.MultiHeadAttention(num_heads=2, key_dim=8)
        >>> query, value = np.zeros((3, 4, 16)), np.zeros((3, 6, 16))
        >>> output, scores = attention(query, value, return_attention_scores=True)
        >>> tuple(output.shape), tuple(scores.shape)
        ((3, 4, 16), (3, 2, 4, 6))
    """

    def __init__(
        self,
        num_heads,
        key_dim,
        value_dim=None,
        dropout=0.0,
        use_bias=True,
        output_shape=None,
        attention_axes=None,
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
        label = f"MultiHeadAttention '{self.name}'"
        self.num_heads = _common.positive_int(num_heads, "num_heads", label)
        self.key_dim = _common.positive_int(key_dim, "key_dim", label)
        self.value_dim = key_dim
        if value_dim is not None:
            self.value_dim = _common.positive_int(value_dim, "value_dim", label)
        self._output_shape = (
            (output_shape,)
            if isinstance(output_shape, int)
            else (tuple(output_shape) if output_shape is not None else None)
        )
        if isinstance(attention_axes, int):
            attention_axes = (attention_axes,)
        self._attention_axes = tuple(attention_axes) if attention_axes is not None else None
        self._query_scale = 1.0 / math.sqrt(float(self.key_dim))

    def build(self, query_shape, value_shape, key_shape=None):
        key_shape = value_shape if key_shape is None else key_shape
        rank = len(query_shape)
        if rank < 3:
            raise ValueError(
                f"MultiHeadAttention '{self.name}': query must have rank >= 3 (batch, ..., "
                "features), "
                f"received shape {tuple(query_shape)}."
            )
        output_dims = self._output_shape or (query_shape[-1],)
        out_letters = _LETTERS[rank + 1 : rank + 1 + len(output_dims)]
        heads = _LETTERS[: rank + 1]
        output = (
            f"{heads},{heads[-2:]}{out_letters}->{heads[:-2]}{out_letters}",
            (None,) * (rank - 2) + tuple(output_dims),
            out_letters,
        )
        specs = (
            _head_projection(rank, self.num_heads, self.key_dim),
            _head_projection(len(key_shape), self.num_heads, self.key_dim),
            _head_projection(rank, self.num_heads, self.value_dim),
            _head_projection(len(value_shape), self.num_heads, self.value_dim),
            output,
        )
        shapes = (query_shape, value_shape, key_shape)
        heads = (self.num_heads, self.value_dim)
        self._build_projections(shapes, specs, heads, lambda: self._build_attention(rank + 1))
        self.built = True

    def _build_attention(self, rank):
        """The score and combine equations, softmax and dropout of attention over projected
        heads of `rank` (the query's rank + 1). Keras's method of that name, which `build` calls
        and subclasses call from their own `build` (KerasHub's Whisper, Moonshine and XLNet)."""
        axes = self._attention_axes or tuple(range(1, rank - 2))
        self._attention_axes = tuple(a % (rank - 1) for a in axes)
        self._dot_equation, self._combine_equation, norm_axes = _attention_equations(
            rank, self._attention_axes
        )
        self._build_softmax(norm_axes)
        # Masks (batch, T..., S...) gain the heads axis before the attended query axes.
        self._mask_heads_axis = -len(self._attention_axes) * 2 - 1
        # (batch, steps, features) attended over its steps: heads come out
        # (batch, steps, heads, size), of one size for keys and values as
        # `ops.dot_product_attention` takes them
        fusable_axes = rank == 4 and self._attention_axes == (1,)
        self._heads_fusable = fusable_axes and self.value_dim == self.key_dim

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

    # -- Keras's private surface, which subclasses build on ------------------------------------
    _num_heads = _alias("num_heads")
    _key_dim = _alias("key_dim")
    _value_dim = _alias("value_dim")
    _dropout = _alias("dropout")
    _use_bias = _alias("use_bias")
    _use_gate = _alias("use_gate")
    _sliding_window = _alias("sliding_window")
    _flash_attention = _alias("flash_attention")
    _kernel_initializer = _alias("kernel_initializer")
    _bias_initializer = _alias("bias_initializer")
    _kernel_regularizer = _alias("kernel_regularizer")
    _bias_regularizer = _alias("bias_regularizer")
    _activity_regularizer = _alias("activity_regularizer")
    _kernel_constraint = _alias("kernel_constraint")
    _bias_constraint = _alias("bias_constraint")
    _inverse_sqrt_key_dim = _alias("_query_scale")
    _dot_product_equation = _alias("_dot_equation")

    def _get_common_kwargs_for_sublayer(self):
        """The settings of a projection sub-layer: fresh copies of the initializers (a shared
        one would give every projection the same values), the regularizers, constraints and
        dtype policy."""
        return {
            "kernel_initializer": _common.clone(self.kernel_initializer),
            "bias_initializer": _common.clone(self.bias_initializer),
            "kernel_regularizer": self.kernel_regularizer,
            "bias_regularizer": self.bias_regularizer,
            "activity_regularizer": self.activity_regularizer,
            "kernel_constraint": self.kernel_constraint,
            "bias_constraint": self.bias_constraint,
            "dtype": self.dtype_policy,
        }

    def _masked_softmax(self, attention_scores, attention_mask=None):
        """The softmax of the scores where the mask allows (Keras's method of that name)."""
        mask = self._with_heads_axis(attention_mask, len(attention_scores.shape))
        return self._softmax(attention_scores, mask=mask)

    def _scores(self, query, key):
        return ops.einsum(self._dot_equation, key, query)

    def _combine(self, scores, value):
        return ops.einsum(self._combine_equation, scores, value)

    def compute_output_shape(self, query_shape, value_shape=None, key_shape=None):
        return tuple(query_shape[:-1]) + (self._output_shape or (query_shape[-1],))

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
            **self._settings_config(),
        }
