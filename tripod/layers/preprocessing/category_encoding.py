"""`CategoryEncoding`: integer category ids as one-hot, multi-hot or count vectors."""

from tripod.layers.preprocessing import _encoding
from tripod.layers.preprocessing.data_layer import DataLayer

_MODES = ("one_hot", "multi_hot", "count")


class CategoryEncoding(DataLayer):
    """Encode integer ids in [0, num_tokens) as dense vectors of length num_tokens."""

    def __init__(self, num_tokens=None, output_mode="multi_hot", sparse=False, **kwargs):
        super().__init__(**kwargs)
        if not isinstance(num_tokens, int) or isinstance(num_tokens, bool) or num_tokens <= 0:
            raise ValueError(
                f"CategoryEncoding '{self.name}': num_tokens must be a positive integer, received "
                f"{num_tokens!r}."
            )
        _encoding.check_choice(self, "output_mode", output_mode, _MODES)
        _encoding.check_no_sparse(self, sparse)
        self.num_tokens = num_tokens
        self.output_mode = output_mode
        self.sparse = sparse

    def call(self, inputs):
        return _encoding.encode(
            inputs, self.output_mode, self.num_tokens, self.compute_dtype, backend=self.backend
        )

    def compute_output_shape(self, input_shape):
        return _encoding.encoded_shape(input_shape, self.output_mode, self.num_tokens)

    def get_config(self):
        return {
            **super().get_config(),
            "num_tokens": self.num_tokens,
            "output_mode": self.output_mode,
        }
