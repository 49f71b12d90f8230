"""Array helpers behind the tensorflow numpy-kind ops: sorting, statistics, layout and counting.

Each takes tensors already converted (and, where it matters, already in their compute dtype).
"""

import builtins
import itertools

import numpy as np
import tensorflow as tf

from tripod.backends.common import errors
from tripod.backends.common import vectorize as vectorize_rules
from tripod.backends.tensorflow import core

_SAME_WIDTH_INT = {
    tf.float16: tf.int16,
    tf.bfloat16: tf.int16,
    tf.float32: tf.int32,
    tf.float64: tf.int64,
}


def _static(value):
    """`value` as a NumPy value when it is known without running anything, else None."""
    if isinstance(value, (tf.Tensor, tf.Variable)):
        return tf.get_static_value(value)
    return np.asarray(value)


def _normal_axes(axis, rank, op):
    axes = range(rank) if axis is None else (axis if isinstance(axis, (tuple, list)) else [axis])
    return sorted({errors.check_axis(op, a, rank) for a in axes})


def _move_to_end(x, axes):
    """`x` with `axes` moved last and merged into one axis; also the kept axes."""
    rank = x.shape.rank
    kept = [a for a in range(rank) if a not in axes]
    x = tf.transpose(x, kept + list(axes))
    shape = tf.shape(x)
    return tf.reshape(x, tf.concat([shape[: len(kept)], [-1]], 0)), kept


def slice_axis(x, start, stop, axis):
    """`x[..., start:stop, ...]` along `axis` (bounds may be tensors)."""
    rank = x.shape.rank
    begin = tf.one_hot(axis, rank, on_value=start, off_value=0, dtype=tf.int32)
    size = tf.one_hot(axis, rank, on_value=stop - start, off_value=-1, dtype=tf.int32)
    return tf.slice(x, begin, size)


# -- sorting -------------------------------------------------------------------------------------
def sort(x, axis):
    if x.dtype == tf.bool:
        return tf.cast(tf.sort(tf.cast(x, tf.uint8), axis=axis), tf.bool)
    if not x.dtype.is_floating:
        return tf.sort(x, axis=axis)
    nans = tf.math.is_nan(x)
    ordered = tf.sort(tf.where(nans, tf.constant(np.inf, x.dtype), x), axis=axis)
    nan_count = tf.reduce_sum(tf.cast(nans, tf.int32), axis=axis, keepdims=True)
    axis = errors.check_axis("sort", axis, x.shape.rank)
    length = tf.shape(x)[axis]
    position = tf.reshape(tf.range(length), [-1] + [1] * (x.shape.rank - axis - 1))
    return tf.where(position >= length - nan_count, tf.constant(np.nan, x.dtype), ordered)


def argsort(x, axis):
    """Stable int32 ascending order along `axis`, NaNs last (as numpy)."""
    axis = errors.check_axis("argsort", axis, x.shape.rank)
    last = x.shape.rank - 1
    if axis == last:
        return _argsort_last(x)
    perm = list(range(x.shape.rank))
    perm[axis], perm[last] = last, axis
    return tf.transpose(_argsort_last(tf.transpose(x, perm)), perm)


def _argsort_last(x):
    if x.dtype == tf.bool:
        x = tf.cast(x, tf.int8)
    if not x.dtype.is_floating:
        return tf.argsort(x, axis=-1, stable=True)
    batch = x.shape.rank - 1
    nans = tf.math.is_nan(x)
    order = tf.argsort(tf.where(nans, tf.constant(np.inf, x.dtype), x), axis=-1, stable=True)
    nans_in_order = tf.cast(tf.gather(nans, order, axis=-1, batch_dims=batch), tf.int8)
    regroup = tf.argsort(nans_in_order, axis=-1, stable=True)
    return tf.gather(order, regroup, axis=-1, batch_dims=batch)


def searchsorted(sorted_sequence, values, side):
    if sorted_sequence.dtype == tf.bool:
        sorted_sequence, values = tf.cast(sorted_sequence, tf.int8), tf.cast(values, tf.int8)
    flat = tf.reshape(values, [1, -1])
    found = tf.searchsorted(sorted_sequence[None], flat, side=side, out_type=tf.int32)
    return tf.reshape(found, tf.shape(values))


