"""Random ops; `seed` is None, an int or a SeedGenerator."""


def beta(shape, alpha, beta, dtype=None, seed=None):
    """Samples of `shape` from Beta(alpha, beta)."""


def binomial(shape, counts, probabilities, dtype=None, seed=None):
    """Samples of `shape` counting successes in `counts` trials of probability `probabilities`."""


def categorical(logits, num_samples, dtype="int32", seed=None):
    """`num_samples` class indices per row of `logits` (unnormalized log-probabilities)."""


def dropout(inputs, rate, noise_shape=None, seed=None):
    """`inputs` with each entry zeroed with probability `rate`, the rest scaled by 1/(1-rate).

    The scaling keeps the expected value of each entry unchanged, so nothing has to change when
    dropout is turned off at inference (what `tripod.layers.Dropout` does).

    Args:
        inputs: tensor to drop entries from.
        rate: float in `[0, 1]`, the probability of zeroing each entry; 0 returns `inputs`,
            and 1 zeros every entry (as in Keras 3).
        noise_shape: optional tuple, the shape of the random keep-or-drop mask, which is
            broadcast against `inputs`: a 1 where `inputs` has a larger size drops whole slices
            together (`(batch, 1, features)` drops the same features at every time step). A
            None entry takes `inputs`' size. Default None, `inputs`' shape.
        seed: None, an int or a `tripod.random.SeedGenerator`. None draws from the global
            generator (`tripod.utils.set_random_seed` seeds it). An int gives the same numbers
            at every call with it (on a given backend: each framework has its own random
            streams). A `SeedGenerator` gives fresh numbers at each call, reproducibly from its
            own seed.

    Returns:
        A tensor of `inputs`' shape and dtype.

    Raises:
        ValueError: `rate` outside `[0, 1]`.

    Examples:
        >>> x = np.ones((2, 100), "float32")
        >>> y = tripod.ops.convert_to_numpy(tripod.random.dropout(x, 0.5, seed=1))
        >>> np.unique(y).tolist()  # dropped entries are 0, kept ones 1 / (1 - 0.5)
        [0.0, 2.0]
        >>> y = tripod.random.dropout(x, 0.5, noise_shape=(1, 100), seed=1)
        >>> y = tripod.ops.convert_to_numpy(y)
        >>> bool((y[0] == y[1]).all())  # one mask for both rows
        True
    """


def gamma(shape, alpha, dtype=None, seed=None):
    """Samples of `shape` from Gamma(alpha) with unit scale."""


def normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """Samples of `shape` from a normal distribution with `mean` and `stddev`.

    Args:
        shape: tuple of ints (or an int), the shape of the result.
        mean: float, the mean of the distribution; default 0.0. A tensor broadcastable to
            `shape` gives one mean per entry.
        stddev: float, the standard deviation; default 1.0. It may be a tensor, as `mean`.
        dtype: a float dtype; default None, floatx (float32 unless changed).
        seed: None, an int or a `tripod.random.SeedGenerator`. None draws from the global
            generator (`tripod.utils.set_random_seed` seeds it). An int gives the same numbers
            at every call with it (on a given backend: each framework has its own random
            streams). A `SeedGenerator` gives fresh numbers at each call, reproducibly from its
            own seed.

    Returns:
        A tensor of `shape` and `dtype`.

    Raises:
        ValueError: `dtype` is not a float dtype.

    Examples:
        >>> x = tripod.random.normal((2, 3), seed=1)
        >>> tripod.ops.shape(x), tripod.ops.dtype(x)
        ((2, 3), 'float32')
        >>> again = tripod.random.normal((2, 3), seed=1)  # the same int seed, the same numbers
        >>> bool((tripod.ops.convert_to_numpy(x) == tripod.ops.convert_to_numpy(again)).all())
        True
        >>> generator = tripod.random.SeedGenerator(7)
        >>> a = tripod.ops.convert_to_numpy(tripod.random.normal((3,), seed=generator))
        >>> b = tripod.ops.convert_to_numpy(tripod.random.normal((3,), seed=generator))
        >>> bool(np.array_equal(a, b))  # a generator moves on at each draw
        False
    """


def randint(shape, minval, maxval, dtype="int32", seed=None):
    """Integers of `shape` drawn uniformly from [minval, maxval)."""


def shuffle(x, axis=0, seed=None):
    """`x` with its slices along `axis` randomly permuted."""


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """Normal samples of `shape`, redrawn when more than two stddevs from `mean`."""


def uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    """Samples of `shape` drawn uniformly from [minval, maxval).

    Args:
        shape: tuple of ints (or an int), the shape of the result.
        minval: float, the lower bound (included); default 0.0.
        maxval: float, the upper bound (excluded); default 1.0.
        dtype: a float dtype; default None, floatx (float32 unless changed). `randint` draws
            integers.
        seed: None, an int or a `tripod.random.SeedGenerator`. None draws from the global
            generator (`tripod.utils.set_random_seed` seeds it). An int gives the same numbers
            at every call with it (on a given backend: each framework has its own random
            streams). A `SeedGenerator` gives fresh numbers at each call, reproducibly from its
            own seed.

    Returns:
        A tensor of `shape` and `dtype`.

    Raises:
        ValueError: `dtype` is not a float dtype.

    Examples:
        >>> x = tripod.ops.convert_to_numpy(tripod.random.uniform((1000,), -1.0, 1.0, seed=2))
        >>> x.shape, x.dtype
        ((1000,), dtype('float32'))
        >>> bool(x.min() >= -1.0 and x.max() < 1.0)
        True
    """
