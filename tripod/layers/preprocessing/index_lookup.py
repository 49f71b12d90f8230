"""The shared machinery of `IntegerLookup` and `StringLookup`: a vocabulary mapped to indices.

Index layout, as in Keras: [mask_token (if any)] + [oov_token] * num_oov_indices + vocabulary.
Out-of-vocabulary values go to one of the OOV indices (`floormod` of the integer value, or of the
string's 32-bit hash, by num_oov_indices).
"""

import collections
import math

import numpy as np

from tripod.backends import active
from tripod.layers.layer import Layer
from tripod.layers.preprocessing import _encoding

ops = active()

MODES = ("int", "one_hot", "multi_hot", "count", "tf_idf")


class _IndexLookup(Layer):
    """Vocabulary handling, adapt, config and output encodings shared by the lookup layers."""

    def __init__(self, max_tokens, num_oov_indices, mask_token, oov_token, vocabulary, idf_weights,
                 invert, output_mode, sparse, pad_to_max_tokens, oov_method, salt, **kwargs):  # fmt: skip
        kwargs.pop("vocabulary_size", None)  # in the config for information; derived from vocabulary
        super().__init__(**kwargs)
        label = f"{type(self).__name__} '{self.name}'"
        if max_tokens is not None and (not isinstance(max_tokens, int) or max_tokens <= 1):
            raise ValueError(f"{label}: max_tokens must be None or an integer > 1, received {max_tokens!r}.")
        if not isinstance(num_oov_indices, int) or num_oov_indices < 0:
            raise ValueError(f"{label}: num_oov_indices must be a non-negative integer, received {num_oov_indices!r}.")
        _encoding.check_choice(self, "output_mode", output_mode, MODES)
        _encoding.check_choice(self, "oov_method", oov_method, ("floormod",))
        _encoding.check_no_sparse(self, sparse)
        if invert and output_mode != "int":
            raise ValueError(f"{label}: invert=True needs output_mode='int', received {output_mode!r}.")
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

    def _token_offset(self):
        return (self.mask_token is not None) + self.num_oov_indices

    def set_vocabulary(self, vocabulary, idf_weights=None):
        """Use `vocabulary` (a list/array, or a text file with one token a line) from now on."""
        if isinstance(vocabulary, str):
            with open(vocabulary, encoding="utf-8") as f:
                vocabulary = [line.rstrip("\n") for line in f]
        tokens = self._tokens(vocabulary)
        if len(set(tokens)) != len(tokens):
            raise ValueError(f"{self._label()}: the vocabulary contains repeated tokens.")
        reserved = {t for t in (self.mask_token, self.oov_token) if t is not None}
        if reserved & set(tokens):
            raise ValueError(f"{self._label()}: the vocabulary must not contain the mask or OOV token {sorted(reserved & set(tokens), key=str)}.")
        if self.max_tokens is not None and len(tokens) + self._token_offset() > self.max_tokens:
            raise ValueError(f"{self._label()}: the vocabulary ({len(tokens)} tokens plus {self._token_offset()} reserved) exceeds max_tokens={self.max_tokens}.")
        if self.output_mode == "tf_idf":
            if idf_weights is None:
                raise ValueError(f"{self._label()}: output_mode='tf_idf' needs idf_weights with the vocabulary.")
            idf_weights = [float(w) for w in np.asarray(idf_weights).reshape(-1)]
            if len(idf_weights) != len(tokens):
                raise ValueError(f"{self._label()}: idf_weights has {len(idf_weights)} values for {len(tokens)} tokens.")
        self._vocabulary = tokens
        self._idf_weights = idf_weights
        self._prepare()

    def _prepare(self):
        """Precompute what `call` needs from the vocabulary."""
        depth = self.max_tokens if self.pad_to_max_tokens else self.vocabulary_size()
        self._depth = depth
        if self.output_mode == "tf_idf":
            oov_idf = float(np.mean(self._idf_weights)) if self._idf_weights else 0.0
            idf = [0.0] * (self.mask_token is not None) + [oov_idf] * self.num_oov_indices + self._idf_weights
            idf += [0.0] * (depth - len(idf))
            self._idf_tensor = ops.convert_to_tensor(np.asarray(idf, dtype="float32"))

    def get_vocabulary(self, include_special_tokens=True):
        """The tokens in index order (with the mask and OOV tokens unless told otherwise)."""
        vocabulary = list(self._vocabulary or [])
        if not include_special_tokens:
            return vocabulary
        specials = [self.mask_token] if self.mask_token is not None else []
        return specials + [self.oov_token] * self.num_oov_indices + vocabulary

    def vocabulary_size(self):
        """The number of indices: the vocabulary plus the mask and OOV indices."""
        return len(self._vocabulary or []) + self._token_offset()

    def adapt(self, data, steps=None):
        """Build the vocabulary from `data` on the host: tokens by decreasing frequency (ties in
        sorted order), at most `max_tokens` in all; with tf_idf, idf = log(1 + docs / (1 + df))."""
        counts, doc_counts, num_docs = collections.Counter(), collections.Counter(), 0
        for i, batch in enumerate(_encoding.iterate_batches(data)):
            if steps is not None and i >= steps:
                break
            docs = batch.reshape(-1, 1) if batch.ndim <= 1 else batch.reshape(batch.shape[0], -1)
            for doc in docs:
                tokens = [t for t in self._tokens(doc) if t != self.mask_token]
                counts.update(tokens)
                doc_counts.update(set(tokens))
                num_docs += 1
        counts.pop(self.oov_token, None)
        ordered = sorted(counts, key=lambda t: (-counts[t], t))
        if self.max_tokens is not None:
            ordered = ordered[: max(self.max_tokens - self._token_offset(), 0)]
        idf = None
        if self.output_mode == "tf_idf":
            idf = [math.log(1.0 + num_docs / (1.0 + doc_counts[t])) for t in ordered]
        self.set_vocabulary(ordered, idf)

    def _check_vocabulary(self):
        if self._vocabulary is None:
            raise ValueError(f"{self._label()}: set a vocabulary (or call adapt()) before calling the layer.")

    def _encode(self, indices):
        """The int `indices` in this layer's output mode."""
        if self.output_mode == "int":
            return indices
        return _encoding.encode(indices, self.output_mode, self._depth, "float32",
                                getattr(self, "_idf_tensor", None))  # fmt: skip

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

    def _vocabulary_config(self):
        return {
            "idf_weights": self._idf_weights,
            "vocabulary": self._vocabulary,
            "vocabulary_size": self.vocabulary_size(),
            "oov_method": self.oov_method,
            "salt": self.salt,
        }
