"""TensorFlow string ops for the text preprocessing layers (`StringLookup`, `TextVectorization`).

Only TensorFlow has string tensors, so a text layer called on `tf.Tensor` strings (in a `tf.data`
map whatever the active backend, or on the tensorflow backend) computes here: standardize, split,
n-grams, the vocabulary lookup through a `tf.lookup` table, padding and the count encodings. Each
function gives what the layers' host (NumPy / Python) path gives for the same strings.
This module is not part of the ops contract: the layers reach it through `optional.require`.
"""

import weakref

import tensorflow as tf

#: the 32-bit FNV-1a parameters (as in `tripod.layers.preprocessing.hashing`)
_FNV_OFFSET = 0x811C9DC5
_FNV_PRIME = 0x01000193


def is_string_tensor(x):
    """Whether `x` is a dense or ragged TensorFlow tensor of strings."""
    return isinstance(x, (tf.Tensor, tf.RaggedTensor)) and x.dtype == tf.string


def as_strings(x):
    """`x` (a tf tensor, NumPy array, list or scalar of strings) as a tf string tensor."""
    if isinstance(x, tf.RaggedTensor):
        return x
    return tf.convert_to_tensor(x, dtype=tf.string)


def standardize(x, lower, strip_pattern):
    """ASCII-lowercase `x` (when `lower`) and remove the matches of `strip_pattern` (if any)."""
    if lower:
        x = tf.strings.lower(x)
    if strip_pattern is not None:
        x = tf.strings.regex_replace(x, strip_pattern, "")
    return x


def squeeze_documents(x, label):
    """`x` with a trailing axis of size 1 removed: one document per element, as split needs."""
    if x.shape.rank is not None and x.shape.rank > 1:
        if x.shape[-1] != 1:
            raise ValueError(
                f"{label}: to split strings the input must have rank 1 or a last dimension of 1, "
                f"received shape {tuple(x.shape)}."
            )
        x = tf.squeeze(x, axis=-1)
    return x


def split(x, mode):
    """Split each string of `x` into a ragged row of tokens: on ASCII whitespace runs
    ("whitespace") or into Unicode characters ("character")."""
    if mode == "whitespace":
        return tf.strings.split(x)
    return tf.strings.unicode_split(x, "UTF-8")


def ngrams(tokens, widths):
    """For each row of `tokens`: its n-grams of each width in `widths` (joined by a space), all
    those of the first width first."""
    return tf.strings.ngrams(tokens, ngram_width=tuple(widths), separator=" ")


def as_rows(x):
    """`x` as a tensor of rank >= 1 whose last axis holds each document's tokens."""
    if x.shape.rank == 0:
        return tf.reshape(x, [1])
    return x


#: every vocabulary table made, so an exported SavedModel can track those its functions read
TABLES = weakref.WeakSet()


def vocabulary_table(tokens, offset):
    """A `tf.lookup` table from `tokens` to their indices (`offset` + position), -1 for other
    strings; made outside any trace, so `tf.data` maps can capture it."""
    with tf.init_scope():
        keys = tf.constant(tokens, dtype=tf.string)
        indices = tf.range(offset, offset + len(tokens), dtype=tf.int64)
        initializer = tf.lookup.KeyValueTensorInitializer(keys, indices)
        table = tf.lookup.StaticHashTable(initializer, default_value=-1)
    TABLES.add(table)
    return table


def fnv1a(strings):
    """The 32-bit FNV-1a hash of each string's bytes, as non-negative int64 values."""
    strings = tf.reshape(strings, [-1])
    pieces = tf.strings.bytes_split(strings)
    codes = tf.cast(tf.reshape(tf.io.decode_raw(pieces.flat_values, tf.uint8), [-1]), tf.int64)
    padded = tf.RaggedTensor.from_row_splits(codes, pieces.row_splits).to_tensor(-1)

    def step(h, column):
        mixed = tf.bitwise.bitwise_and((tf.bitwise.bitwise_xor(h, column)) * _FNV_PRIME, 0xFFFFFFFF)
        return tf.where(column >= 0, mixed, h)

    start = tf.fill(tf.shape(strings), tf.constant(_FNV_OFFSET, tf.int64))
    return tf.foldl(step, tf.transpose(padded), initializer=start)


