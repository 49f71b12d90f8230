"""`StringLookup`: string tokens mapped to vocabulary indices (or back, with `invert`).

Two paths with the same results. Host strings (NumPy str/bytes/object arrays, lists) are looked
up on the host and give the active backend's int64 (or encoded float32) tensors. `tf.Tensor`
strings (in a `tf.data` map whatever the active backend, or on the tensorflow backend) are looked
up with TensorFlow ops through a `tf.lookup` table and give tf tensors. With `invert=True` the
inputs are indices: a tf tensor gives a tf string tensor, other inputs a NumPy str array. On the
tensorflow backend a model can hold string tensors (`Input(dtype="string")`), so there the layer
also takes symbolic string inputs (symbolic indices with `invert`) and runs on the TensorFlow path
inside the model; elsewhere it belongs in the input pipeline.
"""

import functools

import numpy as np

from tripod.backends import dtypes
from tripod.backends.common import frameworks, optional
from tripod.backends.common.keras_tensor import any_symbolic, is_keras_tensor
from tripod.layers.preprocessing._encoding import host_array, spec
from tripod.layers.preprocessing.data_layer import DataLayer
from tripod.layers.preprocessing.hashing import _fnv1a
from tripod.layers.preprocessing.index_lookup import DROPPED, _IndexLookup


@functools.cache
def tf_text():
    """TensorFlow's text ops (`tripod.backends.tensorflow.text`), imported when first needed."""
    return optional.require(
        "tripod.backends.tensorflow.text", "tensorflow", "Text on tf.Tensor strings"
    )


def is_tf_tensor(x):
    """Whether `x` is a TensorFlow tensor (asked from its type: TensorFlow is not imported)."""
    return frameworks.framework_of(x) == "tensorflow"


def is_symbolic_call(layer, inputs, strings=True):
    """Whether `inputs` is symbolic (a functional model being built); a clear error unless it is
    one KerasTensor of strings (of integers when not `strings`), which only TensorFlow has."""
    if not any_symbolic((inputs,), {}):
        return False
    if is_keras_tensor(inputs) and _has_dtype(inputs, strings):
        return True
    wanted = (
        "'string' (an `Input(dtype=\"string\")`: tensorflow backend only)" if strings else "int"
    )
    raise TypeError(
        f"{type(layer).__name__} '{layer.name}' takes one symbolic input of dtype {wanted}; "
        f"received {inputs!r}. Without string inputs, apply the layer in the input pipeline "
        "(e.g. `dataset.map(lambda x, y: (layer(x), y))`, or on NumPy strings before `fit`)."
    )


def _has_dtype(tensor, strings):
    """Whether `tensor` holds strings (when `strings`) or integers (when not)."""
    return tensor.dtype == dtypes.STRING if strings else dtypes.is_int(tensor.dtype)


