"""The tensorflow backend: CTC, the loss (a forward pass over the label lattice in log space) and
greedy / beam-search decoding."""

import math

import tensorflow as tf

from tripod.backends.tensorflow.tensors import convert_to_tensor, to_float

__all__ = ["ctc_decode", "ctc_loss"]


#: a finite log(0): unreachable CTC states keep finite values, so their gradients are not NaN
_CTC_LOG_ZERO = -1e30


def _shift_states(alpha, by):
    """CTC state log-probabilities moved `by` states later (earlier states unreachable)."""
    return tf.pad(alpha[:, :-by], [(0, 0), (by, 0)], constant_values=_CTC_LOG_ZERO)


def _ctc_extended(target, blank):
    """(batch, 2L + 1) labels with a blank before, between and after them, and where a
    state may be reached from two states back (a label differing from the one before it)."""
    batch, labels = tf.shape(target)[0], tf.shape(target)[1]
    pairs = tf.stack([tf.fill(tf.shape(target), blank), target], axis=2)
    extended = tf.concat([tf.reshape(pairs, [batch, 2 * labels]), tf.fill([batch, 1], blank)], 1)
    before = tf.pad(extended[:, :-2], [(0, 0), (2, 0)], constant_values=blank)
    return extended, (extended != blank) & (extended != before)


def ctc_loss(target, output, target_length, output_length, mask_index=0):
    target = tf.cast(convert_to_tensor(target), tf.int32)
    output = to_float(output)
    dtype = output.dtype
    output = output if dtype == tf.float64 else tf.cast(output, tf.float32)
    if target.shape.rank != 2 or output.shape.rank != 3:
        raise ValueError(
            f"ctc_loss needs target (batch, labels) and output (batch, steps, classes), "
            f"received {target.shape} and {output.shape}."
        )
    extended, can_skip = _ctc_extended(target, mask_index)
    emissions = tf.gather(tf.nn.log_softmax(output, axis=-1), extended, axis=2, batch_dims=1)
    output_length = tf.cast(tf.reshape(convert_to_tensor(output_length), [-1]), tf.int32)
    log_zero = tf.constant(_CTC_LOG_ZERO, output.dtype)
    states = tf.range(tf.shape(extended)[1])
    alpha = tf.where(states < 2, emissions[:, 0], log_zero)

    def step(alpha, inputs):
        emission, t = inputs
        jump = tf.where(can_skip, _shift_states(alpha, 2), log_zero)
        paths = tf.stack([alpha, _shift_states(alpha, 1), jump])
        new = tf.reduce_logsumexp(paths, axis=0) + emission
        return tf.where((t < output_length)[:, None], new, alpha)

    steps = (tf.transpose(emissions[:, 1:], [1, 0, 2]), tf.range(1, tf.shape(emissions)[1]))
    alpha = tf.foldl(step, steps, initializer=alpha)
    end = 2 * tf.cast(tf.reshape(convert_to_tensor(target_length), [-1]), tf.int32)
    last = tf.gather(alpha, end, batch_dims=1)
    before = tf.where(end > 0, tf.gather(alpha, tf.maximum(end - 1, 0), batch_dims=1), log_zero)
    loss = -tf.reduce_logsumexp(tf.stack([last, before]), axis=0)
    impossible = loss > -0.5 * _CTC_LOG_ZERO  # no alignment reaches the end: probability 0
    return tf.cast(tf.where(impossible, tf.constant(math.inf, loss.dtype), loss), dtype)


def _valid_steps(lengths, steps):
    """(batch, steps) bool: which time steps lie within each sequence's length."""
    return tf.range(steps)[None, :] < tf.cast(lengths, tf.int32)[:, None]


def _ctc_greedy(inputs, lengths, merge_repeated, mask_index):
    """Best path per step; repeats merged (optionally), blanks dropped, then left-packed."""
    steps = tf.shape(inputs)[1]
    valid = _valid_steps(lengths, steps)
    best = tf.argmax(inputs, axis=-1, output_type=tf.int32)
    scores = -tf.reduce_sum(tf.where(valid, tf.reduce_max(inputs, axis=-1), 0), axis=1)
    keep = valid & (best != mask_index)
    if merge_repeated:
        previous = tf.pad(best[:, :-1], [(0, 0), (1, 0)], constant_values=-1)
        keep = keep & (best != previous)
    return _left_pack(best, keep)[None], scores[:, None]


