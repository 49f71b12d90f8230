"""`TextVectorization`: strings -> standardized, split (n-gram) tokens -> vocabulary indices.

Two paths with the same results, as `StringLookup` (which holds the vocabulary): host strings
(NumPy arrays, lists) are processed in Python and give the active backend's tensors; `tf.Tensor`
strings (a `tf.data` map whatever the active backend, or the tensorflow backend) are processed with
TensorFlow string ops and give tf tensors. As Keras, "lower" lowercases ASCII letters only,
"whitespace" splits on runs of ASCII whitespace and "character" into Unicode characters.

Callables: `standardize` receives the input strings (a NumPy str array on the host path, a tf
string tensor on the TensorFlow path) and returns them standardized; `split` receives a 1-D array
of documents and returns each one's tokens (host: a sequence of token sequences; TensorFlow: a
ragged tensor). On the tensorflow backend the layer also takes a symbolic string input
(`Input(dtype="string")`), so an end-to-end model holds it and runs its TensorFlow path;
elsewhere it runs in the input pipeline.
"""

import itertools
import re
import string

import numpy as np

from tripod.layers.preprocessing import _encoding
from tripod.layers.preprocessing.data_layer import DataLayer
from tripod.layers.preprocessing.index_lookup import DROPPED, host_batches
from tripod.layers.preprocessing.string_lookup import (
    StringLookup,
    is_symbolic_call,
    is_tf_tensor,
    tf_text,
)
from tripod.saving import serialization

#: the characters "strip_punctuation" removes (Python's `string.punctuation`), as a regex
STRIP_PATTERN = r'[!"#$%&()\*\+,-\./:;<=>?@\[\\\]^_`{|}~\']'
_STRIP = re.compile(STRIP_PATTERN)
_ASCII_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)
_WHITESPACE_TOKEN = re.compile(r"[^ \t\n\v\f\r]+")
_STANDARDIZE = ("lower_and_strip_punctuation", "lower", "strip_punctuation")
_SPLIT = ("whitespace", "character")
_MODES = ("int", "multi_hot", "count", "tf_idf")
_MODE_ALIASES = {"binary": "multi_hot", "tf-idf": "tf_idf"}