def digitize(x, bins):
    """numpy's `digitize`: bins may rise or fall."""
    rising = searchsorted(bins, x, "right")
    count = tf.size(bins, tf.int32)
    falling = count - searchsorted(tf.reverse(bins, [0]), x, "left")
    is_falling = (
        tf.logical_and(count > 1, bins[0] > bins[count - 1]) if bins.shape[0] != 0 else False
    )
    return tf.where(is_falling, falling, rising)


def arg_extreme(fn, x, axis, keepdims):
    """`argmax`/`argmin` with int32 indices, the first NaN winning as in numpy."""
    if x.dtype == tf.bool:
        x = tf.cast(x, tf.int8)
    shape = tf.shape(x)
    flat = axis is None
    if flat:
        x, axis = tf.reshape(x, [-1]), 0
    index = fn(x, axis=axis, output_type=tf.int32)
    if x.dtype.is_floating:
        nans = tf.math.is_nan(x)
        first_nan = tf.argmax(tf.cast(nans, tf.int8), axis=axis, output_type=tf.int32)
        index = tf.where(tf.reduce_any(nans, axis=axis), first_nan, index)
    if keepdims:
        index = tf.reshape(index, tf.ones_like(shape)) if flat else tf.expand_dims(index, axis)
    return index


def check_nonempty(x, axes, op):
    """numpy refuses a max or min over nothing; so does tripod (when the shape says so)."""
    shape = x.shape.as_list()
    for a in _normal_axes(axes, len(shape), op) if shape else []:
        if shape[a] == 0:
            raise ValueError(f"{op} of an empty axis has no identity; pass `initial`.")


# -- statistics ----------------------------------------------------------------------------------
_QUANTILE_METHODS = ("linear", "lower", "higher", "midpoint", "nearest")


def quantile(x, q, axis, method, keepdims):
    """numpy's `quantile` of float `x` (computed in x's dtype)."""
    if method not in _QUANTILE_METHODS:
        raise ValueError(f"method must be one of {_QUANTILE_METHODS}, received {method!r}.")
    known = _static(q)
    if known is not None and np.any((known < 0) | (known > 1)):
        raise ValueError(f"quantiles must lie in [0, 1], received {known}.")
    q = tf.cast(core.convert_to_tensor(q), x.dtype)
    rank = x.shape.rank
    axes = _normal_axes(axis, rank, "quantile")
    rows, kept = _move_to_end(x, axes)
    rows = sort(rows, -1)
    last = tf.cast(tf.shape(rows)[-1] - 1, x.dtype)
    position = q * last
    low, high = tf.floor(position), tf.math.ceil(position)
    pick = {"lower": low, "higher": high, "nearest": tf.round(position)}.get(method)
    if pick is not None:
        result = tf.gather(rows, tf.cast(pick, tf.int32), axis=-1)
    else:
        below = tf.gather(rows, tf.cast(low, tf.int32), axis=-1)
        above = tf.gather(rows, tf.cast(high, tf.int32), axis=-1)
        weight = 0.5 if method == "midpoint" else position - low
        result = below + (above - below) * weight
    has_nan = tf.reduce_any(tf.math.is_nan(rows), axis=-1)
    q_rank = q.shape.rank
    has_nan = tf.reshape(has_nan, tf.concat([tf.shape(has_nan), tf.ones([q_rank], tf.int32)], 0))
    result = tf.where(has_nan, tf.constant(np.nan, x.dtype), result)
    result = tf.transpose(result, [*range(len(kept), len(kept) + q_rank), *range(len(kept))])
    if keepdims:
        shape = tf.unstack(tf.shape(x)) if rank else []
        kept_shape = [1 if a in axes else shape[a] for a in range(rank)]
        result = tf.reshape(
            result, tf.concat([tf.shape(q), tf.stack(kept_shape) if rank else []], 0)
        )
    return result


