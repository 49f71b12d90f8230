"""CTC for the jax backend: the loss (forward recursion) and greedy / prefix-beam-search decoding.

Everything is written with fixed shapes, so it runs under `jax.jit`: the loss scans over time
with masks for the per-sequence lengths, and beam search keeps `beam_width` fixed-size beams.
"""

import jax
import jax.numpy as jnp
from jax import lax

from tripod.backends.jax.core import convert_to_tensor
from tripod.backends.jax.helpers import as_dtype, np_dtype, result_dtype, wide_dtype

# A finite stand-in for log(0) in the loss: keeps gradients finite where -inf would give NaN.
_LOG_ZERO = -1e30


def _lengths(lengths, batch, name):
    lengths = convert_to_tensor(lengths).reshape(-1).astype(jnp.int32)
    if lengths.shape[0] != batch:
        raise ValueError(f"{name} must hold {batch} lengths, received shape {lengths.shape}.")
    return lengths


def _shift(x, by, fill):
    """`x` moved `by` places to the right along its last axis, `fill` entering on the left."""
    pad = jnp.full(x.shape[:-1] + (by,), fill, x.dtype)
    return jnp.concatenate([pad, x[..., :-by]], axis=-1)


# -- the loss ---------------------------------------------------------------------------------


def loss(target, output, target_length, output_length, mask_index):
    """-log p(target | output) per sequence; `output` holds logits (B, T, C)."""
    target = convert_to_tensor(target)
    dtype = result_dtype(output, floating=True)
    output = as_dtype(output, wide_dtype(dtype))
    if target.ndim != 2 or output.ndim != 3 or target.shape[0] != output.shape[0]:
        raise ValueError(
            "ctc_loss needs target (B, L) and output (B, T, C), "
            f"received {target.shape} and {output.shape}."
        )
    batch, steps, classes = output.shape
    target_length = _lengths(target_length, batch, "target_length")
    output_length = _lengths(output_length, batch, "output_length")
    log_probs = jax.nn.log_softmax(output, axis=-1)
    # The extended label sequence: blank, l1, blank, l2, ..., blank.
    labels = jnp.clip(target.astype(jnp.int32), 0, classes - 1)
    extended = jnp.full((batch, 2 * target.shape[1] + 1), mask_index, jnp.int32)
    extended = extended.at[:, 1::2].set(labels)
    # A label may be reached from two states back unless it is a blank or repeats that label.
    skip = (extended != mask_index) & (extended != _shift(extended, 2, -1))
    emit = jnp.take_along_axis(
        log_probs, jnp.broadcast_to(extended[:, None, :], (batch, steps, extended.shape[1])), axis=2
    )
    states = jnp.arange(extended.shape[1], dtype=jnp.int32)
    alpha = jnp.where(states < 2, emit[:, 0], _LOG_ZERO)

    def step(alpha, inputs):
        t, e = inputs
        one = _shift(alpha, 1, _LOG_ZERO)
        two = jnp.where(skip, _shift(alpha, 2, _LOG_ZERO), _LOG_ZERO)
        new = jnp.logaddexp(jnp.logaddexp(alpha, one), two) + e
        return jnp.where((t < output_length)[:, None], new, alpha), None

    alpha, _ = lax.scan(
        step, alpha, (jnp.arange(1, steps, dtype=jnp.int32), jnp.swapaxes(emit[:, 1:], 0, 1))
    )
    last = 2 * target_length
    final = jnp.take_along_axis(alpha, last[:, None], axis=1)[:, 0]
    before = jnp.take_along_axis(alpha, jnp.maximum(last - 1, 0)[:, None], axis=1)[:, 0]
    before = jnp.where(target_length > 0, before, _LOG_ZERO)
    return (-jnp.logaddexp(final, before)).astype(np_dtype(dtype))


# -- decoding ---------------------------------------------------------------------------------


def decode(inputs, sequence_lengths, strategy, beam_width, top_paths, merge_repeated, mask_index):
    """(decoded label sequences padded with -1, their scores), as Keras 3's ctc_decode."""
    inputs = convert_to_tensor(inputs)
    if inputs.ndim != 3:
        raise ValueError(f"ctc_decode needs inputs of shape (B, T, C), received {inputs.shape}.")
    inputs = as_dtype(inputs, wide_dtype(result_dtype(inputs, floating=True)))
    lengths = _lengths(sequence_lengths, inputs.shape[0], "sequence_lengths")
    if strategy == "greedy":
        return _greedy(inputs, lengths, merge_repeated, mask_index)
    if strategy != "beam_search":
        raise ValueError(f"strategy must be 'greedy' or 'beam_search', received {strategy!r}.")
    log_probs = jax.nn.log_softmax(inputs, axis=-1)
    width = int(beam_width)
    search = jax.vmap(lambda lp, n: _beam_search(lp, n, width, mask_index))
    prefixes, scores = search(log_probs, lengths)  # (B, W, T), (B, W), best first
    kept = min(int(top_paths), width)
    prefixes, scores = prefixes[:, :kept], scores[:, :kept]
    missing = int(top_paths) - kept
    prefixes = jnp.pad(prefixes, [(0, 0), (0, missing), (0, 0)], constant_values=-1)
    scores = jnp.pad(scores, [(0, 0), (0, missing)], constant_values=-jnp.inf)
    return jnp.swapaxes(prefixes, 0, 1), scores.astype(jnp.float32)


