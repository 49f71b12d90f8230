"""Shared fixtures: small variables and random gradients on the active backend."""

import numpy as np
import pytest

from tests import accelerator
from tripod.backends import active

ops = active()

SHAPES = [(3, 2), (2,)]


def make_data(steps=4, seed=0):
    """Initial weights and `steps` lists of gradients (float32 NumPy arrays)."""
    rng = np.random.default_rng(seed)
    init = [rng.normal(size=s).astype("float32") for s in SHAPES]
    grads = [[rng.normal(size=s).astype("float32") for s in SHAPES] for _ in range(steps)]
    return init, grads


def make_variables(init, names=("kernel", "bias")):
    return [ops.Variable(w.copy(), name=n, path=f"dense/{n}") for w, n in zip(init, names)]


def run(optimizer, variables, grads):
    """Apply each step's gradients; the weights (NumPy) after every step."""
    trajectory = []
    for step in grads:
        optimizer.apply([ops.convert_to_tensor(g) for g in step], variables)
        trajectory.append([np.asarray(v.numpy()) for v in variables])
    return trajectory


def assert_trajectories_close(actual, expected, atol=1e-5):
    for step, (got, want) in enumerate(zip(actual, expected)):
        for i, (a, e) in enumerate(zip(got, want)):
            np.testing.assert_allclose(
                a,
                e,
                rtol=accelerator.floor(1e-5),
                atol=accelerator.floor(atol),
                err_msg=f"step {step}, variable {i}",
            )


@pytest.fixture
def data():
    return make_data()
