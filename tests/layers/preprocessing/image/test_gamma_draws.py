"""`gamma_draws`: distributions, and the same numbers on every backend."""

import numpy as np
import pytest

import tripod
from tripod.backends import active, load
from tripod.backends.common.seed import SeedGenerator
from tripod.layers.preprocessing.image import gamma_draws

ops = active()


def _keys(backend=ops, seed=3):
    return SeedGenerator(seed, backend=backend).next


def to_numpy(x):
    return tripod.ops.convert_to_numpy(x) if not isinstance(x, np.ndarray) else x


@pytest.mark.parametrize("alpha", [0.2, 1.0, 3.0])
def test_gamma_and_beta_moments(alpha):
    n = 20000
    gamma = np.exp(to_numpy(gamma_draws.log_gamma(ops, _keys(), (n,), alpha)))
    assert abs(gamma.mean() - alpha) < 0.05 * alpha + 0.01
    assert abs(gamma.var() - alpha) < 0.1 * alpha + 0.01
    beta = to_numpy(gamma_draws.beta(ops, _keys(seed=4), (n,), alpha, alpha))
    assert beta.min() >= 0.0 and beta.max() <= 1.0
    assert abs(beta.mean() - 0.5) < 0.01
    assert abs(beta.var() - 1.0 / (4.0 * (2.0 * alpha + 1.0))) < 0.01


def test_tiny_shapes_stay_finite():
    beta = to_numpy(gamma_draws.beta(ops, _keys(), (1000,), 1e-6, 1e-6))
    assert np.all(np.isfinite(beta)) and set(np.round(beta, 3).tolist()) <= {0.0, 1.0}


def test_dirichlet_and_permutation():
    weights = to_numpy(gamma_draws.dirichlet(ops, _keys(), 5, 1.0))
    assert weights.shape == (5,) and np.all(weights >= 0)
    np.testing.assert_allclose(weights.sum(), 1.0, rtol=1e-6)
    order = to_numpy(gamma_draws.permutation(ops, _keys()(), 9))
    assert sorted(order.tolist()) == list(range(9)) and order.tolist() != list(range(9))


def test_the_same_numbers_as_the_numpy_backend():
    numpy_ops = load("numpy")
    mine = to_numpy(gamma_draws.beta(ops, _keys(), (64,), 0.4, 0.4))
    reference = gamma_draws.beta(numpy_ops, _keys(numpy_ops), (64,), 0.4, 0.4)
    np.testing.assert_allclose(mine, np.asarray(reference), rtol=1e-4, atol=1e-5)
    np.testing.assert_array_equal(
        to_numpy(gamma_draws.permutation(ops, _keys()(), 16)),
        np.asarray(gamma_draws.permutation(numpy_ops, _keys(numpy_ops)(), 16)),
    )