class TextVectorization(DataLayer):
    """Turn strings into token indices, or per-document token vectors, over a vocabulary.

    Each string is standardized (by default lowercased and stripped of punctuation), split into
    tokens (by default on whitespace), optionally extended with n-grams, and looked up. With
    `output_mode="int"` a batch of `(batch,)` strings gives int sequences `(batch, length)`: index
    0 is padding (""), 1 the out-of-vocabulary token "[UNK]", and the vocabulary starts at 2. The
    other modes give one float32 vector of `vocabulary_size()` per string, over "[UNK]" (index 0)
    and the vocabulary. The
    vocabulary is given, or learned by `adapt(data)` (tokens by decreasing frequency). Host strings
    (NumPy arrays, lists) are processed on the host and give tensors of the active backend;
    `tf.Tensor` strings are processed with TensorFlow ops and give tf tensors.

    Args:
        max_tokens: None (default) or int > 1, the most indices in all (padding and OOV included);
            `adapt` keeps the most frequent tokens.
        standardize: "lower_and_strip_punctuation" (default), "lower", "strip_punctuation", None
            (no change), or a callable taking and returning the array of strings.
        split: "whitespace" (default), "character", None (the inputs are already tokens, along
            their last axis), or a callable taking a 1-D array of strings and returning each one's
            tokens.
        ngrams: None (default), an int `n` (all n-grams of 1 to `n` tokens), or a tuple of n-gram
            widths.
        output_mode: "int" (default), "multi_hot" (or "binary"), "count", or "tf_idf" (or
            "tf-idf").
        output_sequence_length: None (default: the longest in the batch) or int > 0, the length
            the "int" outputs are padded or cut to; "int" mode only.
        pad_to_max_tokens: bool, make the vectors of the other modes `max_tokens` long (needs
            `max_tokens`; default False).
        vocabulary: list of strings, or the path of a text file with one token a line; default
            None (set by `adapt`).
        idf_weights: one inverse-document-frequency weight per vocabulary token; only with
            `output_mode="tf_idf"`, which needs them.
        sparse: bool, must be False (sparse outputs are not supported).
        ragged: bool, must be False (the outputs are padded with 0).
        encoding: str, the text encoding of byte-string inputs (default "utf-8").
        name: str, the layer's name (default: one made from the class name).
        **kwargs: the other `Layer` arguments (dtype, trainable, ...).

    Raises:
        ValueError: an invalid argument (e.g. an unknown `standardize`, `split` or
            `output_mode`, bad `ngrams`, `output_sequence_length` outside "int" mode,
            `sparse=True` or `ragged=True`), inputs of rank above 1 whose last axis is not 1 when
            splitting, or a call before a vocabulary is set.
        TypeError: a symbolic input that is not a string tensor (only the tensorflow backend has
            those: elsewhere, use the layer in the input pipeline).

    Examples:
        >>> layer = tripod.layers.TextVectorization(vocabulary=["the", "cat", "sat"])
        >>> tripod.ops.convert_to_numpy(layer(["The cat sat.", "the dog"])).tolist()
        [[2, 3, 4], [2, 1, 0]]
        >>> layer = tripod.layers.TextVectorization()
        >>> layer.adapt(["a b b", "b c"])
        >>> layer.get_vocabulary()
        ['', '[UNK]', 'b', 'c', 'a']
        >>> layer = tripod.layers.TextVectorization(vocabulary=["b", "c", "a"], output_mode="count")
        >>> tripod.ops.convert_to_numpy(layer(["b a b d"])).tolist()
        [[1.0, 2.0, 0.0, 1.0]]
    """

    def __init__(
        self,
        max_tokens=None,
        standardize="lower_and_strip_punctuation",
        split="whitespace",
        ngrams=None,
        output_mode="int",
        output_sequence_length=None,
        pad_to_max_tokens=False,
        vocabulary=None,
        idf_weights=None,
        sparse=False,
        ragged=False,
        encoding="utf-8",
        name=None,
        **kwargs,
    ):
        kwargs.pop("vocabulary_size", None)  # in the config for information only
        super().__init__(name=name, **kwargs)
        output_mode = _MODE_ALIASES.get(output_mode, output_mode)
        self._check_arguments(standardize, split, ngrams, output_mode, output_sequence_length)
        _encoding.check_no_sparse(self, sparse)
        if ragged:
            raise ValueError(
                f"{self._label()}: ragged=True is not supported (only TensorFlow has "
                "ragged tensors); outputs are padded with 0."
            )
        self.standardize = standardize
        self.split = split
        self.ngrams = ngrams
        self._widths = tuple(range(1, ngrams + 1)) if isinstance(ngrams, int) else ngrams
        self.output_mode = output_mode
        self.output_sequence_length = output_sequence_length
        self.sparse = sparse
        self.ragged = ragged
        self.encoding = encoding
        self._lookup_layer = StringLookup(
            max_tokens=max_tokens,
            mask_token="",
            vocabulary=vocabulary,
            idf_weights=idf_weights,
            output_mode=output_mode,
            pad_to_max_tokens=pad_to_max_tokens,
            encoding=encoding,
            name=f"{self.name}_lookup",
        )

    def _label(self):
        return f"TextVectorization '{self.name}'"

    def _check_arguments(self, standardize, split, ngrams, output_mode, output_sequence_length):
        """Raise a ValueError naming the layer for any invalid argument."""
        for argument, value, choices in (
            ("standardize", standardize, _STANDARDIZE),
            ("split", split, _SPLIT),
        ):
            if not (value is None or callable(value) or value in choices):
                raise ValueError(
                    f"{self._label()}: {argument} must be None, a callable or one of "
                    f"{list(choices)}, received {value!r}."
                )
        _encoding.check_choice(self, "output_mode", output_mode, _MODES)
        valid = ngrams is None or (
            isinstance(ngrams, int)
            and ngrams >= 1
            or isinstance(ngrams, tuple)
            and ngrams
            and all(isinstance(n, int) and n >= 1 for n in ngrams)
        )
        if not valid:
            raise ValueError(
                f"{self._label()}: ngrams must be None, a positive integer or a tuple "
                f"of positive integers, received {ngrams!r}."
            )
        if output_sequence_length is not None:
            if output_mode != "int":
                raise ValueError(
                    f"{self._label()}: output_sequence_length is only used with "
                    f"output_mode='int', received output_mode={output_mode!r}."
                )
            if not isinstance(output_sequence_length, int) or output_sequence_length < 1:
                raise ValueError(
                    f"{self._label()}: output_sequence_length must be None or a "
                    f"positive integer, received {output_sequence_length!r}."
                )

    # -- vocabulary ------------------------------------------------------------------------------
    @property
    def max_tokens(self):
        return self._lookup_layer.max_tokens

    @property
    def pad_to_max_tokens(self):
        return self._lookup_layer.pad_to_max_tokens

    def get_vocabulary(self, include_special_tokens=True):
        """The tokens in index order (with "" (padding) and "[UNK]" unless told otherwise)."""
        return self._lookup_layer.get_vocabulary(include_special_tokens)

    def vocabulary_size(self):
        """The number of indices: the vocabulary plus the padding and OOV indices."""
        return self._lookup_layer.vocabulary_size()

    def set_vocabulary(self, vocabulary, idf_weights=None):
        """Use `vocabulary` (a list/array, or a text file with one token a line) from now on;
        `idf_weights` (one per token) with output_mode="tf_idf"."""
        self._lookup_layer.set_vocabulary(vocabulary, idf_weights)

    def adapt(self, data, batch_size=None, steps=None):
        """Learn the vocabulary from `data` (an array or list of strings, a `tf.data.Dataset`
        or another iterable of batches; at most `steps` batches): tokens by decreasing count, ties
        in decreasing order; with tf_idf also the idf weights."""
        documents = (
            doc
            for batch in itertools.islice(host_batches(data), steps)
            for doc in self._host_documents(_as_host_strings(batch, self.encoding))[1]
        )
        self._lookup_layer._learn_vocabulary(documents)

    # -- calling ---------------------------------------------------------------------------------
    def __call__(self, inputs, **kwargs):
        if is_symbolic_call(self, inputs):
            return super().__call__(inputs)  # records the layer in the functional graph
        return self.call(inputs)  # strings: no build, no cast

    def call(self, inputs):
        self._lookup_layer._check_vocabulary()
        if is_tf_tensor(inputs):
            return self._call_tf(inputs)
        strings = _as_host_strings(inputs, self.encoding)
        if strings.ndim == 0:
            return self._call_host(strings.reshape(1))[0]
        return self._call_host(strings)

    def _call_host(self, strings):
        """The outputs of a NumPy array of strings (rank >= 1), as active-backend tensors."""
        shape, documents = self._host_documents(strings)
        flat = [token for doc in documents for token in doc]
        indices = self._lookup_layer.host_indices(np.asarray(flat, dtype=object))
        lengths = [len(doc) for doc in documents]
        if self.output_mode == "int":
            width = self.output_sequence_length
            width = max(lengths, default=0) if width is None else width
            outputs = _pad_rows(indices, lengths, width, 0)
        else:
            padded = _pad_rows(indices, lengths, max(lengths, default=0), DROPPED)
            outputs = self._lookup_layer._encode_host(padded)
        return self.backend.convert_to_tensor(outputs.reshape(shape + outputs.shape[1:]))

    def _host_documents(self, strings):
        """(the batch shape, each document's token list) of a NumPy array of strings."""
        strings = self._standardize_host(strings)
        if self.split is None:
            rows = strings.reshape(1, 1) if strings.ndim == 0 else strings
            rows = rows[:, None] if rows.ndim == 1 else rows
            shape = rows.shape[:-1]
            documents = [list(row) for row in rows.reshape(-1, rows.shape[-1])]
        else:
            if strings.ndim > 1:
                if strings.shape[-1] != 1:
                    raise ValueError(
                        f"{self._label()}: to split strings the input must have rank 1 "
                        f"or a last dimension of 1, received shape {strings.shape}."
                    )
                strings = strings[..., 0]
            shape = strings.shape
            documents = self._split_host(strings.reshape(-1))
        if self._widths is not None:
            documents = [_ngrams(doc, self._widths) for doc in documents]
        return shape, documents

    def _standardize_host(self, strings):
        """The standardized strings (an object array of str)."""
        if callable(self.standardize):
            return _as_host_strings(self.standardize(strings.astype(str)), self.encoding)
        if self.standardize in ("lower", "lower_and_strip_punctuation"):
            strings = _map_strings(lambda s: s.translate(_ASCII_LOWER), strings)
        if self.standardize in ("strip_punctuation", "lower_and_strip_punctuation"):
            strings = _map_strings(lambda s: _STRIP.sub("", s), strings)
        return strings

    def _split_host(self, documents):
        """Each document's tokens (lists of str) for a 1-D object array of documents."""
        if self.split == "whitespace":
            return [_WHITESPACE_TOKEN.findall(doc) for doc in documents]
        if self.split == "character":
            return [list(doc) for doc in documents]
        pieces = self.split(documents.astype(str))
        pieces = pieces.to_list() if hasattr(pieces, "to_list") else pieces
        return [
            list(_as_host_strings(np.asarray(doc, dtype=object), self.encoding).reshape(-1))
            for doc in pieces
        ]

    def _call_tf(self, inputs):
        """The outputs of tf string tensors, computed with TensorFlow ops (tf tensors)."""
        text = tf_text()
        x = text.as_strings(inputs)
        if x.shape.rank == 0:
            return self._call_tf(x[None])[0]
        if callable(self.standardize):
            x = self.standardize(x)
        else:
            lower = self.standardize in ("lower", "lower_and_strip_punctuation")
            strip = self.standardize in ("strip_punctuation", "lower_and_strip_punctuation")
            x = text.standardize(x, lower, STRIP_PATTERN if strip else None)
        if self.split is None:
            x = x[:, None] if x.shape.rank == 1 else x
        else:
            x = text.squeeze_documents(x, self._label())
            x = self.split(x) if callable(self.split) else text.split(x, self.split)
        if self._widths is not None:
            x = text.ngrams(x, self._widths)
        indices = self._lookup_layer.tf_indices(x)
        if self.output_mode == "int":
            return text.pad(indices, self.output_sequence_length)
        lookup = self._lookup_layer
        return text.encode(indices, self.output_mode, lookup._depth, lookup._idf_vector)

    def compute_output_spec(self, inputs):
        dtype = "int64" if self.output_mode == "int" else "float32"
        return _encoding.spec(self.compute_output_shape(inputs.shape), dtype)

    def compute_output_shape(self, input_shape):
        input_shape = tuple(input_shape)
        if self.output_mode == "int":
            return input_shape[:1] + (self.output_sequence_length,)
        depth = self.max_tokens if self.pad_to_max_tokens else self.vocabulary_size()
        return input_shape[:1] + (depth,)

    # -- config ----------------------------------------------------------------------------------
    def get_config(self):
        lookup = self._lookup_layer._vocabulary_config()
        return {
            **super().get_config(),
            "max_tokens": self.max_tokens,
            "standardize": _serialize_callable(self.standardize),
            "split": _serialize_callable(self.split),
            "ngrams": self.ngrams,
            "output_mode": self.output_mode,
            "output_sequence_length": self.output_sequence_length,
            "pad_to_max_tokens": self.pad_to_max_tokens,
            "sparse": self.sparse,
            "ragged": self.ragged,
            "vocabulary": lookup["vocabulary"],
            "idf_weights": lookup["idf_weights"],
            "encoding": self.encoding,
            "vocabulary_size": self.vocabulary_size(),
        }

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        for key in ("standardize", "split"):
            if isinstance(config.get(key), dict):
                config[key] = serialization.deserialize_keras_object(config[key])
        if isinstance(config.get("ngrams"), list):
            config["ngrams"] = tuple(config["ngrams"])
        return super().from_config(config)