def linspace(start, stop, num, endpoint, axis):
    """numpy's `linspace` in float64: (samples, step)."""
    if num < 0:
        raise ValueError(f"num must be non-negative, received {num}.")
    start, stop = start + tf.zeros_like(stop), stop + tf.zeros_like(start)
    divisor = num - 1 if endpoint else num
    step = (stop - start) / divisor if divisor > 0 else tf.fill(tf.shape(start), np.nan)
    steps = tf.reshape(tf.range(num, dtype=tf.float64), [num] + [1] * start.shape.rank)
    samples = start + steps * (step if divisor > 0 else stop - start)
    if endpoint and num > 1:
        samples = tf.concat([samples[:-1], stop[None]], axis=0)
    axis = errors.check_axis("linspace", axis, samples.shape.rank)
    perm = [*range(1, axis + 1), 0, *range(axis + 1, samples.shape.rank)]
    return tf.transpose(samples, perm), step


def histogram(x, bins, value_range):
    """numpy's `histogram` of float64 `x`: (int32 counts, float64 edges)."""
    if value_range is None:
        low = tf.reduce_min(x) if x.shape[0] != 0 else tf.constant(0.0, tf.float64)
        high = tf.reduce_max(x) if x.shape[0] != 0 else tf.constant(1.0, tf.float64)
    else:
        low, high = (tf.constant(float(v), tf.float64) for v in value_range)
    same = tf.equal(low, high)
    low, high = tf.where(same, low - 0.5, low), tf.where(same, high + 0.5, high)
    edges = low + (high - low) * tf.range(bins + 1, dtype=tf.float64) / bins
    inside = (x >= low) & (x <= high)
    x = tf.boolean_mask(x, inside)
    index = tf.cast((x - low) * (bins / (high - low)), tf.int32)
    index = tf.where(index == bins, index - 1, index)
    # Correct the rounding of the division against the edges themselves, as numpy does.
    index = tf.where(x < tf.gather(edges, index), index - 1, index)
    index = tf.where((x >= tf.gather(edges, index + 1)) & (index != bins - 1), index + 1, index)
    counts = tf.math.unsorted_segment_sum(tf.ones_like(index), index, bins)
    return counts, edges


# -- counting ------------------------------------------------------------------------------------
def bincount(x, weights, minlength, dtype):
    """numpy's `bincount` of 1-D or 2-D (one count per row) integer `x`, as `dtype`."""
    top = tf.reduce_max(x) + 1 if x.shape.num_elements() != 0 else tf.constant(0, x.dtype)
    length = tf.maximum(tf.cast(top, tf.int32), minlength)
    ids = tf.cast(x, tf.int32)
    rows = 1 if x.shape.rank == 1 else tf.shape(x)[0]
    if x.shape.rank == 2:
        ids = ids + tf.range(rows)[:, None] * length
    if weights is None:
        values = tf.ones_like(ids, tf.int32)
    else:
        work = tf.float64 if dtype.is_floating else tf.int64
        values = tf.cast(tf.broadcast_to(weights, tf.shape(x)), work)
    counts = tf.math.unsorted_segment_sum(values, ids, rows * length)
    if x.shape.rank == 2:
        counts = tf.reshape(counts, [rows, length])
    return tf.cast(counts, dtype)


def unique(x, axis, size, fill_value):
    """numpy's sorted `unique` of `x`: (values, int32 first index, int32 inverse, int32 counts)."""
    if axis is None:
        rows, shape = tf.reshape(x, [-1]), tf.shape(x)
        found, ids = tf.unique(rows, out_idx=tf.int32)
        order = argsort(found, -1)
        values = tf.gather(found, order)
    else:
        axis = errors.check_axis("unique", axis, x.shape.rank)
        moved = tf.experimental.numpy.moveaxis(x, axis, 0)
        width = moved.shape[1:].num_elements()
        if width is None:
            raise ValueError("unique along an axis needs the other axes to have static sizes.")
        rows = tf.reshape(moved, [-1, width])
        found, ids = tf.raw_ops.UniqueV2(x=rows, axis=[0], out_idx=tf.int32)
        found = tf.ensure_shape(found, [None, width])
        order = _lexsort_rows(found)
        values = tf.gather(found, order)
        values = tf.reshape(values, tf.concat([[-1], tf.shape(moved)[1:]], 0))
        values = tf.experimental.numpy.moveaxis(values, 0, axis)
        shape = [-1]
    rank = tf.math.invert_permutation(order)
    inverse = tf.gather(rank, ids)
    count = tf.shape(found)[0]
    counts = tf.math.unsorted_segment_sum(tf.ones_like(inverse), inverse, count)
    index = tf.math.unsorted_segment_min(tf.range(tf.shape(ids)[0]), inverse, count)
    inverse = tf.reshape(inverse, shape)
    if size is not None:
        fill = values[0] if fill_value is None else tf.cast(fill_value, values.dtype)
        values = _pad_to(values, size, fill, 0 if axis is None else axis)
        index, counts = _pad_to(index, size, index[0], 0), _pad_to(counts, size, 0, 0)
    return values, index, inverse, counts


