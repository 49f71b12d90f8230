"""The shared machinery of `IntegerLookup` and `StringLookup`: a vocabulary mapped to indices.

Index layout, as in Keras: [mask_token (output_mode "int" only)] + [oov_token] * num_oov_indices
+ vocabulary. Out-of-vocabulary values go to one of the OOV indices (`floormod` of the integer
value, or of the string's 32-bit FNV-1a hash, by num_oov_indices). In the other output modes the
mask token has no index: its occurrences are dropped (index -1, counted nowhere).
"""

import collections
import itertools
import math
import os

import numpy as np

from tripod.backends import active
from tripod.backends.common import frameworks
from tripod.layers.layer import Layer
from tripod.layers.preprocessing import _encoding
from tripod.layers.preprocessing.data_layer import Constant

#: the asset file in which Keras saves an adapted layer's vocabulary, one token a line
VOCABULARY_FILE = "vocabulary.txt"

ops = active()

MODES = ("int", "one_hot", "multi_hot", "count", "tf_idf")
#: the index of a dropped token (a mask token outside output_mode "int")
DROPPED = -1


class _IndexLookup(Layer):
    """Vocabulary handling, adapt, config and output encodings shared by the lookup layers."""

    # plain data, never layers or variables: not scanned by the tracking
    _UNTRACKED = Layer._UNTRACKED | {"_vocabulary", "_idf_weights", "_special_idf"}

    def __init__(
        self,
        *,
        max_tokens,
        num_oov_indices,
        mask_token,
        oov_token,
        vocabulary,
        idf_weights,
        invert,
        output_mode,
        sparse,
        pad_to_max_tokens,
        oov_method,
        salt,
        **kwargs,
    ):
        kwargs.pop(
            "vocabulary_size", None
        )  # in the config for information; derived from vocabulary
        super().__init__(**kwargs)
        label = f"{type(self).__name__} '{self.name}'"
        if max_tokens is not None and (not isinstance(max_tokens, int) or max_tokens <= 1):
            raise ValueError(
                f"{label}: max_tokens must be None or an integer > 1, received {max_tokens!r}."
            )
        if not isinstance(num_oov_indices, int) or num_oov_indices < 0:
            raise ValueError(
                f"{label}: num_oov_indices must be a non-negative integer, received "
                f"{num_oov_indices!r}."
            )
        _encoding.check_choice(self, "output_mode", output_mode, MODES)
        _encoding.check_choice(self, "oov_method", oov_method, ("floormod",))
        _encoding.check_no_sparse(self, sparse)
        if invert and output_mode != "int":
            raise ValueError(
                f"{label}: invert=True needs output_mode='int', received {output_mode!r}."
            )
        if pad_to_max_tokens and max_tokens is None:
            raise ValueError(f"{label}: pad_to_max_tokens=True needs max_tokens.")
        if idf_weights is not None and output_mode != "tf_idf":
            raise ValueError(f"{label}: idf_weights are only used with output_mode='tf_idf'.")
        self.max_tokens = max_tokens
        self.num_oov_indices = num_oov_indices
        self.mask_token = mask_token
        self.oov_token = oov_token
        self.invert = invert
        self.output_mode = output_mode
        self.sparse = sparse
        self.pad_to_max_tokens = pad_to_max_tokens
        self.oov_method = oov_method
        self.salt = salt
        self._vocabulary = None
        self._idf_weights = None
        self._special_idf = None
        if vocabulary is not None:
            self.set_vocabulary(vocabulary, idf_weights)
        elif output_mode == "tf_idf" and idf_weights is not None:
            raise ValueError(f"{label}: idf_weights need a vocabulary.")

    # -- vocabulary ------------------------------------------------------------------------------
    def _label(self):
        return f"{type(self).__name__} '{self.name}'"

    def _tokens(self, values):
        """`values` as a list of vocabulary tokens of this layer's kind."""
        raise NotImplementedError

    def _oov_start(self):
        """The first OOV index: 1 when the mask token holds index 0, else 0."""
        return int(self.mask_token is not None and self.output_mode == "int")

    def _token_offset(self):
        return self._oov_start() + self.num_oov_indices

    def _special_tokens(self):
        return [self.mask_token] * self._oov_start() + [self.oov_token] * self.num_oov_indices

    def set_vocabulary(self, vocabulary, idf_weights=None):
        """Use `vocabulary` (a list/array, or a text file with one token a line) from now on; it
        may start with the mask and OOV tokens in layout order (as `get_vocabulary()` gives)."""
        if isinstance(vocabulary, str):
            with open(vocabulary, encoding="utf-8") as f:
                vocabulary = f.read().splitlines()
            while vocabulary and vocabulary[-1] == "":
                vocabulary.pop()
        tokens = self._tokens(vocabulary)
        specials = self._special_tokens()
        has_specials = bool(specials) and tokens[: len(specials)] == specials
        idf_weights = self._checked_idf(idf_weights, len(tokens))
        if has_specials:
            tokens = tokens[len(specials) :]
            if idf_weights is not None:
                self._special_idf, idf_weights = (
                    idf_weights[: len(specials)],
                    idf_weights[len(specials) :],
                )
        elif idf_weights is not None:
            self._special_idf = None
        self._check_tokens(tokens)
        self._vocabulary = tokens
        self._idf_weights = idf_weights
        self._prepare()

    def _checked_idf(self, idf_weights, count):
        """`idf_weights` as a list of floats, checked against the mode and the vocabulary length."""
        if self.output_mode != "tf_idf":
            if idf_weights is not None:
                raise ValueError(
                    f"{self._label()}: idf_weights are only used with output_mode='tf_idf'."
                )
            return None
        if idf_weights is None:
            raise ValueError(
                f"{self._label()}: output_mode='tf_idf' needs idf_weights with the vocabulary."
            )
        idf_weights = [float(w) for w in np.asarray(idf_weights).reshape(-1)]
        if len(idf_weights) != count:
            raise ValueError(
                f"{self._label()}: idf_weights has {len(idf_weights)} values for {count} tokens."
            )
        return idf_weights

    def _check_tokens(self, tokens):
        if len(set(tokens)) != len(tokens):
            repeated = sorted({t for t in tokens if tokens.count(t) > 1}, key=str)
            raise ValueError(
                f"{self._label()}: the vocabulary contains repeated tokens {repeated}."
            )
        reserved = {t for t in (self.mask_token, self.oov_token) if t is not None}
        if reserved & set(tokens):
            raise ValueError(
                f"{self._label()}: the vocabulary must not contain the mask or OOV token "
                f"{sorted(reserved & set(tokens), key=str)} (except at its start, in layout order "
                f"{self._special_tokens()})."
            )
        if self.max_tokens is not None and len(tokens) + self._token_offset() > self.max_tokens:
            raise ValueError(
                f"{self._label()}: the vocabulary ({len(tokens)} tokens plus "
                f"{self._token_offset()} reserved) exceeds max_tokens={self.max_tokens}."
            )

    def _prepare(self):
        """Precompute what `call` needs from the vocabulary."""
        depth = self.max_tokens if self.pad_to_max_tokens else self.vocabulary_size()
        self._depth = depth
        self._idf_vector = None
        if self.output_mode == "tf_idf":
            front = self._special_idf
            if front is None:
                mean = float(np.mean(self._idf_weights)) if self._idf_weights else 0.0
                front = [mean] * self._token_offset()
            idf = list(front) + self._idf_weights
            self._idf_vector = np.asarray(idf + [0.0] * (depth - len(idf)), dtype="float32")
            self._idf_tensor = Constant(self._idf_vector)

    def get_vocabulary(self, include_special_tokens=True):
        """The tokens in index order (with the mask and OOV tokens unless told otherwise)."""
        vocabulary = list(self._vocabulary or [])
        if not include_special_tokens:
            return vocabulary
        return self._special_tokens() + vocabulary

    def vocabulary_size(self):
        """The number of indices: the vocabulary plus the mask and OOV indices."""
        return len(self._vocabulary or []) + self._token_offset()

    def adapt(self, data, steps=None):
        """Build the vocabulary from `data` (an array, a list, or an iterable of batches such as a
        `tf.data.Dataset`) on the host; see `_learn_vocabulary`."""
        documents = (
            self._tokens(doc)
            for batch in itertools.islice(host_batches(data), steps)
            for doc in (
                batch.reshape(-1, 1) if batch.ndim <= 1 else batch.reshape(batch.shape[0], -1)
            )
        )
        self._learn_vocabulary(documents)

    def _learn_vocabulary(self, documents):
        """Set the vocabulary from `documents` (token lists): tokens by decreasing frequency (ties
        in decreasing token order, as Keras), at most `max_tokens` indices in all; with tf_idf,
        idf = log(1 + documents / (1 + documents holding the token))."""
        counts, doc_counts, num_docs = collections.Counter(), collections.Counter(), 0
        for tokens in documents:
            tokens = [t for t in tokens if t != self.mask_token]
            counts.update(tokens)
            doc_counts.update(set(tokens))
            num_docs += 1
        counts.pop(self.oov_token, None)
        ordered = sorted(counts, key=lambda t: (counts[t], t), reverse=True)
        if self.max_tokens is not None:
            ordered = ordered[: max(self.max_tokens - self._token_offset(), 0)]
        idf = None
        if self.output_mode == "tf_idf":
            idf = [math.log(1.0 + num_docs / (1.0 + doc_counts[t])) for t in ordered]
        self._special_idf = None
        self.set_vocabulary(ordered, idf)

    def _check_vocabulary(self):
        if self._vocabulary is None:
            raise ValueError(
                f"{self._label()}: set a vocabulary (or call adapt()) before calling the layer."
            )

    def _encode(self, indices, backend=ops):
        """The int `indices` tensor in this layer's output mode, computed with `backend`'s ops."""
        if self.output_mode == "int":
            return indices
        idf = self._idf_tensor.on(backend) if self.output_mode == "tf_idf" else None
        return _encoding.encode(
            indices, self.output_mode, self._depth, "float32", idf, backend=backend
        )

    def _encode_host(self, indices):
        """The int NumPy `indices` (last axis: one sample's tokens, `DROPPED` counted nowhere) in
        this layer's output mode, as a NumPy array."""
        if self.output_mode == "int":
            return indices
        return encode_host(indices, self.output_mode, self._depth, self._idf_vector)

    def _output_spec(self, shape, int_dtype):
        if self.output_mode == "int":
            return _encoding.spec(shape, int_dtype)
        depth = self._depth if self._vocabulary is not None else None
        return _encoding.spec(_encoding.encoded_shape(shape, self.output_mode, depth), "float32")

    def get_config(self):
        return {
            **super().get_config(),
            "invert": self.invert,
            "max_tokens": self.max_tokens,
            "num_oov_indices": self.num_oov_indices,
            "oov_token": self.oov_token,
            "mask_token": self.mask_token,
            "output_mode": self.output_mode,
            "sparse": self.sparse,
            "pad_to_max_tokens": self.pad_to_max_tokens,
        }

    def load_assets(self, folder):
        """Read the vocabulary that Keras saves as an asset file (`vocabulary.txt`) for an
        adapted layer, whose config holds none; tripod keeps it in the config instead."""
        path = os.path.join(folder, VOCABULARY_FILE)
        if self._vocabulary is not None or not os.path.isfile(path):
            return
        if self.output_mode == "tf_idf":
            raise ValueError(
                f"{self._label()}: the file keeps this tf_idf layer's vocabulary in an asset "
                "file, whose idf weights tripod does not read; save the layer with its "
                "vocabulary and idf_weights given to the constructor."
            )
        self.set_vocabulary(path)

    def _vocabulary_config(self):
        """The vocabulary (with the special tokens when they carry their own idf weights)."""
        vocabulary, idf = self._vocabulary, self._idf_weights
        if self._special_idf is not None:
            vocabulary = self.get_vocabulary()
            idf = list(self._special_idf) + idf
        return {
            "idf_weights": idf,
            "vocabulary": vocabulary,
            "vocabulary_size": self.vocabulary_size(),
            "oov_method": self.oov_method,
            "salt": self.salt,
        }


