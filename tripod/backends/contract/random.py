"""Random ops; `seed` is None, an int or a SeedGenerator."""

# ruff: noqa: A001, A002


def beta(shape, alpha, beta, dtype=None, seed=None):
    """DOC"""


def binomial(shape, counts, probabilities, dtype=None, seed=None):
    """DOC"""


def categorical(logits, num_samples, dtype='int32', seed=None):
    """DOC"""


def dropout(inputs, rate, noise_shape=None, seed=None):
    """DOC"""


def gamma(shape, alpha, dtype=None, seed=None):
    """DOC"""


def normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """DOC"""


def randint(shape, minval, maxval, dtype='int32', seed=None):
    """DOC"""


def shuffle(x, axis=0, seed=None):
    """DOC"""


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """DOC"""


def uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    """DOC"""
