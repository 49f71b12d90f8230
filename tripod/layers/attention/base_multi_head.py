"""`_BaseMultiHead`: what MultiHeadAttention and GroupedQueryAttention share.

Both project the query, key and value into heads with `EinsumDense` sub-layers, take a masked
softmax of the query-key scores with dropout, combine the value heads with it, optionally gate the
result with a sigmoid projection of the query, and project the heads back. A subclass checks its
head arguments and sets `_query_scale` (1 / sqrt(head size)), gives the projections and
`_mask_heads_axis` (where a (batch, query, key) mask gains the heads axis) in `build`, and writes
the score and combination einsums in `_scores` and `_combine`.
"""

from tripod.backends import active
from tripod.layers import weight_settings
from tripod.layers.activations_layers.softmax import Softmax
from tripod.layers.attention import _common
from tripod.layers.layer import Layer
from tripod.layers.regularization.dropout import Dropout

ops = active()


class _BaseMultiHead(Layer):
    """Attention through learned query, key and value heads."""

    def __init__(
        self,
        *,
        dropout,
        use_bias,
        sliding_window,
        flash_attention,
        kernel_initializer,
        bias_initializer,
        kernel_regularizer,
        bias_regularizer,
        activity_regularizer,
        kernel_constraint,
        bias_constraint,
        use_gate,
        seed,
        **kwargs,
    ):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        label = f"{type(self).__name__} '{self.name}'"
        _common.check_dropout(dropout, label)
        if sliding_window is not None:
            _common.positive_int(sliding_window, "sliding_window", label)
        self.dropout = dropout
        self.use_bias = use_bias
        self.use_gate = use_gate
        self.sliding_window = sliding_window
        self.flash_attention = flash_attention
        weight_settings.resolve(
            self, "kernel", kernel_initializer, kernel_regularizer, kernel_constraint
        )
        weight_settings.resolve(self, "bias", bias_initializer, bias_regularizer, bias_constraint)
        self.seed = seed
        self.supports_masking = True

    def _build_projections(self, shapes, specs, heads_shape, build_attention):
        """Create the sub-layers and build the projections. `shapes`: the query, value and key
        shapes; `specs`: (equation, output_shape, bias_axes) of the query, key, gate, value and
        attention_output projections; `heads_shape`: the trailing shape of the combined heads;
        `build_attention()` creates the softmax and dropout, between the value and output
        projections (Keras's order, which the weights keep)."""
        query_shape, value_shape, key_shape = (tuple(s) for s in shapes)
        query, key, gate, value, output = specs
        self._query_dense = _common.projection(self, "query", *query)
        self._key_dense = _common.projection(self, "key", *key)
        if self.use_gate:
            self._gate_dense = _common.projection(self, "gate", *gate, activation="sigmoid")
        self._value_dense = _common.projection(self, "value", *value)
        build_attention()
        self._output_dense = _common.projection(self, "attention_output", *output)
        self._query_dense.build(query_shape)
        self._key_dense.build(key_shape)
        if self.use_gate:
            self._gate_dense.build(query_shape)
        self._value_dense.build(value_shape)
        self._output_dense.build(query_shape[:-1] + heads_shape)

    def _build_softmax(self, softmax_axis):
        """The softmax of the scores over `softmax_axis` (in float32 for half-precision heads)
        and the dropout on them."""
        # One attended axis: an int axis takes the backends' one-kernel softmax, not
        # exp(x - logsumexp).
        if isinstance(softmax_axis, tuple) and len(softmax_axis) == 1:
            softmax_axis = softmax_axis[0]
        self._softmax = Softmax(axis=softmax_axis, dtype=self._logits_dtype or self.dtype_policy)
        self._dropout_layer = Dropout(rate=self.dropout, seed=self.seed, dtype=self.dtype_policy)

    def call(
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
        key = value if key is None else key
        mask = _common.combined_mask(
            query,
            value,
            query_mask,
            value_mask,
            key_mask,
            attention_mask,
            use_causal_mask,
            self.sliding_window,
        )
        output, scores = self._compute_attention(
            self._query_dense(query),
            self._key_dense(key),
            self._value_dense(value),
            attention_mask=mask,
            return_attention_scores=return_attention_scores,
            training=training,
        )
        output = self._finish(output, query)
        return (output, scores) if return_attention_scores else output

    def _compute_attention(
        self,
        query,
        key,
        value,
        attention_mask=None,
        training=None,
        return_attention_scores=False,
        use_causal_mask=False,
    ):
        """(the attended value heads, the scores or None) of projected heads under a mask
        (batch, T..., S...; and causal when `use_causal_mask`), before the output projection.
        Keras's method of that name and signature, which subclasses override or call (KerasHub's
        cached attention runs it on its KV cache)."""
        mask = attention_mask
        if use_causal_mask:
            causal = _common.positional_mask(ops.shape(query)[1], ops.shape(key)[1], True, None)
            mask = causal if mask is None else ops.logical_and(ops.cast(mask, "bool"), causal)
        mask = self._with_heads_axis(mask, len(query.shape) - 1 + len(self._attention_axes))
        if self._fused_call(return_attention_scores, training):
            # The kernel scales the scores itself: no separate pass over the query.
            output = ops.dot_product_attention(
                query,
                key,
                value,
                mask=mask,
                scale=self._query_scale,
                flash_attention=self.flash_attention,
            )
            return output, None
        if self._logits_dtype:  # form the logits of half-precision heads in float32
            query = ops.cast(query, self._logits_dtype)
            key = ops.cast(key, self._logits_dtype)
        scores = self._scores(ops.multiply(query, self._query_scale), key)
        scores = ops.cast(self._softmax(scores, mask=mask), self.compute_dtype)
        dropped = self._dropout_layer(scores, training=training)
        return self._combine(dropped, value), scores

    def _with_heads_axis(self, mask, scores_rank):
        """A (batch, T..., S...) mask (or None) given the heads axis, and any other it lacks,
        to broadcast over scores of `scores_rank`; a subclass's mask may come with it already
        (KerasHub's Moonshine passes (batch, 1, T, S)), as Keras allows."""
        while mask is not None and len(mask.shape) < scores_rank:
            mask = ops.expand_dims(mask, self._mask_heads_axis)
        return mask

    @property
    def _logits_dtype(self):
        """float32 where the compute dtype is a half float (the logits and softmax are formed in
        it, as the backends' fused attention does), else None: the compute dtype serves."""
        return "float32" if self.compute_dtype in ("float16", "bfloat16") else None

    def _fused_call(self, return_attention_scores, training):
        """Whether this call is `ops.dot_product_attention` of the heads (one kernel where the
        backend has one, masks included): heads laid out (batch, steps, heads, size), no scores
        asked for, no dropout in this call, flash attention not refused."""
        return (
            self._heads_fusable
            and not return_attention_scores
            and not (training and self.dropout)
            and self.flash_attention is not False
        )

    def _finish(self, output, query):
        """The attended heads, gated when asked, projected back."""
        if self.use_gate:
            output = ops.multiply(output, self._gate_dense(query))
        return self._output_dense(output)

    def _scores(self, query, key):
        """The scores of the projected query and key heads."""
        raise NotImplementedError(f"{type(self).__name__} must implement _scores.")

    def _combine(self, scores, value):
        """The value heads weighted by the (normalized) scores."""
        raise NotImplementedError(f"{type(self).__name__} must implement _combine.")

    def _settings_config(self):
        """The config entries of the weight settings and the seed, which both layers end with."""
        return {**weight_settings.config(self, "kernel", "bias", "activity"), "seed": self.seed}
