"""`StringLookup`: string tokens mapped to vocabulary indices (or back, with `invert`).

Only TensorFlow has string tensors, so string inputs are host-side NumPy arrays (str or object
dtype, or lists): the lookup runs on the host in NumPy and returns a backend int64 tensor (or the
encoded float32 tensor). With `invert=True` the inputs are indices (any tensor) and the output is
a NumPy str array. The layer is therefore not traceable and not usable on symbolic `Input`s.
"""

import numpy as np

from tripod.backends import active
from tripod.layers.preprocessing._encoding import host_array
from tripod.layers.preprocessing.hashing import _fnv1a
from tripod.layers.preprocessing.index_lookup import _IndexLookup

ops = active()


class StringLookup(_IndexLookup):
    """Map strings to indices in [0, vocabulary_size()); see `index_lookup` for the layout."""

    def __init__(self, max_tokens=None, num_oov_indices=1, mask_token=None, oov_token="[UNK]",
                 vocabulary=None, idf_weights=None, invert=False, output_mode="int",
                 pad_to_max_tokens=False, sparse=False, encoding="utf-8", name=None, salt=None,
                 **kwargs):  # fmt: skip
        self.encoding = encoding
        super().__init__(max_tokens, num_oov_indices, mask_token, oov_token, vocabulary, idf_weights,
                         invert, output_mode, sparse, pad_to_max_tokens, kwargs.pop("oov_method", "floormod"),
                         salt, name=name, **kwargs)  # fmt: skip

    def _tokens(self, values):
        return [v.decode(self.encoding) if isinstance(v, bytes) else str(v) for v in np.asarray(values, dtype=object).reshape(-1)]

    def _prepare(self):
        super()._prepare()
        offset = self._token_offset()
        self._index_of = {token: i + offset for i, token in enumerate(self._vocabulary)}
        self._index_to_token = np.asarray(self.get_vocabulary(), dtype=object)

    def __call__(self, inputs, **kwargs):
        return self.call(inputs)  # host-side: no build, no cast, no symbolic tensors

    def call(self, inputs):
        self._check_vocabulary()
        if self.invert:
            return self._invert(host_array(inputs))
        array = np.asarray(inputs, dtype=object)
        tokens = self._tokens(array)
        indices = np.fromiter((self._index(t) for t in tokens), dtype=np.int64, count=len(tokens))
        return self._encode(ops.convert_to_tensor(indices.reshape(array.shape)))

    def _index(self, token):
        """The index of one token (mask -> 0, unknown -> an OOV index by its hash)."""
        if token == self.mask_token:
            return 0
        index = self._index_of.get(token)
        if index is not None:
            return index
        if not self.num_oov_indices:
            raise ValueError(f"{self._label()}: the token {token!r} is not in the vocabulary and num_oov_indices is 0.")
        offset = self.mask_token is not None
        return offset + (_fnv1a(token) & 0x7FFFFFFF) % self.num_oov_indices

    def _invert(self, indices):
        size = len(self._index_to_token)
        inside = (indices >= 0) & (indices < size)
        tokens = self._index_to_token[np.clip(indices, 0, size - 1)]
        return np.where(inside, tokens, self.oov_token).astype(str)

    def get_config(self):
        return {**super().get_config(), **self._vocabulary_config(), "encoding": self.encoding}