def _greedy(inputs, lengths, merge_repeated, blank):
    batch, steps, _ = inputs.shape
    best = jnp.argmax(inputs, axis=-1).astype(jnp.int32)
    valid = jnp.arange(steps, dtype=jnp.int32)[None, :] < lengths[:, None]
    keep = valid & (best != blank)
    if merge_repeated:
        keep = keep & (best != _shift(best, 1, -1))
    position = jnp.where(keep, jnp.cumsum(keep, axis=1, dtype=jnp.int32) - 1, steps)
    rows = jnp.broadcast_to(jnp.arange(batch, dtype=jnp.int32)[:, None], best.shape)
    decoded = jnp.full((batch, steps), -1, jnp.int32).at[rows, position].set(best, mode="drop")
    scores = -jnp.sum(jnp.where(valid, jnp.max(inputs, axis=-1), 0), axis=1, keepdims=True)
    return decoded[None], scores.astype(jnp.float32)


def _beam_search(log_probs, length, width, blank):
    """CTC prefix beam search of one sequence: (prefixes (W, T), log probs (W,)), best first.

    A beam holds a label prefix (padded with -1), its length, two log probabilities (of the
    paths so far that end in a blank, and of those that end in its last label) and whether it
    exists at all. Candidates are ranked by probability, ties (impossible paths included) by
    the order in which a prefix first appears, as in the reference.
    """
    steps, _ = log_probs.shape
    neg = jnp.asarray(-jnp.inf, log_probs.dtype)
    beams = (
        jnp.full((width, steps), -1, jnp.int32),
        jnp.zeros((width,), jnp.int32),
        jnp.full((width,), neg).at[0].set(0.0),
        jnp.full((width,), neg),
        jnp.zeros((width,), bool).at[0].set(True),
    )

    def step(beams, inputs):
        t, y = inputs
        new = _beam_step(beams, y, width, blank, neg)
        return jax.tree.map(lambda n, o: jnp.where(t < length, n, o), new, beams), None

    beams, _ = lax.scan(step, beams, (jnp.arange(steps, dtype=jnp.int32), log_probs))
    prefixes, _, p_blank, p_label, alive = beams
    scores = jnp.where(alive, jnp.logaddexp(p_blank, p_label), neg)
    return jnp.where(alive[:, None], prefixes, -1), scores


def _beam_step(beams, y, width, blank, neg):
    """The `width` best beams after one more time step with label log probabilities `y`."""
    prefixes, size, p_blank, p_label, alive = beams
    classes = y.shape[0]
    total = jnp.logaddexp(p_blank, p_label)
    last = jnp.where(
        size > 0, jnp.take_along_axis(prefixes, jnp.maximum(size - 1, 0)[:, None], 1)[:, 0], -1
    )
    # Staying on the same prefix: through a blank, or by repeating its last label.
    stay_blank = total + y[blank]
    stay_label = jnp.where(last >= 0, p_label + y[jnp.maximum(last, 0)], neg)
    # Extending prefix w by label c (a repeat of the last label must follow a blank).
    labels = jnp.arange(classes, dtype=jnp.int32)
    extend = (
        jnp.where(labels[None, :] == last[:, None], p_blank[:, None], total[:, None]) + y[None, :]
    )
    # Where each candidate first appears when beams are expanded in order: stay, then labels.
    stay_order = jnp.arange(width, dtype=jnp.int32) * (classes + 1)
    extend_order = stay_order[:, None] + 1 + labels[None, :]
    # An extension that equals an existing beam's prefix joins that beam's stay candidate.
    parent = _parents(prefixes, size, alive)  # (W target, W source)
    target_label = jnp.maximum(last, 0)
    joined = jnp.where(parent, extend[:, target_label].T, neg)
    stay_label = jnp.logaddexp(stay_label, jax.nn.logsumexp(joined, axis=1))
    joined_order = jnp.where(parent, extend_order[:, target_label].T, stay_order[:, None])
    stay_order = jnp.minimum(stay_order, jnp.min(joined_order, axis=1))
    merged = jnp.zeros((width, classes), bool).at[:, target_label].max(parent.T)
    extend_alive = alive[:, None] & (labels[None, :] != blank) & ~merged
    # The best `width` of all candidates: existing ones first, then by probability, then order.
    scores = jnp.concatenate([jnp.logaddexp(stay_blank, stay_label), extend.reshape(-1)])
    exists = jnp.concatenate([alive, extend_alive.reshape(-1)])
    order = jnp.concatenate([stay_order, extend_order.reshape(-1)])
    *_, chosen = lax.sort(
        (~exists, -scores, order, jnp.arange(scores.shape[0], dtype=jnp.int32)), num_keys=3
    )
    chosen = chosen[:width]
    is_stay = chosen < width
    source = jnp.where(is_stay, chosen, (chosen - width) // classes)
    label = (chosen - width) % classes
    new_prefixes = prefixes[source]
    new_size = size[source] + jnp.where(is_stay, 0, 1)
    rows = jnp.arange(width, dtype=jnp.int32)
    written = new_prefixes.at[rows, jnp.minimum(size[source], prefixes.shape[1] - 1)].set(label)
    new_prefixes = jnp.where(is_stay[:, None], new_prefixes, written)
    new_blank = jnp.where(is_stay, stay_blank[source], neg)
    new_label = jnp.where(is_stay, stay_label[source], scores[chosen])
    return new_prefixes, new_size, new_blank, new_label, exists[chosen]


def _parents(prefixes, size, alive):
    """(W, W) bool: [i, j] when beam i's prefix is beam j's prefix plus one label (both alive)."""
    positions = jnp.arange(prefixes.shape[1], dtype=jnp.int32)
    agree = (prefixes[:, None, :] == prefixes[None, :, :]) | (
        positions[None, None, :] >= size[None, :, None]
    )
    longer = size[:, None] == size[None, :] + 1
    return jnp.all(agree, axis=-1) & longer & alive[:, None] & alive[None, :]