def _lexsort_rows(rows):
    """The order that sorts the rows of 2-D `rows` lexicographically."""
    order = tf.range(tf.shape(rows)[0])
    for column in reversed(range(rows.shape[1])):
        keys = tf.gather(rows[:, column], order)
        order = tf.gather(order, argsort(keys, -1))
    return order


def _pad_to(values, size, fill, axis):
    """`values` cut or padded (with `fill`) along `axis` to length `size`."""
    length = tf.shape(values)[axis]
    missing = tf.maximum(size - length, 0)
    pad_shape = tf.tensor_scatter_nd_update(tf.shape(values), [[axis]], [missing])
    padding = tf.fill(pad_shape, tf.cast(fill, values.dtype))
    return slice_axis(tf.concat([values, padding], axis), 0, size, axis)


# -- layout --------------------------------------------------------------------------------------
def _repeat_counts(repeats):
    """`repeats` as a list of ints where all are known, else as a 1-D int32 tensor (a count
    known only when the step runs, such as a batch size); its length must be static."""
    parts = repeats if isinstance(repeats, (list, tuple)) else [repeats]
    known = [_static(r) for r in parts]
    if all(k is not None for k in known):
        return [int(r) for k in known for r in np.reshape(k, [-1])]
    return tf.concat([tf.reshape(tf.cast(r, tf.int32), [-1]) for r in parts], 0)


def tile(x, repeats):
    """numpy's `tile`: `repeats` and `x`'s rank are padded with leading ones to match."""
    repeats = _repeat_counts(repeats)
    count = len(repeats) if isinstance(repeats, list) else repeats.shape[0]
    if count is None:
        raise ValueError("tile: the number of repeats must be known when the step is traced.")
    extra = count - x.shape.rank
    if extra > 0:
        x = tf.reshape(x, tf.concat([tf.ones([extra], tf.int32), tf.shape(x)], 0))
    pad = x.shape.rank - count
    if pad > 0 and isinstance(repeats, list):
        repeats = [1] * pad + repeats
    elif pad > 0:
        repeats = tf.concat([tf.ones([pad], tf.int32), repeats], 0)
    if x.dtype == tf.uint16:
        return tf.bitcast(tf.tile(tf.bitcast(x, tf.int16), repeats), tf.uint16)
    return tf.tile(x, repeats)


def split(x, indices_or_sections, axis, even):
    """numpy's `split` (`even`) or `array_split`: a list of tensors."""
    axis = errors.check_axis("split", axis, x.shape.rank)
    length = x.shape[axis]
    if isinstance(indices_or_sections, (int, np.integer)):
        sections = int(indices_or_sections)
        if sections <= 0:
            raise ValueError(f"the number of sections must be positive, received {sections}.")
        if even and length is not None and length % sections:
            raise ValueError(
                f"an axis of length {length} does not split into {sections} equal sections."
            )
        if even:
            return tf.split(x, sections, axis=axis)
        length = tf.shape(x)[axis] if length is None else length
        small, extra = length // sections, length % sections
        bounds = [
            i * small + builtins.min(i, extra)
            if isinstance(extra, int)
            else i * small + tf.minimum(i, extra)
            for i in range(sections + 1)
        ]
    else:
        length = tf.shape(x)[axis] if length is None else length
        cuts = [int(i) for i in np.reshape(_static(indices_or_sections), [-1])]
        bounds = [0, *(_clamp(c + length if c < 0 else c, length) for c in cuts), length]
    return [slice_axis(x, a, _larger(a, b), axis) for a, b in itertools.pairwise(bounds)]


def _clamp(index, length):
    if isinstance(index, int) and isinstance(length, int):
        return builtins.min(builtins.max(index, 0), length)
    return tf.clip_by_value(index, 0, length)


def _larger(a, b):
    if isinstance(a, int) and isinstance(b, int):
        return builtins.max(a, b)
    return tf.maximum(a, b)


