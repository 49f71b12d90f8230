"""NumPy reference implementations of every loss, written from the losses' definitions.

Each function returns per-sample values in float64; `reduce` applies a Keras reduction.
"""

import numpy as np

EPS = 1e-7


def _f(*arrays):
    return [np.asarray(a, dtype=np.float64) for a in arrays]


def _align(a, b):
    """Squeeze a trailing 1 or add one so that `a` and `b` have the same rank (Keras's rule)."""
    if a.ndim == b.ndim + 1 and a.shape[-1] == 1:
        return (a[..., 0], b) if b.ndim != 1 else (a, b[..., None])
    if b.ndim == a.ndim + 1 and b.shape[-1] == 1:
        return (a, b[..., 0]) if a.ndim != 1 else (a[..., None], b)
    return a, b


def reduce(values, sample_weight=None, reduction="sum_over_batch_size", mask=None):
    """A Keras reduction of per-sample `values` weighted by `sample_weight` and `mask`."""
    values = np.asarray(values, np.float64)
    weight = None
    if sample_weight is not None:
        sample_weight = np.asarray(sample_weight, np.float64)
        if mask is not None:
            mask, _ = _align(mask, sample_weight)
        values, weight = _align(values, sample_weight)
    if mask is not None:
        weight = mask.astype(np.float64) if weight is None else weight * mask
    weighted = values if weight is None else values * weight
    if reduction in (None, "none"):
        return weighted
    total = weighted.sum()
    if reduction == "sum":
        return total
    if reduction == "mean_with_sample_weight" and weight is not None:
        return total / weight.sum() if weight.sum() else 0.0
    count = weighted.size if mask is None else np.broadcast_to(mask, weighted.shape).sum()
    return total / count if count else 0.0


def mean_squared_error(t, p):
    t, p = _align(*_f(t, p))
    return np.mean((t - p) ** 2, -1)


def mean_absolute_error(t, p):
    t, p = _align(*_f(t, p))
    return np.mean(np.abs(t - p), -1)


def mean_absolute_percentage_error(t, p):
    t, p = _align(*_f(t, p))
    return 100 * np.mean(np.abs((t - p) / np.maximum(np.abs(t), EPS)), -1)


def mean_squared_logarithmic_error(t, p):
    t, p = _align(*_f(t, p))
    return np.mean((np.log(np.maximum(p, EPS) + 1) - np.log(np.maximum(t, EPS) + 1)) ** 2, -1)


def huber(t, p, delta=1.0):
    t, p = _align(*_f(t, p))
    err = np.abs(p - t)
    return np.mean(np.where(err <= delta, 0.5 * err**2, delta * err - 0.5 * delta**2), -1)


def log_cosh(t, p):
    t, p = _align(*_f(t, p))
    return np.mean(np.log(np.cosh(p - t)), -1)


def _hinge_labels(t):
    return 2 * t - 1 if np.all((t == 0) | (t == 1)) else t


def hinge(t, p):
    t, p = _align(*_f(t, p))
    return np.mean(np.maximum(1 - _hinge_labels(t) * p, 0), -1)


def squared_hinge(t, p):
    t, p = _align(*_f(t, p))
    return np.mean(np.maximum(1 - _hinge_labels(t) * p, 0) ** 2, -1)


def categorical_hinge(t, p):
    t, p = _f(t, p)
    pos = np.sum(t * p, -1)
    neg = np.max((1 - t) * p, -1)
    return np.maximum(neg - pos + 1, 0)


def kl_divergence(t, p):
    t, p = _align(*_f(t, p))
    t, p = np.clip(t, EPS, 1), np.clip(p, EPS, 1)
    return np.sum(t * np.log(t / p), -1)


def poisson(t, p):
    t, p = _align(*_f(t, p))
    return np.mean(p - t * np.log(p + EPS), -1)


def cosine_similarity(t, p, axis=-1):
    t, p = _align(*_f(t, p))
    tn = t / np.sqrt(np.maximum(np.sum(t**2, axis, keepdims=True), 1e-12))
    pn = p / np.sqrt(np.maximum(np.sum(p**2, axis, keepdims=True), 1e-12))
    return -np.sum(tn * pn, axis)


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def _softmax(x, axis):
    e = np.exp(x - x.max(axis, keepdims=True))
    return e / e.sum(axis, keepdims=True)


def _elementwise_bce(t, p, from_logits):
    if from_logits:
        return np.maximum(p, 0) - p * t + np.log1p(np.exp(-np.abs(p)))
    p = np.clip(p, EPS, 1 - EPS)
    return -(t * np.log(p) + (1 - t) * np.log(1 - p))


def binary_crossentropy(t, p, from_logits=False, label_smoothing=0.0, axis=-1):
    t, p = _align(*_f(t, p))
    t = t * (1 - label_smoothing) + 0.5 * label_smoothing
    return np.mean(_elementwise_bce(t, p, from_logits), axis)


def binary_focal_crossentropy(
    t,
    p,
    apply_class_balancing=False,
    alpha=0.25,
    gamma=2.0,
    from_logits=False,
    label_smoothing=0.0,
    axis=-1,
):
    t, p = _align(*_f(t, p))
    t = t * (1 - label_smoothing) + 0.5 * label_smoothing
    bce = _elementwise_bce(t, p, from_logits)
    prob = _sigmoid(p) if from_logits else p
    p_t = t * prob + (1 - t) * (1 - prob)
    loss = (1 - p_t) ** gamma * bce
    if apply_class_balancing:
        loss = (t * alpha + (1 - t) * (1 - alpha)) * loss
    return np.mean(loss, axis)