def encode_host(indices, output_mode, depth, idf_weights=None):
    """NumPy float32 one-hot (per index) or multi-hot / count / tf-idf vectors (per sample: the
    last axis, or each element of a 1-D array) of `depth`; out-of-range indices count nowhere."""
    indices = np.asarray(indices, dtype=np.int64)
    if output_mode == "one_hot":
        if indices.ndim > 1 and indices.shape[-1] == 1:
            indices = indices[..., 0]
        return (indices[..., None] == np.arange(depth)).astype("float32")
    if indices.ndim <= 1:
        indices = indices[..., None]
    rows = indices.reshape(-1, indices.shape[-1])
    slots = np.where((rows >= 0) & (rows < depth), rows, depth)
    counts = np.zeros((rows.shape[0], depth + 1), dtype="float32")
    np.add.at(counts, (np.arange(rows.shape[0])[:, None], slots), 1.0)
    counts = counts[:, :depth].reshape(indices.shape[:-1] + (depth,))
    if output_mode == "multi_hot":
        return np.minimum(counts, 1.0)
    if output_mode == "tf_idf":
        return counts * idf_weights
    return counts


def host_batches(data):
    """The NumPy batches of `data`: an array/tensor/list (one batch), or an iterable of batches
    (of `(x, ...)` tuples: their x), such as a `tf.data.Dataset`, whose strings stay bytes."""
    single = isinstance(data, (np.ndarray, list, tuple)) or hasattr(data, "shape")  # a tensor
    for batch in [data] if single else data:
        if not single and isinstance(batch, tuple):
            batch = batch[0]
        if frameworks.framework_of(batch) == "tensorflow":
            yield np.asarray(batch.numpy())
        else:
            yield _encoding.host_array(batch)