def view(x, dtype):
    """`x`'s bytes reinterpreted as `dtype` (the last axis rescales when the widths differ)."""
    source = tf.uint8 if x.dtype == tf.bool else x.dtype
    target = tf.uint8 if dtype == tf.bool else dtype
    x = tf.cast(x, source) if x.dtype == tf.bool else x
    ratio = source.size / target.size
    if ratio > 1:
        x = tf.bitcast(x, target)
        shape = tf.shape(x)
        x = tf.reshape(x, tf.concat([shape[:-2], [shape[-2] * shape[-1]]], 0))
    elif ratio < 1:
        factor = int(1 / ratio)
        shape = tf.shape(x)
        x = tf.bitcast(tf.reshape(x, tf.concat([shape[:-1], [-1, factor]], 0)), target)
    else:
        x = tf.bitcast(x, target)
    return tf.cast(x, tf.bool) if dtype == tf.bool else x


def pad(x, pad_width, mode, constant_values):
    """numpy's `pad` with any of its modes (default statistic and ramp arguments)."""
    errors.check_pad_args(mode, constant_values)
    widths = np.broadcast_to(np.asarray(_static(pad_width), dtype=np.int64), (x.shape.rank, 2))
    if (widths < 0).any():
        raise ValueError(f"pad widths must be non-negative, received {widths.tolist()}.")
    if mode in ("constant", "empty"):
        fill = 0 if constant_values is None else constant_values
        return tf.pad(x, widths.tolist(), constant_values=core.cast(fill, x.dtype))
    for axis, (before, after) in enumerate(widths.tolist()):
        if before or after:
            x = _pad_axis(x, axis, int(before), int(after), mode)
    return x


def _pad_axis(x, axis, before, after, mode):
    if x.shape[axis] == 0:
        raise ValueError(f"cannot pad an empty axis with mode {mode!r}.")
    length = tf.shape(x)[axis]
    if mode in ("edge", "wrap", "circular", "reflect", "symmetric"):
        index = tf.range(-before, length + after)
        return tf.gather(x, _source_index(index, length, mode), axis=axis)
    if mode == "linear_ramp":
        return _ramp(x, axis, before, after, length)
    stat = _statistic(x, axis, mode)
    left = tf.repeat(stat, before, axis=axis)
    right = tf.repeat(stat, after, axis=axis)
    return tf.concat([left, x, right], axis=axis)


def _source_index(index, length, mode):
    """For each padded position, the position of `x` it copies."""
    if mode == "edge":
        return tf.clip_by_value(index, 0, length - 1)
    if mode in ("wrap", "circular"):
        return tf.math.floormod(index, length)
    period = tf.maximum(2 * length - 2 if mode == "reflect" else 2 * length, 1)
    index = tf.math.floormod(index, period)
    mirror = period - index - (0 if mode == "reflect" else 1)
    return tf.where(index < length, index, mirror)


def _statistic(x, axis, mode):
    """The statistic `mode` of `x` along `axis` (kept as a size-1 axis), in x's dtype."""
    if mode == "maximum":
        return tf.reduce_max(x, axis=axis, keepdims=True)
    if mode == "minimum":
        return tf.reduce_min(x, axis=axis, keepdims=True)
    work = tf.cast(x, tf.float64)
    if mode == "mean":
        value = tf.reduce_mean(work, axis=axis, keepdims=True)
    else:
        value = tf.expand_dims(quantile(work, 0.5, axis, "linear", False), axis)
    return tf.cast(tf.round(value) if x.dtype.is_integer else value, x.dtype)


def _ramp(x, axis, before, after, length):
    """numpy's `linear_ramp` padding towards 0 at both ends."""
    work = tf.cast(x, tf.float64)
    edges = [slice_axis(work, 0, 1, axis), slice_axis(work, length - 1, length, axis)]
    parts = []
    for edge, width, reverse in ((edges[0], before, False), (edges[1], after, True)):
        shape = [1] * x.shape.rank
        shape[axis] = width
        steps = tf.reshape(tf.range(width, dtype=tf.float64) / builtins.max(width, 1), shape)
        ramp = edge * steps
        parts.append(tf.reverse(ramp, [axis]) if reverse else ramp)
    values = tf.concat([parts[0], work, parts[1]], axis=axis)
    return tf.cast(tf.floor(values) if x.dtype.is_integer else values, x.dtype)


