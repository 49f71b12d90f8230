"""`ReversibleEmbedding`: an `Embedding` that also projects hidden states back to logits.

`layer(ids)` looks rows up as `Embedding` does; `layer(hidden, reverse=True)` multiplies the
hidden states by the transposed embedding matrix (`tie_weights=True`, the usual weight tying of
language models) or by a separate `(output_dim, input_dim)` weight `reverse_embeddings`.
"""

from tripod.backends import active, dtypes
from tripod.backends.common.keras_tensor import KerasTensor
from tripod.layers.core.embedding import Embedding

ops = active()


class ReversibleEmbedding(Embedding):
    """An `Embedding` that also maps hidden states back to vocabulary logits.

    `layer(ids)` looks rows up as `Embedding` does: integer shape `(batch, ...)` gives
    `(batch, ..., output_dim)`. `layer(hidden, reverse=True)` takes hidden states of shape
    `(batch, ..., output_dim)` to logits of shape `(batch, ..., input_dim)`, by the transposed
    table (`tie_weights`) or by a separate `(output_dim, input_dim)` weight
    `reverse_embeddings`.

    Args:
        input_dim: int > 0, the vocabulary size: indices lie in `[0, input_dim)`.
        output_dim: int > 0, the size of each vector.
        tie_weights: bool, the reverse projection reuses the embedding table (default True);
            False creates `reverse_embeddings`, with the table's initializer.
        embeddings_initializer: initializer of the table; default "uniform".
        embeddings_regularizer: regularizer of the table.
        embeddings_constraint: constraint applied to the table after each update.
        mask_zero: bool, kept in the config as Keras keeps it; as in Keras 3, the layer
            attaches no mask to its outputs (mask the padding downstream yourself).
        reverse_dtype: dtype of the reverse projection's computation and logits (e.g.
            "float32" under a mixed policy); default None, the compute dtype.
        logit_soft_cap: float > 0, cap the logits softly as `tanh(logits / cap) * cap`;
            default None, no cap.
        **kwargs: the other `Embedding` arguments (`weights`, `lora_rank`, ...) and the `Layer`
            arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `input_dim` or `output_dim` is not a positive integer, or `logit_soft_cap`
            is not None or a positive number.

    Examples:
        >>> embedding = tripod.layers.ReversibleEmbedding(input_dim=10, output_dim=4)
        >>> hidden = embedding(np.array([[1, 2, 3]]))
        >>> tuple(hidden.shape)
        (1, 3, 4)
        >>> tuple(embedding(hidden, reverse=True).shape)
        (1, 3, 10)
        >>> untied = tripod.layers.ReversibleEmbedding(10, 4, tie_weights=False)
        >>> logits = untied(np.ones((1, 4)), reverse=True)
        >>> tuple(untied.reverse_embeddings.shape)
        (4, 10)
    """

    def __init__(
        self,
        input_dim,
        output_dim,
        tie_weights=True,
        embeddings_initializer="uniform",
        embeddings_regularizer=None,
        embeddings_constraint=None,
        mask_zero=False,
        reverse_dtype=None,
        logit_soft_cap=None,
        **kwargs,
    ):
        super().__init__(
            input_dim,
            output_dim,
            embeddings_initializer=embeddings_initializer,
            embeddings_regularizer=embeddings_regularizer,
            embeddings_constraint=embeddings_constraint,
            mask_zero=mask_zero,
            **kwargs,
        )
        if logit_soft_cap is not None and not (
            isinstance(logit_soft_cap, (int, float)) and logit_soft_cap > 0
        ):
            raise ValueError(
                f"ReversibleEmbedding '{self.name}': logit_soft_cap must be None or "
                f"a positive number, received {logit_soft_cap!r}."
            )
        self.tie_weights = bool(tie_weights)
        self.reverse_dtype = (
            None if reverse_dtype is None else dtypes.standardize_dtype(reverse_dtype)
        )
        self.logit_soft_cap = logit_soft_cap

    def build(self, input_shape=None):
        if self.built:
            return
        super().build(input_shape)
        if not self.tie_weights:
            # As Keras: the embeddings' initializer, without their regularizer or constraint.
            self.reverse_embeddings = self.add_weight(
                shape=(self.output_dim, self.input_dim),
                name="reverse_embeddings",
                initializer=self.embeddings_initializer,
            )
        self.built = True

    def call(self, inputs, reverse=False):
        if not reverse:
            return super().call(inputs)
        if self.tie_weights:
            kernel = ops.transpose(self.embeddings.value)
        else:
            kernel = self.reverse_embeddings.value
        if self.reverse_dtype is not None:
            inputs = ops.cast(inputs, self.reverse_dtype)
            kernel = ops.cast(kernel, self.reverse_dtype)
        logits = ops.matmul(inputs, kernel)
        if self.logit_soft_cap is not None:
            cap = self.logit_soft_cap
            logits = ops.multiply(ops.tanh(ops.divide(logits, cap)), cap)
        return logits

    def compute_mask(self, inputs, mask=None):
        # No mask, even with mask_zero, as Keras 3's ReversibleEmbedding: models built on it
        # (KerasHub's) pass their padding masks explicitly, and an attached one would change
        # what their masking layers compute.
        return None

    def compute_output_shape(self, input_shape, reverse=False):
        if reverse:
            return tuple(input_shape)[:-1] + (self.input_dim,)
        return super().compute_output_shape(input_shape)

    def compute_output_spec(self, inputs, reverse=False):
        shape = self.compute_output_shape(inputs.shape, reverse)
        dtype = self.reverse_dtype if reverse and self.reverse_dtype else self.compute_dtype
        return KerasTensor(shape, dtype)

    def get_config(self):
        return {
            **super().get_config(),
            "tie_weights": self.tie_weights,
            "reverse_dtype": self.reverse_dtype,
            "logit_soft_cap": self.logit_soft_cap,
        }
