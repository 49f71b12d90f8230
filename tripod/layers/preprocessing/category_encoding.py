"""`CategoryEncoding`: integer category ids as one-hot, multi-hot or count vectors."""

from tripod.layers.preprocessing import _encoding
from tripod.layers.preprocessing.data_layer import DataLayer

_MODES = ("one_hot", "multi_hot", "count")


class CategoryEncoding(DataLayer):
    """Encode integer category ids in [0, num_tokens) as one-hot, multi-hot or count vectors.

    With `output_mode="one_hot"` each id becomes a vector of length `num_tokens` (a last axis of
    size 1 is replaced); with "multi_hot" and "count" each sample, the last axis of the input (or
    each element of a 1-D input), becomes one vector marking, or counting, the ids it holds. The
    outputs are floats in the compute dtype.

    Args:
        num_tokens: int > 0, the number of categories, the length of the output vectors
            (required, despite its default None).
        output_mode: "one_hot", "multi_hot" (default) or "count".
        sparse: bool, must be False (sparse outputs are not supported).
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `num_tokens` is not a positive integer, an unknown `output_mode`, or
            `sparse=True`.

    Examples:
        >>> layer = tripod.layers.CategoryEncoding(num_tokens=4, output_mode="one_hot")
        >>> tripod.ops.convert_to_numpy(layer(np.array([0, 2]))).tolist()
        [[1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0]]
        >>> layer = tripod.layers.CategoryEncoding(num_tokens=4, output_mode="count")
        >>> tripod.ops.convert_to_numpy(layer(np.array([[1, 1, 3], [0, 2, 2]]))).tolist()
        [[0.0, 2.0, 0.0, 1.0], [1.0, 0.0, 2.0, 0.0]]
    """

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
