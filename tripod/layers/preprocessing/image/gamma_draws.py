"""Gamma-family draws (log-gamma, beta, Dirichlet) and permutations over `random_draws`.

The same key stream gives the same numbers on every backend. Gamma variates come from
Marsaglia and Tsang's squeeze method with a fixed number of proposal rounds, so the draw has no
data-dependent loop (it traces under jit and in `tf.data`); shapes below 1 use the boost
Gamma(a) = Gamma(a + 1) * U**(1/a). Everything is kept in log space, so tiny shapes (CutMix's
1e-6) give finite results.
"""

from tripod.layers.preprocessing import random_draws

#: proposal rounds: each is accepted with probability above 0.95 (shape >= 1)
_ROUNDS = 10


def permutation(ops, key, size):
    """A random permutation of range(size) (int32; size may be a scalar tensor)."""
    return ops.cast(ops.argsort(random_draws.random_bits(ops, key, (size,))), "int32")


def log_gamma(ops, next_key, shape, alpha):
    """log of Gamma(alpha, 1) variates of `shape`; `alpha` > 0 is a number or scalar tensor;
    `next_key()` gives a fresh key for each of the three independent draws."""
    alpha = ops.convert_to_tensor(alpha, dtype="float32")
    small = ops.less(alpha, 1.0)
    d = ops.subtract(ops.where(small, ops.add(alpha, 1.0), alpha), 1.0 / 3.0)
    c = ops.divide(1.0, ops.sqrt(ops.multiply(d, 9.0)))
    x = random_draws.normal(ops, next_key(), (_ROUNDS,) + tuple(shape))
    u = random_draws.uniform(ops, next_key(), (_ROUNDS,) + tuple(shape))
    v = ops.power(ops.add(ops.multiply(c, x), 1.0), 3.0)
    positive = ops.greater(v, 0.0)
    log_v = ops.log(ops.where(positive, v, 1.0))
    bound = ops.add(
        ops.multiply(0.5, ops.square(x)), ops.multiply(d, ops.add(ops.subtract(1.0, v), log_v))
    )
    accepted = ops.logical_and(positive, ops.less(ops.log(u), bound))
    result = ops.log(ops.broadcast_to(d, tuple(shape)))  # the mode: only if every round fails
    for r in reversed(range(_ROUNDS)):
        result = ops.where(accepted[r], ops.add(ops.log(d), log_v[r]), result)
    boost = ops.log(ops.subtract(1.0, random_draws.uniform(ops, next_key(), shape)))
    return ops.add(result, ops.where(small, ops.divide(boost, alpha), 0.0))


def beta(ops, next_key, shape, alpha, beta_):
    """Beta(alpha, beta_) variates of `shape`: X / (X + Y) for X, Y Gamma variates."""
    return ops.sigmoid(
        ops.subtract(log_gamma(ops, next_key, shape, alpha), log_gamma(ops, next_key, shape, beta_))
    )


def dirichlet(ops, next_key, size, alpha):
    """A Dirichlet(alpha, ..., alpha) vector of `size` weights summing to one."""
    return ops.softmax(log_gamma(ops, next_key, (size,), alpha), axis=-1)