def _smooth(t, label_smoothing, classes):
    return t * (1 - label_smoothing) + label_smoothing / classes


def categorical_crossentropy(t, p, from_logits=False, label_smoothing=0.0, axis=-1):
    t, p = _f(t, p)
    t = _smooth(t, label_smoothing, p.shape[axis])
    if from_logits:
        logp = p - p.max(axis, keepdims=True)
        logp = logp - np.log(np.exp(logp).sum(axis, keepdims=True))
    else:
        logp = np.log(np.clip(p / p.sum(axis, keepdims=True), EPS, 1 - EPS))
    return -np.sum(t * logp, axis)


def categorical_focal_crossentropy(
    t, p, alpha=0.25, gamma=2.0, from_logits=False, label_smoothing=0.0, axis=-1
):
    t, p = _f(t, p)
    t = _smooth(t, label_smoothing, p.shape[axis])
    p = _softmax(p, axis) if from_logits else p
    p = np.clip(p / p.sum(axis, keepdims=True), EPS, 1 - EPS)
    return np.sum(alpha * (1 - p) ** gamma * -t * np.log(p), axis)


def _sparse_labels(t, p):
    t = np.asarray(t)
    if t.ndim == p.ndim and t.shape[-1] == 1:
        t = t[..., 0]
    return t.astype(np.int64)


def sparse_categorical_crossentropy(t, p, from_logits=False, ignore_class=None, axis=-1):
    (p,) = _f(p)
    t = _sparse_labels(t, p)
    valid = np.ones(t.shape, bool) if ignore_class is None else t != ignore_class
    onehot = np.moveaxis(np.eye(p.shape[axis])[np.where(valid, t, 0)], -1, axis)
    return np.where(valid, categorical_crossentropy(onehot, p, from_logits, axis=axis), 0.0)


def sparse_mask(t, p, ignore_class):
    """Where the labels are not `ignore_class`."""
    return _sparse_labels(t, np.asarray(p)) != ignore_class


def categorical_generalized_cross_entropy(t, p, q):
    (p,) = _f(p)
    t = _sparse_labels(t, p)
    prob = np.take_along_axis(p, t[..., None], -1)[..., 0]
    return (1 - prob**q) / q


def dice(t, p, axis=None):
    t, p = _f(t, p)
    inter = np.sum(t * p, axis)
    return 1 - 2 * inter / (np.sum(t, axis) + np.sum(p, axis) + EPS)


def tversky(t, p, alpha=0.5, beta=0.5, axis=None):
    t, p = _f(t, p)
    tp = np.sum(t * p, axis)
    missed = np.sum(t * (1 - p), axis)
    spurious = np.sum((1 - t) * p, axis)
    return 1 - tp / (tp + alpha * missed + beta * spurious + EPS)


def _logsumexp(x):
    if not len(x):
        return -np.inf
    top = np.max(x)
    return top + np.log(np.sum(np.exp(x - top)))


def circle_pairs(t, ref_labels, remove_diagonal):
    """(positive, negative) masks of label pairs."""
    t, ref_labels = np.ravel(t), np.ravel(ref_labels)
    same = t[:, None] == ref_labels[None, :]
    positive = same & ~np.eye(*same.shape, dtype=bool) if remove_diagonal else same
    return positive, ~same


def circle(t, p, ref_labels=None, ref_embeddings=None, remove_diagonal=True, gamma=80, margin=0.4):
    (p,) = _f(p)
    ref = p if ref_embeddings is None else np.asarray(ref_embeddings, np.float64)
    positive, negative = circle_pairs(t, t if ref_labels is None else ref_labels, remove_diagonal)
    sim = np.minimum(p @ ref.T, 1.0)
    pos_logits = -gamma * np.maximum(1 + margin - sim, 0) * (sim - (1 - margin))
    neg_logits = gamma * np.maximum(sim + margin, 0) * (sim - margin)
    z = np.array(
        [
            _logsumexp(lp[m]) + _logsumexp(ln[n])
            for lp, m, ln, n in zip(pos_logits, positive, neg_logits, negative)
        ]
    )
    return np.logaddexp(0, z)


def ctc(t, p):
    """Negative log-likelihood of each label sequence (0 = blank and padding) under logits `p`."""
    (p,) = _f(p)
    t = np.asarray(t).astype(np.int64)
    out = []
    for labels, logits in zip(t, p):
        labels = labels[: np.count_nonzero(labels)]
        logp = logits - logits.max(-1, keepdims=True)
        logp = logp - np.log(np.exp(logp).sum(-1, keepdims=True))
        ext = [0]
        for label in labels:
            ext += [int(label), 0]
        alpha = np.full(len(ext), -np.inf)
        alpha[0] = logp[0, 0]
        if len(ext) > 1:
            alpha[1] = logp[0, ext[1]]
        for step in range(1, len(logits)):
            previous = alpha.copy()
            for s in range(len(ext)):
                a = previous[s]
                if s > 0:
                    a = np.logaddexp(a, previous[s - 1])
                if s > 1 and ext[s] != 0 and ext[s] != ext[s - 2]:
                    a = np.logaddexp(a, previous[s - 2])
                alpha[s] = a + logp[step, ext[s]]
        out.append(-np.logaddexp(alpha[-1], alpha[-2]) if len(ext) > 1 else -alpha[-1])
    return np.array(out)