class StringLookup(_IndexLookup, DataLayer):
    """Map string tokens to indices of a vocabulary (or, with `invert`, indices back to strings).

    The indices are laid out as `[mask_token]` (in "int" mode, when there is one), then
    `num_oov_indices` out-of-vocabulary (OOV) indices, then the vocabulary; a string outside the
    vocabulary goes to an OOV index chosen by its hash. In the other output modes the mask token
    has no index and its occurrences count nowhere. The vocabulary is given, or learned by
    `adapt(data)` (tokens by decreasing frequency). Host strings (NumPy arrays, lists) are looked
    up on the host and give int tensors of the active backend; `tf.Tensor` strings (in a `tf.data`
    map, or on the tensorflow backend) are looked up with TensorFlow ops and give tf tensors. With
    `invert` the inputs are indices and the outputs NumPy string arrays (tf string tensors for tf
    inputs).

    Args:
        max_tokens: None (default) or int > 1, the most indices in all (mask and OOV indices
            included); `adapt` keeps the most frequent tokens.
        num_oov_indices: int >= 0, the number of OOV indices (default 1); with 0 an unknown
            string raises an error.
        mask_token: the string that gets index 0 in "int" mode, or None (default).
        oov_token: str, the token the OOV indices stand for in `get_vocabulary()`, and what
            `invert` gives for an unknown index (default "[UNK]").
        vocabulary: list or array of strings, or the path of a text file with one token a line;
            it may start with the mask and OOV tokens in layout order. Default None (set by
            `adapt`).
        idf_weights: one inverse-document-frequency weight per vocabulary token; only with
            `output_mode="tf_idf"`, which needs them.
        invert: bool, map indices to strings instead (output_mode "int" only; default False).
        output_mode: "int" (default: the indices), or "one_hot", "multi_hot", "count", "tf_idf"
            (float32 vectors of `vocabulary_size()`, encoded as in `CategoryEncoding`).
        pad_to_max_tokens: bool, make the encoded vectors `max_tokens` long (needs
            `max_tokens`; default False).
        sparse: bool, must be False (sparse outputs are not supported).
        encoding: str, the text encoding of byte-string inputs (default "utf-8").
        name: str, the layer's name (default: one made from the class name).
        salt: kept in the config only (the OOV index does not use it).
        **kwargs: the other `Layer` arguments (dtype, trainable, ...).

    Raises:
        ValueError: an invalid argument (e.g. `max_tokens` not above 1, `invert` outside "int"
            mode, `idf_weights` outside "tf_idf" mode), a vocabulary with repeated or reserved
            tokens or longer than `max_tokens`, an unknown string with `num_oov_indices=0`, or a
            call before a vocabulary is set.
        TypeError: a symbolic input that is not a string tensor (only the tensorflow backend has
            those: elsewhere, use the layer in the input pipeline).

    Examples:
        >>> layer = tripod.layers.StringLookup(vocabulary=["a", "b", "c"])
        >>> tripod.ops.convert_to_numpy(layer(np.array([["a", "c", "z"]]))).tolist()
        [[1, 3, 0]]
        >>> inverse = tripod.layers.StringLookup(vocabulary=["a", "b", "c"], invert=True)
        >>> inverse(np.array([1, 3, 0])).tolist()
        ['a', 'c', '[UNK]']
        >>> layer = tripod.layers.StringLookup(vocabulary=["a", "b", "c"], output_mode="count")
        >>> tripod.ops.convert_to_numpy(layer(np.array([["a", "a", "z"]]))).tolist()
        [[1.0, 2.0, 0.0, 0.0]]
    """

    _UNTRACKED = _IndexLookup._UNTRACKED | DataLayer._UNTRACKED | {"_index_of", "_tf_table"}

    def __init__(
        self,
        max_tokens=None,
        num_oov_indices=1,
        mask_token=None,
        oov_token="[UNK]",
        vocabulary=None,
        idf_weights=None,
        invert=False,
        output_mode="int",
        pad_to_max_tokens=False,
        sparse=False,
        encoding="utf-8",
        name=None,
        salt=None,
        **kwargs,
    ):
        self.encoding = encoding
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
            oov_method=kwargs.pop("oov_method", "floormod"),
            salt=salt,
            name=name,
            **kwargs,
        )

    def _tokens(self, values):
        flat = np.asarray(values, dtype=object).reshape(-1)
        return [v.decode(self.encoding) if isinstance(v, bytes) else str(v) for v in flat]

    def _prepare(self):
        super()._prepare()
        offset = self._token_offset()
        self._index_of = {token: i + offset for i, token in enumerate(self._vocabulary)}
        self._index_to_token = np.asarray(self.get_vocabulary(), dtype=object)
        self._tf_table = None

    def __call__(self, inputs, **kwargs):
        if is_symbolic_call(self, inputs, strings=not self.invert):
            return super().__call__(inputs)  # records the layer in the functional graph
        return self.call(inputs)  # strings: no build, no cast

    def compute_output_spec(self, inputs):
        if self.invert:
            return spec(inputs.shape, dtypes.STRING)
        return self._output_spec(inputs.shape, "int64")

    def call(self, inputs):
        self._check_vocabulary()
        if is_tf_tensor(inputs):
            return self._call_tf(inputs)
        if self.invert:
            return self._invert(host_array(inputs))
        return self.backend.convert_to_tensor(self._encode_host(self.host_indices(inputs)))

    # -- host path -------------------------------------------------------------------------------
    def host_indices(self, values):
        """The int64 NumPy indices of host strings `values` (same shape)."""
        array = np.asarray(values, dtype=object)
        tokens = self._tokens(array)
        indices = np.fromiter(map(self._index, tokens), dtype=np.int64, count=len(tokens))
        return indices.reshape(array.shape)

    def _index(self, token):
        """The index of one token (mask -> 0 or dropped, unknown -> an OOV index by its hash)."""
        if token == self.mask_token:
            return 0 if self.output_mode == "int" else DROPPED
        index = self._index_of.get(token)
        if index is not None:
            return index
        if not self.num_oov_indices:
            raise ValueError(
                f"{self._label()}: the token {token!r} is not in the vocabulary and "
                "num_oov_indices is 0."
            )
        return self._oov_start() + (_fnv1a(token) & 0x7FFFFFFF) % self.num_oov_indices

    def _invert(self, indices):
        size = len(self._index_to_token)
        inside = (indices >= 0) & (indices < size)
        tokens = self._index_to_token[np.clip(indices, 0, size - 1)]
        return np.where(inside, tokens, self.oov_token).astype(str)

    # -- TensorFlow path -------------------------------------------------------------------------
    def tf_indices(self, strings):
        """The int64 indices of the (dense or ragged) tf string tensor `strings`."""
        text = tf_text()
        if self._tf_table is None:
            self._tf_table = text.vocabulary_table(self._vocabulary, self._token_offset())
        mask_index = 0 if self.output_mode == "int" else DROPPED
        return text.lookup(
            strings,
            self._tf_table,
            self.mask_token,
            mask_index,
            self._oov_start(),
            self.num_oov_indices,
            self._label(),
        )

    def _call_tf(self, inputs):
        text = tf_text()
        if self.invert:
            return text.invert(inputs, self.get_vocabulary(), self.oov_token)
        indices = self.tf_indices(text.as_strings(inputs))
        if self.output_mode == "int":
            return indices
        return text.encode(indices, self.output_mode, self._depth, self._idf_vector)

    def get_config(self):
        return {**super().get_config(), **self._vocabulary_config(), "encoding": self.encoding}
