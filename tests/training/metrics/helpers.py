"""Data and assertions shared by the metric tests."""

import numpy as np

BATCH, CLASSES, UPDATES = 6, 4, 3


def assert_close(actual, expected, atol=1e-5, rtol=1e-5):
    np.testing.assert_allclose(np.asarray(actual, dtype="float64"), expected, atol=atol, rtol=rtol)


def batches(kind, seed=0, updates=UPDATES, n=BATCH, c=CLASSES):
    """`updates` batches (y_true, y_pred, per-sample weights) of one kind of problem."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(updates):
        probs = rng.random((n, c)).astype("float32")
        if kind == "binary":  # one probability per sample, as (batch, 1)
            yt, yp = (rng.random((n, 1)) > 0.5).astype("float32"), probs[:, :1]
        elif kind == "multilabel":
            yt, yp = (rng.random((n, c)) > 0.5).astype("float32"), probs
        elif kind == "onehot":
            yt, yp = (
                np.eye(c, dtype="float32")[rng.integers(0, c, n)],
                probs / probs.sum(-1, keepdims=True),
            )
        elif kind == "sparse":
            yt, yp = rng.integers(0, c, n).astype("int32"), probs / probs.sum(-1, keepdims=True)
        elif kind == "regression":
            yt, yp = (
                rng.random((n, c)).astype("float32") * 2,
                rng.random((n, c)).astype("float32") * 2,
            )
        elif kind == "signs":
            yt, yp = (
                rng.choice([-1.0, 1.0], (n, c)).astype("float32"),
                rng.normal(size=(n, c)).astype("float32"),
            )
        elif kind == "classes":
            yt, yp = (
                rng.integers(0, c, (n, 3)).astype("int32"),
                rng.integers(0, c, (n, 3)).astype("int32"),
            )
        else:
            raise ValueError(kind)
        out.append((yt, yp, rng.random(n).astype("float32")))
    return out


def joined(data):
    """The batches concatenated: (y_true, y_pred, weights)."""
    return tuple(np.concatenate([batch[i] for batch in data]) for i in range(3))


def feed(metric, data, weighted):
    """Update `metric` with every batch, with or without the sample weights."""
    for yt, yp, sw in data:
        metric.update_state(yt, yp, sample_weight=sw if weighted else None)
    return metric.result()
