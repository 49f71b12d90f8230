"""NumPy references for the metric tests, in float64."""

import numpy as np

EPS = 1e-7


def f64(x):
    return np.asarray(x, dtype="float64")


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


def softmax(x):
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


# -- per-sample functions -----------------------------------------------------------------------
def mse(t, p):
    return np.mean((f64(p) - f64(t)) ** 2, -1)


def mae(t, p):
    return np.mean(np.abs(f64(p) - f64(t)), -1)


def mape(t, p):
    t, p = f64(t), f64(p)
    return 100 * np.mean(np.abs(t - p) / np.maximum(np.abs(t), EPS), -1)


def msle(t, p):
    t, p = f64(t), f64(p)
    return np.mean((np.log1p(np.maximum(p, EPS)) - np.log1p(np.maximum(t, EPS))) ** 2, -1)


def log_cosh(t, p):
    return np.mean(np.log(np.cosh(f64(p) - f64(t))), -1)


def _unit(x):
    return x / np.maximum(np.linalg.norm(x, axis=-1, keepdims=True), 1e-6)


def cosine(t, p):
    return np.sum(_unit(f64(t)) * _unit(f64(p)), -1)


def pearson(t, p):
    t, p = f64(t), f64(p)
    cov = np.mean((t - t.mean(-1, keepdims=True)) * (p - p.mean(-1, keepdims=True)), -1)
    return cov / (t.std(-1) * p.std(-1))


def concordance(t, p):
    t, p = f64(t), f64(p)
    cov = np.mean((t - t.mean(-1, keepdims=True)) * (p - p.mean(-1, keepdims=True)), -1)
    return 2 * cov / (t.var(-1) + p.var(-1) + (t.mean(-1) - p.mean(-1)) ** 2)


def binary_crossentropy(t, p, from_logits=False, label_smoothing=0.0):
    t, p = f64(t), f64(p)
    p = sigmoid(p) if from_logits else np.clip(p, EPS, 1 - EPS)
    t = t * (1 - label_smoothing) + 0.5 * label_smoothing
    return -np.mean(t * np.log(p) + (1 - t) * np.log(1 - p), -1)


def categorical_crossentropy(t, p, from_logits=False, label_smoothing=0.0):
    t, p = f64(t), f64(p)
    p = softmax(p) if from_logits else np.clip(p / p.sum(-1, keepdims=True), EPS, 1 - EPS)
    t = t * (1 - label_smoothing) + label_smoothing / t.shape[-1]
    return -np.sum(t * np.log(p), -1)


def sparse_categorical_crossentropy(t, p, from_logits=False):
    labels = np.asarray(t).reshape(-1).astype(int)
    return categorical_crossentropy(np.eye(np.shape(p)[-1])[labels], p, from_logits)


def kl_divergence(t, p):
    t, p = np.clip(f64(t), EPS, 1), np.clip(f64(p), EPS, 1)
    return np.sum(t * np.log(t / p), -1)


def poisson(t, p):
    t, p = f64(t), f64(p)
    return np.mean(p - t * np.log(p + EPS), -1)


def _signed(t):
    t = f64(t)
    return np.where(t == 0, -1.0, t)


def hinge(t, p):
    return np.mean(np.maximum(1 - _signed(t) * f64(p), 0), -1)


def squared_hinge(t, p):
    return np.mean(np.maximum(1 - _signed(t) * f64(p), 0) ** 2, -1)


def categorical_hinge(t, p):
    t, p = f64(t), f64(p)
    return np.maximum(np.max((1 - t) * p, -1) - np.sum(t * p, -1) + 1, 0)


def huber(t, p, delta=1.0):
    err = np.abs(f64(p) - f64(t))
    return np.mean(np.where(err <= delta, 0.5 * err**2, delta * err - 0.5 * delta**2), -1)


def in_top_k(labels, p, k):
    """Whether each label's score is among the k highest (ties with the k-th count as in)."""
    p = f64(p)
    kth = -np.sort(-p, -1)[..., k - 1]
    return np.take_along_axis(p, labels[..., None], -1)[..., 0] >= kth


# -- weighted means -----------------------------------------------------------------------------
def weighted_mean(values, weights=None):
    """Mean's result: per-sample means of `values`, weighted by per-sample `weights`."""
    values = f64(values)
    per_sample = values.reshape(values.shape[0], -1).mean(-1) if values.ndim > 1 else values
    if weights is None:
        return per_sample.mean()
    return np.sum(per_sample * f64(weights)) / np.sum(weights)


# -- confusion counts ---------------------------------------------------------------------------
def confusion(t, p, thresholds, w=None):
    """(tp, fp, tn, fn) per threshold over every entry, predictions strictly above counting."""
    t, p = np.asarray(t).reshape(-1) != 0, f64(p).reshape(-1)
    w = np.ones_like(p) if w is None else f64(w).reshape(-1)
    above = p[None, :] > np.asarray(thresholds)[:, None]
    return (
        (above * (t * w)).sum(1),
        (above * (~t * w)).sum(1),
        (~above * (~t * w)).sum(1),
        (~above * (t * w)).sum(1),
    )


def per_entry_weights(w, shape):
    """Per-sample weights (batch,) broadcast over every entry of `shape`."""
    w = f64(w)
    return np.broadcast_to(w.reshape(w.shape + (1,) * (len(shape) - w.ndim)), shape)


def ratio(a, b):
    """a / b, 0 where b is 0."""
    a, b = f64(a), f64(b)
    return np.divide(a, b, out=np.zeros(np.broadcast(a, b).shape), where=b != 0)


def confusion_matrix(t, p, num_classes, w=None):
    t, p = np.asarray(t).reshape(-1), np.asarray(p).reshape(-1)
    w = np.ones(t.shape) if w is None else f64(w).reshape(-1)
    cm = np.zeros((num_classes, num_classes))
    keep = (t >= 0) & (t < num_classes)
    np.add.at(cm, (t[keep], p[keep]), w[keep])
    return cm


def mean_iou(cm, targets):
    tp = np.diag(cm)
    union = cm.sum(0) + cm.sum(1) - tp
    tp, union = tp[targets], union[targets]
    return ratio(ratio(tp, union).sum(), (union != 0).sum())