def _serialize_callable(value):
    return serialization.serialize_keras_object(value) if callable(value) else value


def _as_host_strings(x, encoding="utf-8"):
    """`x` (strings as a list, NumPy or tf tensor) as a NumPy object array of str."""
    array = np.asarray(x.numpy() if is_tf_tensor(x) else x, dtype=object)
    return _map_strings(lambda s: s.decode(encoding) if isinstance(s, bytes) else str(s), array)


def _map_strings(fn, strings):
    """`fn` applied to each string of an object array."""
    flat = [fn(s) for s in strings.reshape(-1)]
    out = np.empty(len(flat), dtype=object)
    out[:] = flat
    return out.reshape(strings.shape)


def _ngrams(tokens, widths):
    """The n-grams of each width in `widths` (space-joined), those of the first width first."""
    return [" ".join(tokens[i : i + n]) for n in widths for i in range(len(tokens) - n + 1)]


def _pad_rows(flat, lengths, width, fill):
    """Rows of `flat` (of `lengths`) as an int64 (rows, width) array: truncated, padded with
    `fill`."""
    out = np.full((len(lengths), width), fill, dtype=np.int64)
    start = 0
    for row, length in enumerate(lengths):
        take = min(length, width)
        out[row, :take] = flat[start : start + take]
        start += length
    return out