# -- products ------------------------------------------------------------------------------------
def matmul(x1, x2):
    """numpy's `matmul`, 1-D operands included. A stack of rows times a matrix is one 2-D
    matmul (`tensordot`): a broadcast batch matmul would make its gradient sum a copy of the
    matrix's gradient per batch element."""
    if x1.shape.rank > 2 and x2.shape.rank == 2:
        return tf.tensordot(x1, x2, 1)
    vector1, vector2 = x1.shape.rank == 1, x2.shape.rank == 1
    x1 = x1[None] if vector1 else x1
    x2 = x2[:, None] if vector2 else x2
    result = tf.linalg.matmul(x1, x2)
    if vector1:
        result = tf.squeeze(result, -2)
    if vector2:
        result = tf.squeeze(result, -1)
    return result


def tensordot(x1, x2, axes):
    if isinstance(axes, (tuple, list)):
        first, second = ([a] if isinstance(a, int) else list(a) for a in axes)
        axes = [
            [errors.check_axis("tensordot", a, x1.shape.rank) for a in first],
            [errors.check_axis("tensordot", a, x2.shape.rank) for a in second],
        ]
    return tf.tensordot(x1, x2, axes)


def correlate(x1, x2, mode):
    """numpy's `correlate` of 1-D `x1` and `x2`: c[k] = sum_n x1[n + k] * conj(x2[n])."""
    if x1.shape.rank != 1 or x2.shape.rank != 1:
        raise ValueError(f"correlate needs 1-D inputs, received shapes {x1.shape} and {x2.shape}.")
    if mode not in ("valid", "same", "full"):
        raise ValueError(f"mode must be 'valid', 'same' or 'full', received {mode!r}.")
    n, m = tf.size(x1), tf.size(x2)
    padded = tf.pad(x1, [[m - 1, m - 1]])
    frames = tf.signal.frame(padded, m, 1)
    full = tf.linalg.matvec(frames, tf.math.conj(x2) if x2.dtype.is_complex else x2)
    short, long = tf.minimum(n, m), tf.maximum(n, m)
    if mode == "full":
        return full
    if mode == "valid":
        return full[short - 1 : long]
    offset = tf.where(n >= m, (short - 1) // 2, short - 1 - (short - 1) // 2)
    return full[offset : offset + long]


# -- vectorize -----------------------------------------------------------------------------------
def vectorize(pyfunc, excluded, signature):
    """numpy's `vectorize` over `tf.vectorized_map`: loop dims broadcast, core dims kept."""
    excluded = set(excluded or ())
    cores = vectorize_rules.core_dims(signature) if signature else None

    def vectorized(*args, **kwargs):
        positions = [i for i in range(len(args)) if i not in excluded]
        tensors = [core.convert_to_tensor(args[i]) for i in positions]
        ranks = cores or [0] * len(tensors)
        loop = tf.TensorShape([])
        for t, c in zip(tensors, ranks, strict=True):
            loop = tf.broadcast_static_shape(loop, t.shape[: t.shape.rank - c])
        flat = []
        for t, c in zip(tensors, ranks):
            core_shape = t.shape[t.shape.rank - c :]
            t = tf.broadcast_to(t, loop.concatenate(core_shape))
            flat.append(tf.reshape(t, [-1, *core_shape]))

        def call(items):
            full = list(args)
            for i, item in zip(positions, items):
                full[i] = item
            return pyfunc(*full, **kwargs)

        out = tf.vectorized_map(call, tuple(flat))
        return tf.nest.map_structure(lambda o: tf.reshape(o, [*loop, *o.shape[1:]]), out)

    return vectorized


def flattened(x):
    """`x` flattened to one dim."""
    return tf.reshape(x, [-1])


def reduction_axes(axis):
    """A reduction `axis` as TensorFlow takes it (None, or a list of ints)."""
    if axis is None:
        return None
    return list(axis) if isinstance(axis, (tuple, list)) else [axis]


def shape_arg(shape):
    """A shape argument as TensorFlow takes it: an int becomes a one-element list."""
    if isinstance(shape, (int, np.integer)):
        return [shape]
    return shape
