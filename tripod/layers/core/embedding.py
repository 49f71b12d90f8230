"""`Embedding`: integer indices -> rows of a trainable table."""

from tripod.backends import active
from tripod.layers import weight_settings
from tripod.layers.layer import Layer
from tripod.layers.quantization import Quantizable, kinds

ops = active()


class Embedding(Quantizable, Layer):
    """Turns integer indices into dense vectors: row `i` of a `(input_dim, output_dim)` table.

    An input of integer shape `(batch, ...)` gives an output of shape `(batch, ..., output_dim)`.

    Args:
        input_dim: int > 0, the vocabulary size: indices lie in `[0, input_dim)`.
        output_dim: int > 0, the size of each vector.
        embeddings_initializer: initializer of the table; default "uniform".
        embeddings_regularizer: regularizer of the table.
        embeddings_constraint: constraint applied to the table after each update.
        mask_zero: bool, treat index 0 as padding: the layer outputs a mask that is False
            there, which masking layers downstream (e.g. `LSTM`) honour.
        weights: an initial table (an array of shape `(input_dim, output_dim)`).
        lora_rank: int, enable LoRA of this rank when the layer is built (see `enable_lora`).
        lora_alpha: float, the LoRA scale numerator (default `lora_rank`).
        quantization_config: a `tripod.quantizers.QuantizationConfig` used when the dtype
            policy is quantized (`"int8_from_float32"`).
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `input_dim` or `output_dim` is not a positive integer.

    Examples:
        >>> embedding = tripod.layers.Embedding(input_dim=10, output_dim=4, mask_zero=True)
        >>> ids = np.array([[3, 1, 0]])
        >>> tuple(embedding(ids).shape)
        (1, 3, 4)
        >>> print(tripod.ops.convert_to_numpy(embedding.compute_mask(ids)))
        [[ True  True False]]
    """

    _quant_kind = kinds.EMBEDDING

    def __init__(
        self,
        input_dim,
        output_dim,
        embeddings_initializer="uniform",
        embeddings_regularizer=None,
        embeddings_constraint=None,
        mask_zero=False,
        weights=None,
        lora_rank=None,
        lora_alpha=None,
        quantization_config=None,
        **kwargs,
    ):
        super().__init__(**kwargs)
        for arg, value in (("input_dim", input_dim), ("output_dim", output_dim)):
            if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
                raise ValueError(
                    f"Embedding '{self.name}': {arg} must be a positive integer, received "
                    f"{value!r}."
                )
        self._init_quantization(lora_rank, lora_alpha, quantization_config)
        self.input_dim = input_dim
        self.output_dim = output_dim
        weight_settings.resolve(
            self,
            "embeddings",
            embeddings_initializer,
            embeddings_regularizer,
            embeddings_constraint,
        )
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
        self._finish_build(input_shape)

    def call(self, inputs):
        adapted = self._adapted  # LoRA or quantization (tripod.layers.quantization)
        if adapted is not None:
            return adapted(self, inputs)
        if ops.dtype(inputs) not in ("int32", "int64"):
            inputs = ops.cast(inputs, "int32")
        return ops.take(self.embeddings.value, inputs, axis=0)

    def compute_mask(self, inputs, mask=None):
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
            **self._quantization_config_entries(),
        }