def _lookup_flat(values, table, mask_token, mask_index, oov_start, num_oov_indices, label):
    """The indices of a flat string tensor: vocabulary positions, the mask index for the mask
    token, an OOV index (by FNV-1a hash when there are several) for unknown strings."""
    indices = table.lookup(values)
    unknown = tf.equal(indices, -1)
    if num_oov_indices == 1:
        indices = tf.where(unknown, tf.constant(oov_start, tf.int64), indices)
    elif num_oov_indices > 1:
        hashed = tf.reshape(fnv1a(values), tf.shape(values))
        buckets = tf.math.floormod(tf.bitwise.bitwise_and(hashed, 0x7FFFFFFF), num_oov_indices)
        indices = tf.where(unknown, buckets + oov_start, indices)
    else:
        message = f"{label}: a token is not in the vocabulary and num_oov_indices is 0."
        check = tf.debugging.assert_equal(tf.reduce_any(unknown), False, message=message)
        with tf.control_dependencies([check]):
            indices = tf.identity(indices)
    if mask_token is not None:
        indices = tf.where(tf.equal(values, mask_token), tf.constant(mask_index, tf.int64), indices)
    return indices


def lookup(strings, table, mask_token, mask_index, oov_start, num_oov_indices, label):
    """The int64 indices of the (dense or ragged) string tensor `strings`; see `_lookup_flat`."""
    args = (table, mask_token, mask_index, oov_start, num_oov_indices, label)
    if isinstance(strings, tf.RaggedTensor):
        return tf.ragged.map_flat_values(lambda v: _lookup_flat(v, *args), strings)
    return _lookup_flat(strings, *args)


def invert(indices, tokens, oov_token):
    """The token of `tokens` (the whole index layout) at each index; `oov_token` outside it."""
    indices = tf.cast(indices, tf.int64)
    size = len(tokens)
    found = tf.gather(tf.constant(tokens, tf.string), tf.clip_by_value(indices, 0, size - 1))
    inside = tf.logical_and(indices >= 0, indices < size)
    return tf.where(inside, found, tf.constant(oov_token, tf.string))


def pad(indices, length):
    """Ragged or dense int indices as a dense tensor whose last axis is `length` long (padded
    with 0 and truncated; None: as long as the longest row)."""
    if isinstance(indices, tf.RaggedTensor):
        shape = indices.shape.as_list()
        shape[-1] = length
        return indices.to_tensor(default_value=0, shape=shape)
    if length is None:
        return indices
    indices = indices[..., :length]
    extra = length - tf.shape(indices)[-1]
    paddings = tf.concat([tf.zeros([tf.rank(indices) - 1, 2], tf.int32), [[0, extra]]], axis=0)
    padded = tf.pad(indices, paddings)
    padded.set_shape(indices.shape[:-1].concatenate([length]))
    return padded


def encode(indices, output_mode, depth, idf_weights=None):
    """Float32 one-hot (per index) or multi-hot / count / tf-idf (per row of the last axis) vectors
    of `depth`; negative indices (dropped mask tokens) count nowhere."""
    if output_mode == "one_hot":
        if indices.shape.rank > 1 and indices.shape[-1] == 1:
            indices = tf.squeeze(indices, axis=-1)
        return tf.one_hot(indices, depth, dtype=tf.float32)

    def drop_negative(v):  # bincount ignores values >= depth
        return tf.where(v < 0, tf.constant(depth, v.dtype), v)

    if isinstance(indices, tf.RaggedTensor):
        indices = tf.ragged.map_flat_values(drop_negative, indices)
    else:
        indices = drop_negative(indices)
    if indices.shape.rank <= 1:
        indices = tf.expand_dims(indices, -1)
    static_shape = indices.shape[:-1].concatenate([depth])  # bincount of ragged rows loses it
    outer = tf.shape(indices)[:-1] if not isinstance(indices, tf.RaggedTensor) else None
    if outer is not None and indices.shape.rank > 2:
        indices = tf.reshape(indices, [-1, tf.shape(indices)[-1]])
    counts = tf.math.bincount(indices, minlength=depth, maxlength=depth, axis=-1, dtype=tf.float32)
    if outer is not None:
        counts = tf.reshape(counts, tf.concat([outer, [depth]], axis=0))
    counts.set_shape(static_shape)
    if output_mode == "multi_hot":
        return tf.minimum(counts, 1.0)
    if output_mode == "tf_idf":
        return counts * tf.constant(idf_weights, tf.float32)
    return counts
