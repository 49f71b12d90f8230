"""Small models and file helpers shared by the saving tests."""

import os
import pathlib
import subprocess
import sys

import numpy as np

import tripod
from tripod import layers

ROOT = pathlib.Path(__file__).resolve().parents[2]
#: models written by Keras 3.15 (JAX backend): NAME.keras, NAME.weights.h5, NAME.io.npz
FIXTURES = pathlib.Path(__file__).resolve().parent / "fixtures" / "keras3"


def functional_model(seed=1):
    """Two inputs, a shared trunk with BatchNormalization, a dict of two outputs."""
    tripod.utils.set_random_seed(seed)
    a, b = tripod.Input((4,), name="a"), tripod.Input((3,), name="b")
    x = layers.Concatenate()([a, b])
    x = layers.Dense(8, activation="relu", name="hidden")(x)
    x = layers.BatchNormalization()(x)
    return tripod.Model(
        [a, b], {"cls": layers.Dense(3, name="cls")(x), "reg": layers.Dense(1, name="reg")(x)}
    )


def sequential_model(seed=1):
    tripod.utils.set_random_seed(seed)
    return tripod.Sequential(
        [
            tripod.Input((5,)),
            layers.Dense(6, activation="tanh"),
            layers.Dropout(0.1),
            layers.Dense(2),
        ]
    )


def inputs_for(model, batch=3, seed=0):
    rng = np.random.default_rng(seed)
    shapes = [x.shape for x in model.inputs] if hasattr(model, "inputs") else [model.input_shape]
    xs = [rng.standard_normal((batch,) + tuple(s[1:])).astype("float32") for s in shapes]
    return xs if len(xs) > 1 else xs[0]


def outputs(model, x):
    """The model's outputs on `x` as a flat list of NumPy arrays (dict outputs by sorted key)."""
    y = model.predict(x, verbose=0)
    if isinstance(y, dict):
        return [np.asarray(y[k]) for k in sorted(y)]
    if isinstance(y, (list, tuple)):
        return [np.asarray(v) for v in y]
    return [np.asarray(y)]


def assert_same_outputs(a, b, atol=1e-5):
    assert len(a) == len(b)
    for u, v in zip(a, b):
        np.testing.assert_allclose(u, v, atol=atol, rtol=1e-5)


def perturb(model, seed=3):
    """Give every variable (BatchNormalization statistics included) a distinct random value."""
    rng = np.random.default_rng(seed)
    for v in model.weights:
        value = rng.standard_normal(tuple(v.shape)).astype("float32")
        v.assign(np.abs(value) + 0.5 if "variance" in v.path else value)


def run_python(code, backend, env=None, timeout=600):
    """Run `code` in a fresh interpreter with TRIPOD_BACKEND=`backend`; return stdout."""
    full_env = {**os.environ, "TRIPOD_BACKEND": backend, **(env or {})}
    out = subprocess.run(
        [sys.executable, "-c", code],
        env=full_env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert out.returncode == 0, f"{backend} subprocess failed:\n{out.stdout}\n{out.stderr}"
    return out.stdout
