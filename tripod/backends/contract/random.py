"""Random ops; `seed` is None, an int or a SeedGenerator."""


def beta(shape, alpha, beta, dtype=None, seed=None):
    """Samples of `shape` from Beta(alpha, beta)."""


def binomial(shape, counts, probabilities, dtype=None, seed=None):
    """Samples of `shape` counting successes in `counts` trials of probability `probabilities`."""


def categorical(logits, num_samples, dtype="int32", seed=None):
    """`num_samples` class indices per row of `logits` (unnormalized log-probabilities)."""


def dropout(inputs, rate, noise_shape=None, seed=None):
    """`inputs` with each entry zeroed with probability `rate`, the rest scaled by 1/(1-rate)."""


def gamma(shape, alpha, dtype=None, seed=None):
    """Samples of `shape` from Gamma(alpha) with unit scale."""


def normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """Samples of `shape` from a normal distribution with `mean` and `stddev`."""


def randint(shape, minval, maxval, dtype="int32", seed=None):
    """Integers of `shape` drawn uniformly from [minval, maxval)."""


def shuffle(x, axis=0, seed=None):
    """`x` with its slices along `axis` randomly permuted."""


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """Normal samples of `shape`, redrawn when more than two stddevs from `mean`."""


def uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    """Samples of `shape` drawn uniformly from [minval, maxval)."""
