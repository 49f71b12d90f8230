"""`Embedding`: integer indices -> rows of a trainable table."""

from tripod.backends import active
from tripod.layers import weight_settings
from tripod.layers.layer import Layer

ops = active()


class Embedding(Layer):
    """Turns positive integer indices into dense vectors of size `output_dim`."""

    def __init__(self, input_dim, output_dim, embeddings_initializer="uniform",
                 embeddings_regularizer=None, embeddings_constraint=None, mask_zero=False,
                 weights=None, lora_rank=None, lora_alpha=None, quantization_config=None,
                 **kwargs):  # fmt: skip
        super().__init__(**kwargs)
        for arg, value in (("input_dim", input_dim), ("output_dim", output_dim)):
            if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
                raise ValueError(
                    f"Embedding '{self.name}': {arg} must be a positive integer, received {value!r}."
                )
        if lora_rank is not None or quantization_config is not None:
            raise NotImplementedError(
                f"Embedding '{self.name}': LoRA and quantization are not supported yet."
            )
        self.input_dim = input_dim
        self.output_dim = output_dim
        weight_settings.resolve(
            self, "embeddings", embeddings_initializer, embeddings_regularizer,
            embeddings_constraint,
        )  # fmt: skip
        self.mask_zero = mask_zero
        self.supports_masking = mask_zero
        if weights is not None:
            self.build()
            self.set_weights(
                weights if isinstance(weights, list) and len(weights) == 1 else [weights]
            )

    def build(self, input_shape=None):
        if self.built:
            return
        self.embeddings = weight_settings.add(self, "embeddings", (self.input_dim, self.output_dim))
        self.built = True

    def call(self, inputs):
        if ops.dtype(inputs) not in ("int32", "int64"):
            inputs = ops.cast(inputs, "int32")
        return ops.take(self.embeddings.value, inputs, axis=0)

    def compute_mask(self, inputs, previous_mask=None):
        if not self.mask_zero:
            return None
        return ops.not_equal(inputs, 0)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape) + (self.output_dim,)

    def get_config(self):
        return {
            **super().get_config(),
            "input_dim": self.input_dim,
            "output_dim": self.output_dim,
            **weight_settings.config(self, "embeddings", "activity"),
            "mask_zero": self.mask_zero,
            "quantization_config": None,
        }