def _left_pack(labels, keep):
    """(batch, steps) labels with the kept ones moved to the front in order, the rest -1."""
    position = tf.cumsum(tf.cast(keep, tf.int32), axis=1, exclusive=True)
    steps = tf.shape(labels)[1]
    target = tf.where(keep, position, steps)  # dropped entries go to an overflow slot
    rows = tf.broadcast_to(tf.range(tf.shape(labels)[0])[:, None], tf.shape(labels))
    index = tf.stack([rows, target], axis=-1)
    packed = tf.scatter_nd(index, labels + 1, tf.stack([tf.shape(labels)[0], steps + 1]))
    return packed[:, :-1] - 1


def _logaddexp(a, b):
    return tf.reduce_logsumexp(tf.stack([a, b]), axis=0)


#: (modulus, base) of the two 31-bit polynomial hashes that key CTC beam prefixes
_PREFIX_HASHES = ((2147483647, 911382323), (2147483629, 972663749))


def _extended_key(key, label):
    """The key of a prefix extended by `label`, from the prefix's key.

    A key packs two 31-bit polynomial hashes of the labels into an int64 (the empty prefix
    is 0): distinct prefixes share a key with probability about 2**-62.
    """
    label = tf.cast(label, tf.int64) + 1
    (m1, b1), (m2, b2) = _PREFIX_HASHES
    high = (key // 2**31 * b1 + label) % m1
    low = (key % 2**31 * b2 + label) % m2
    return high * 2**31 + low


def _beam_candidates(state, log_probs, labels, blank):
    """(batch, W * (1 + labels)) log p of each candidate ending in a blank and in a label.

    Candidate c of beam w sits at w * (1 + labels) + c: first the beam kept (followed by a
    blank, or by a repeat of its last label), then the beam extended by each label. An
    extension equal to a kept beam merges into it (and leaves the candidates).
    """
    prefixes, lengths, keys, parent_keys, p_blank, p_label = state
    total = _logaddexp(p_blank, p_label)
    valid = total > -math.inf
    last = tf.where(lengths > 0, tf.gather(prefixes, tf.maximum(lengths - 1, 0), batch_dims=2), -1)
    label_column = last - tf.cast(last > blank, tf.int32)  # last's index in `labels`, -1: none
    repeat = labels[None, None, :] == last[..., None]
    label_probs = tf.gather(log_probs, labels, axis=1)[:, None, :]
    extend = tf.where(repeat, p_blank[..., None], total[..., None]) + label_probs
    # merges[b, w1, w2]: beam w2 is beam w1 extended by w2's last label.
    merges = (keys[:, :, None] == parent_keys[:, None, :]) & valid[:, :, None] & valid[:, None, :]
    merged = tf.gather(extend, tf.maximum(label_column, 0), axis=2, batch_dims=1)
    merged = tf.reduce_logsumexp(tf.where(merges, merged, -math.inf), axis=1)
    keep_blank = tf.where(valid, total + log_probs[:, blank : blank + 1], -math.inf)
    repeated = tf.gather(log_probs, tf.maximum(last, 0), batch_dims=1)
    keep_label = tf.where(valid & (lengths > 0), p_label + repeated, -math.inf)
    keep_label = _logaddexp(keep_label, merged)
    columns = tf.one_hot(label_column, tf.shape(labels)[0], dtype=extend.dtype)
    absorbed = tf.matmul(tf.cast(merges, extend.dtype), columns) > 0
    extend = tf.where(absorbed | ~valid[..., None], -math.inf, extend)
    batch = tf.shape(prefixes)[0]
    no_blank = tf.fill(tf.shape(extend), -math.inf)
    cand_blank = tf.reshape(tf.concat([keep_blank[..., None], no_blank], -1), [batch, -1])
    cand_label = tf.reshape(tf.concat([keep_label[..., None], extend], -1), [batch, -1])
    return cand_blank, cand_label


def _beam_select(state, cand_blank, cand_label, labels):
    """The W most probable candidates (laid out as in `_beam_candidates`) as the new beams."""
    prefixes, lengths, keys, parent_keys, _, _ = state
    _, chosen = tf.math.top_k(_logaddexp(cand_blank, cand_label), k=tf.shape(prefixes)[1])
    width = 1 + tf.shape(labels)[0]
    parent, extended = chosen // width, chosen % width > 0
    appended = tf.gather(labels, tf.maximum(chosen % width - 1, 0))
    old_lengths = tf.gather(lengths, parent, batch_dims=1)
    old_keys = tf.gather(keys, parent, batch_dims=1)
    at_end = (tf.range(tf.shape(prefixes)[2]) == old_lengths[..., None]) & extended[..., None]
    return (
        tf.where(at_end, appended[..., None], tf.gather(prefixes, parent, batch_dims=1)),
        old_lengths + tf.cast(extended, tf.int32),
        tf.where(extended, _extended_key(old_keys, appended), old_keys),
        tf.where(extended, old_keys, tf.gather(parent_keys, parent, batch_dims=1)),
        tf.gather(cand_blank, chosen, batch_dims=1),
        tf.gather(cand_label, chosen, batch_dims=1),
    )


def _beam_step(state, inputs, labels, blank):
    """One step of CTC prefix beam search over W beams (sequences already ended keep theirs).

    A beam is its prefix (labels padded with -1, its length, the keys of it and of it minus
    its last label) with the log probabilities of its paths ending in a blank and in a label.
    """
    log_probs, active = inputs
    new = _beam_select(state, *_beam_candidates(state, log_probs, labels, blank), labels)
    return tuple(
        tf.where(tf.reshape(active, [-1] + [1] * (n.shape.rank - 1)), n, o)
        for n, o in zip(new, state)
    )


def _ctc_beam(inputs, lengths, beam_width, top_paths, blank):
    """CTC prefix beam search keeping `beam_width` prefixes per step; the best `top_paths`."""
    log_probs = tf.nn.log_softmax(inputs, axis=-1)
    batch, steps, classes = tf.shape(inputs)[0], tf.shape(inputs)[1], inputs.shape[-1]
    labels = tf.constant([c for c in range(classes) if c != blank], tf.int32)
    beams = [batch, beam_width]
    state = (
        tf.fill([batch, beam_width, steps], -1),
        tf.zeros(beams, tf.int32),
        tf.zeros(beams, tf.int64),
        tf.fill(beams, tf.constant(-1, tf.int64)),  # the empty prefix has no parent
        tf.one_hot(tf.zeros([batch], tf.int32), beam_width, on_value=0.0, off_value=-math.inf),
        tf.fill(beams, -math.inf),
    )
    timeline = (tf.transpose(log_probs, [1, 0, 2]), tf.transpose(_valid_steps(lengths, steps)))
    final = tf.foldl(lambda s, x: _beam_step(s, x, labels, blank), timeline, initializer=state)
    prefixes, scores = final[0], _logaddexp(final[4], final[5])
    paths = tf.where((scores > -math.inf)[..., None], prefixes, -1)
    missing = max(top_paths - beam_width, 0)  # more paths asked for than beams kept
    paths = tf.pad(paths[:, :top_paths], [(0, 0), (0, missing), (0, 0)], constant_values=-1)
    scores = tf.pad(scores[:, :top_paths], [(0, 0), (0, missing)], constant_values=-math.inf)
    return tf.transpose(paths, [1, 0, 2]), scores


def ctc_decode(
    inputs,
    sequence_lengths,
    strategy="greedy",
    beam_width=100,
    top_paths=1,
    merge_repeated=True,
    mask_index=0,
):
    inputs = tf.cast(to_float(inputs), tf.float32)
    lengths = convert_to_tensor(sequence_lengths)
    if strategy == "greedy":
        decoded, scores = _ctc_greedy(inputs, lengths, merge_repeated, mask_index)
    elif strategy == "beam_search":
        decoded, scores = _ctc_beam(inputs, lengths, beam_width, top_paths, mask_index)
    else:
        raise ValueError(f"strategy must be 'greedy' or 'beam_search', received {strategy!r}.")
    return decoded, scores
