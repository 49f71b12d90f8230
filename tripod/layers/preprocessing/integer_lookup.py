"""`IntegerLookup`: integer tokens mapped to vocabulary indices (or back, with `invert`).

The lookup runs on tensors (a sorted-vocabulary search), so it traces under jit and runs in input
pipelines (with `self.backend`, see `DataLayer`).
"""

import numpy as np

from tripod.backends import dtypes
from tripod.layers.preprocessing.data_layer import Constant, DataLayer
from tripod.layers.preprocessing.index_lookup import DROPPED, _IndexLookup


class IntegerLookup(_IndexLookup, DataLayer):
    """Map integer tokens to indices of a vocabulary (or, with `invert`, indices back to tokens).

    The indices are laid out as `[mask_token]` (in "int" mode, when there is one), then
    `num_oov_indices` out-of-vocabulary (OOV) indices, then the vocabulary; a value outside the
    vocabulary goes to OOV index `value mod num_oov_indices` (to -1 when there are none). In the
    other output modes the mask token has no index and its occurrences count nowhere. The
    vocabulary is given, or learned by `adapt(data)` (tokens by decreasing frequency). The lookup
    runs on tensors, so it works inside compiled functions and input pipelines.

    Args:
        max_tokens: None (default) or int > 1, the most indices in all (mask and OOV indices
            included); `adapt` keeps the most frequent tokens.
        num_oov_indices: int >= 0, the number of OOV indices (default 1).
        mask_token: the integer that gets index 0 in "int" mode, or None (default).
        oov_token: int, the token the OOV indices stand for in `get_vocabulary()`, and what
            `invert` gives for an unknown index (default -1).
        vocabulary: list or array of ints, or the path of a text file with one token a line; it
            may start with the mask and OOV tokens in layout order. Default None (set by `adapt`).
        vocabulary_dtype: integer dtype of the tokens (default "int64").
        idf_weights: one inverse-document-frequency weight per vocabulary token; only with
            `output_mode="tf_idf"`, which needs them.
        invert: bool, map indices to tokens instead (output_mode "int" only; default False).
        output_mode: "int" (default: the indices), or "one_hot", "multi_hot", "count", "tf_idf"
            (float32 vectors of `vocabulary_size()`, encoded as in `CategoryEncoding`).
        sparse: bool, must be False (sparse outputs are not supported).
        pad_to_max_tokens: bool, make the encoded vectors `max_tokens` long (needs
            `max_tokens`; default False).
        oov_method: "floormod", the only way of choosing an OOV index.
        salt: kept in the config only (the OOV index does not use it).
        name: str, the layer's name (default: one made from the class name).
        **kwargs: the other `Layer` arguments (dtype, trainable, ...).

    Raises:
        ValueError: an invalid argument (e.g. a non-integer `vocabulary_dtype`, `max_tokens` not
            above 1, `invert` outside "int" mode, `idf_weights` outside "tf_idf" mode), a
            vocabulary with repeated or reserved tokens or longer than `max_tokens`, or a call
            before a vocabulary is set.

    Examples:
        >>> layer = tripod.layers.IntegerLookup(vocabulary=[10, 20, 30])
        >>> tripod.ops.convert_to_numpy(layer(np.array([10, 30, 99]))).tolist()
        [1, 3, 0]
        >>> inverse = tripod.layers.IntegerLookup(vocabulary=[10, 20, 30], invert=True)
        >>> tripod.ops.convert_to_numpy(inverse(np.array([1, 3, 0]))).tolist()
        [10, 30, -1]
        >>> layer = tripod.layers.IntegerLookup()
        >>> layer.adapt(np.array([5, 7, 5]))
        >>> layer.get_vocabulary()
        [-1, 5, 7]
    """

    _UNTRACKED = _IndexLookup._UNTRACKED | DataLayer._UNTRACKED

    def __init__(
        self,
        max_tokens=None,
        num_oov_indices=1,
        mask_token=None,
        oov_token=-1,
        vocabulary=None,
        vocabulary_dtype="int64",
        idf_weights=None,
        invert=False,
        output_mode="int",
        sparse=False,
        pad_to_max_tokens=False,
        oov_method="floormod",
        salt=None,
        name=None,
        **kwargs,
    ):
        self.vocabulary_dtype = dtypes.standardize_dtype(vocabulary_dtype)
        if not dtypes.is_int(self.vocabulary_dtype):
            raise ValueError(
                "IntegerLookup: vocabulary_dtype must be an integer dtype, received "
                f"{vocabulary_dtype!r}."
            )
        super().__init__(
            max_tokens=max_tokens,
            num_oov_indices=num_oov_indices,
            mask_token=mask_token,
            oov_token=oov_token,
            vocabulary=vocabulary,
            idf_weights=idf_weights,
            invert=invert,
            output_mode=output_mode,
            sparse=sparse,
            pad_to_max_tokens=pad_to_max_tokens,
            oov_method=oov_method,
            salt=salt,
            name=name,
            **kwargs,
        )

    def _tokens(self, values):
        return [int(v) for v in np.asarray(values).reshape(-1)]

    def _prepare(self):
        super()._prepare()
        vocab = np.asarray(self._vocabulary, dtype=self.vocabulary_dtype)
        order = np.argsort(vocab, kind="stable")
        self._sorted_vocab = Constant(vocab[order])
        self._sorted_index = Constant(order + self._token_offset(), self.vocabulary_dtype)
        self._index_to_token = Constant(self.get_vocabulary(), self.vocabulary_dtype)

    def call(self, inputs):
        self._check_vocabulary()
        ops = self.backend
        x = ops.cast(inputs, self.vocabulary_dtype)
        if self.invert:
            return self._invert(ops, x)
        return self._encode(self._lookup(ops, x), ops)

    def _lookup(self, ops, x):
        """The index of each integer of `x` (mask -> 0 or dropped, unknown -> an OOV index)."""
        offset = self._oov_start()
        if self.num_oov_indices:
            result = ops.add(ops.mod(x, self.num_oov_indices), offset)
        else:
            result = ops.full_like(x, -1)
        if self._vocabulary:
            last = len(self._vocabulary) - 1
            sorted_vocab = self._sorted_vocab.on(ops)
            pos = ops.clip(ops.searchsorted(sorted_vocab, ops.reshape(x, (-1,))), 0, last)
            pos = ops.reshape(pos, ops.shape(x))
            found = ops.equal(ops.take(sorted_vocab, pos), x)
            result = ops.where(found, ops.take(self._sorted_index.on(ops), pos), result)
        if self.mask_token is not None:
            mask_index = 0 if self.output_mode == "int" else DROPPED
            result = ops.where(
                ops.equal(x, self.mask_token), ops.full_like(result, mask_index), result
            )
        return result

    def _invert(self, ops, indices):
        """The token at each index (the OOV token for indices outside the vocabulary)."""
        size = self.vocabulary_size()
        inside = ops.logical_and(ops.greater_equal(indices, 0), ops.less(indices, size))
        tokens = ops.take(self._index_to_token.on(ops), ops.clip(indices, 0, max(size - 1, 0)))
        return ops.where(inside, tokens, ops.full_like(tokens, self.oov_token))

    def compute_output_spec(self, inputs):
        return self._output_spec(inputs.shape, self.vocabulary_dtype)

    def get_config(self):
        return {
            **super().get_config(),
            "vocabulary_dtype": self.vocabulary_dtype,
            **self._vocabulary_config(),
        }
