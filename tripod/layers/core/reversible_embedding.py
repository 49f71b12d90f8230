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
    """An embedding whose `call(inputs, reverse=True)` maps hidden states to vocabulary logits,
    in `reverse_dtype` when given, soft-capped as `tanh(logits / cap) * cap` when
    `logit_soft_cap` is set."""

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

    def compute_mask(self, inputs, previous_mask=None):
        # Only the lookup (integer ids) masks padding; hidden states in reverse carry no mask.
        if not dtypes.is_int(dtypes.standardize_dtype(inputs.dtype)):
            return None
        return super().compute_mask(inputs, previous_mask)

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
