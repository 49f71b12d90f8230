"""Initializers: values against their definitions, seeds, and identical weights on every backend."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from tripod import initializers
from tripod.backends import config

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_variance_scaling_matches_its_definition():
    shape = (200, 300)
    values = initializers.GlorotUniform(seed=1)(shape)
    limit = np.sqrt(6 / (200 + 300))
    assert values.dtype == np.float32 and values.shape == shape
    assert np.abs(values).max() <= limit and np.abs(values).max() > 0.95 * limit
    he = initializers.HeNormal(seed=2)(shape)
    assert abs(he.std() - np.sqrt(2 / 200)) < 0.01
    assert np.abs(he).max() <= 2 * np.sqrt(2 / 200) / 0.87962566103423978 + 1e-6


def test_conv_kernel_fans_include_the_receptive_field():
    assert initializers.compute_fans((3, 3, 4, 8)) == (36, 72)
    assert initializers.compute_fans((5,)) == (5, 5)


def test_orthogonal_identity_constant():
    q = initializers.Orthogonal(seed=0)((4, 4))
    np.testing.assert_allclose(q @ q.T, np.eye(4), atol=1e-5)
    np.testing.assert_array_equal(initializers.Identity(gain=2.0)((2, 3)), 2 * np.eye(2, 3))
    np.testing.assert_array_equal(initializers.Constant(3)((2,), dtype="int32"), [3, 3])


def test_same_seed_same_values_and_unseeded_differs():
    a = initializers.RandomNormal(seed=7)((3,))
    np.testing.assert_array_equal(a, initializers.RandomNormal(seed=7)((3,)))
    unseeded = initializers.RandomNormal()
    assert not np.array_equal(unseeded((3,)), unseeded((3,)))


def test_get_and_serialize():
    assert isinstance(initializers.get("glorot_uniform"), initializers.GlorotUniform)
    assert isinstance(initializers.get("Zeros"), initializers.Zeros)
    config = initializers.serialize(initializers.TruncatedNormal(stddev=0.2, seed=3))
    clone = initializers.deserialize(config)
    assert isinstance(clone, initializers.TruncatedNormal) and clone.stddev == 0.2
    with pytest.raises(ValueError, match="Unknown initializer"):
        initializers.get("no_such_initializer")


_BUILD = """
import json, numpy as np, tripod
from tripod import layers
from tripod.training.session import set_random_seed
set_random_seed(123)
model = tripod.Sequential([tripod.Input((4,)), layers.Dense(3), layers.Dense(2, kernel_initializer="he_normal")])
print(json.dumps([w.tolist() for w in model.get_weights()]))
"""


@pytest.mark.skipif(
    config.backend() != "numpy", reason="runs every backend itself: once, in the numpy run"
)
def test_same_seed_gives_identical_weights_on_every_backend():
    results = {}
    for backend in ("numpy", "jax", "torch", "tensorflow"):
        env = {**os.environ, "TRIPOD_BACKEND": backend}
        out = subprocess.run(
            [sys.executable, "-c", _BUILD],
            env=env,
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
        assert out.returncode == 0, out.stderr
        results[backend] = json.loads(out.stdout.strip().splitlines()[-1])
    reference = results.pop("numpy")
    for backend, weights in results.items():
        for got, want in zip(weights, reference):
            np.testing.assert_array_equal(np.array(got), np.array(want), err_msg=backend)
