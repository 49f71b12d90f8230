"""The measurements behind docs/parity.md: per layer, and after N training steps.

Per layer: a zoo of built-in layers, each fed straight from the inputs (so each output is that
layer alone), checked on every installed backend against numpy with tripod's float32 tolerance
(atol=1e-5, rtol=1e-5). Training: an MLP and a small CNN trained with Adam on each training
backend from the same seed; losses and weights must agree within the same tolerance after 5, 20
and 100 full-batch steps. `python -m tests.testing.test_tolerances` prints the measured numbers.
Runs once, in the numpy run of the matrix: every backend runs in its own subprocess.
"""

import concurrent.futures
import itertools
import json
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import tripod
from tripod import layers
from tripod.backends import config
from tripod.testing import check_backend_parity, installed_backends

pytestmark = pytest.mark.skipif(
    config.backend() != "numpy", reason="runs every backend itself: once, in the numpy run"
)

ROOT = pathlib.Path(__file__).resolve().parents[2]
ATOL = RTOL = 1e-5
STEPS = (5, 20, 100)
#: slowest to start first, so the pool of two finishes sooner
TRAINING_BACKENDS = [b for b in reversed(installed_backends()) if b != "numpy"]


def layer_zoo():
    """(model, inputs): one output per layer, each layer applied directly to an input."""
    tripod.utils.set_random_seed(11)
    img = tripod.Input((8, 8, 3), name="img")
    seq = tripod.Input((6, 4), name="seq")
    tok = tripod.Input((6,), dtype="int32", name="tok")
    on_img = [
        layers.Conv2D(4, 3, padding="same", name="conv2d"),
        layers.Conv2DTranspose(3, 3, strides=2, name="conv2d_transpose"),
        layers.DepthwiseConv2D(3, depth_multiplier=2, name="depthwise_conv2d"),
        layers.SeparableConv2D(4, 3, name="separable_conv2d"),
        layers.MaxPooling2D(name="max_pooling2d"),
        layers.AveragePooling2D(2, name="average_pooling2d"),
        layers.BatchNormalization(name="batch_normalization"),
        layers.GroupNormalization(groups=3, name="group_normalization"),
        layers.Resizing(5, 7, name="resizing"),
    ]
    on_seq = [
        layers.Dense(5, activation="gelu", name="dense"),
        layers.EinsumDense("abc,cd->abd", (6, 5), name="einsum_dense"),
        layers.Conv1D(4, 3, dilation_rate=2, name="conv1d"),
        layers.Conv1DTranspose(3, 3, strides=2, name="conv1d_transpose"),
        layers.LayerNormalization(name="layer_normalization"),
        layers.SimpleRNN(5, return_sequences=True, name="simple_rnn"),
        layers.LSTM(5, return_sequences=True, name="lstm"),
        layers.GRU(5, return_sequences=True, name="gru"),
        layers.Bidirectional(layers.LSTM(3), name="bidirectional_lstm"),
    ]
    outputs = [layer(img) for layer in on_img] + [layer(seq) for layer in on_seq]
    outputs.append(layers.MultiHeadAttention(2, 4, name="multi_head_attention")(seq, seq))
    outputs.append(layers.Embedding(20, 4, name="embedding")(tok))
    model = tripod.Model([img, seq, tok], outputs)
    rng = np.random.default_rng(5)
    # Non-trivial BatchNormalization statistics: gamma, beta, moving mean, moving variance.
    gamma, beta = rng.uniform(0.5, 1.5, 3), rng.standard_normal(3)
    mean, variance = rng.standard_normal(3), rng.uniform(0.5, 2, 3)
    model.get_layer("batch_normalization").set_weights([gamma, beta, mean, variance])
    inputs = {
        "img": rng.standard_normal((2, 8, 8, 3)).astype("float32"),
        "seq": rng.standard_normal((2, 6, 4)).astype("float32"),
        "tok": rng.integers(0, 20, (2, 6)).astype("int32"),
    }
    return model, inputs


def train_on(backend):
    """Losses and weights of tests/testing/training_run.py on `backend` after each of STEPS."""
    command = [sys.executable, "-m", "tests.testing.training_run", *map(str, STEPS)]
    env = {**os.environ, "TRIPOD_BACKEND": backend}
    out = subprocess.run(
        command, env=env, cwd=ROOT, capture_output=True, text=True, timeout=600, check=False
    )
    assert out.returncode == 0, f"{backend}:\n{out.stderr}"
    return json.loads(out.stdout.splitlines()[-1])


def _pair_differences(a, b):
    """[loss max rel diff, weight max abs diff, weight max rel diff, within tolerance] of two
    runs' losses (up to the steps) and weights (after them)."""
    (la, wa), (lb, wb) = a, b
    la, lb = np.array(la), np.array(lb)
    diffs = [np.abs(np.array(p) - q) for p, q in zip(wa, wb)]
    agree = np.allclose(la, lb, rtol=RTOL, atol=0) and all(
        np.allclose(p, q, atol=ATOL, rtol=RTOL) for p, q in zip(wa, wb)
    )
    return [
        float(np.max(np.abs(la - lb) / np.abs(lb))),
        max(float(d.max()) for d in diffs),
        max(float((d / np.abs(q))[np.array(q) != 0].max(initial=0)) for d, q in zip(diffs, wb)),
        agree,
    ]


def training_differences():
    """{(model, steps): [loss max rel diff, weight max abs diff, weight max rel diff, agree]},
    the worst over every pair of training backends."""
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        runs = dict(zip(TRAINING_BACKENDS, pool.map(train_on, TRAINING_BACKENDS)))
    found = {}
    for (a, b), model, steps in itertools.product(
        itertools.combinations(runs, 2), ("mlp", "cnn"), STEPS
    ):
        pair = [
            (runs[x][model]["losses"][:steps], runs[x][model]["weights"][str(steps)])
            for x in (a, b)
        ]
        row = _pair_differences(*pair)
        old = found.get((model, steps), [0.0, 0.0, 0.0, True])
        found[(model, steps)] = [max(x, y) for x, y in zip(old[:3], row[:3])] + [old[3] and row[3]]
    return found


@pytest.mark.skipif(len(installed_backends()) < 2, reason="needs two backends")
def test_every_layer_of_the_zoo_agrees_within_float32_tolerance():
    model, inputs = layer_zoo()
    report = check_backend_parity(model, inputs, atol=ATOL, rtol=RTOL)
    report.raise_for_violations()
    names = [layer.name for layer in model.layers if not isinstance(layer, layers.InputLayer)]
    for backend in report.backends[1:]:
        assert sorted(c.name for c in report.comparisons if c.backend == backend) == sorted(names)


@pytest.mark.skipif(len(TRAINING_BACKENDS) < 2, reason="needs two backends that train")
def test_training_agrees_within_float32_tolerance_after_5_20_and_100_steps():
    found = training_differences()
    assert sorted(found) == sorted(itertools.product(("cnn", "mlp"), STEPS))
    assert all(row[3] for row in found.values()), found


def main():
    """Print the measured numbers that docs/parity.md quotes."""
    model, inputs = layer_zoo()
    print(check_backend_parity(model, inputs, atol=ATOL, rtol=RTOL))
    print("\n| model | steps | loss max rel diff | weights max abs diff | weights max rel diff |")
    print("|---|---|---|---|---|")
    for (model, steps), (loss, weight_abs, weight_rel, _) in training_differences().items():
        print(f"| {model} | {steps} | {loss:.2g} | {weight_abs:.2g} | {weight_rel:.2g} |")


if __name__ == "__main__":
    main()
