"""Random ops inside torch.compile: a seeded `torch.Generator` cannot live in a graph, so a trace
hashes each element's index with the key. The draws must stay in the graph, compile once for
every key, and be as uniform and as independent as a generator's."""

import numpy as np
import pytest

import tripod
from tripod import layers, ops, random
from tripod.backends import config

if config.backend() != "torch":
    pytest.skip("torch.compile traces", allow_module_level=True)

import torch  # only once the torch backend is known to be active
from torch._dynamo.utils import counters

SIZE = 200_000


def _compiled(fn):
    """`fn` compiled whole (a graph break is an error), returning NumPy."""
    compiled = torch.compile(lambda *args: ops.convert_to_tensor(fn(*args)), fullgraph=True)
    return lambda *args: ops.convert_to_numpy(compiled(*args))


def test_uniform_draws_in_a_trace_are_uniform_and_new_each_call():
    generator = random.SeedGenerator(3)
    draw = _compiled(lambda: random.uniform((SIZE,), seed=generator))
    first, second = draw(), draw()
    for u in (first, second):
        assert u.min() >= 0.0 and u.max() < 1.0
        assert abs(u.mean() - 0.5) < 0.005 and abs(u.var() - 1 / 12) < 0.002
        counts = np.histogram(u, bins=20, range=(0.0, 1.0))[0] / SIZE
        np.testing.assert_allclose(counts, 0.05, atol=0.003)
        assert abs(np.corrcoef(u[:-1], u[1:])[0, 1]) < 0.01  # neighbours are independent
    assert abs(np.corrcoef(first, second)[0, 1]) < 0.01  # so are successive calls


def test_the_same_seed_gives_the_same_draws_in_a_trace():
    draw = _compiled(lambda generator: random.uniform((64,), seed=generator))
    np.testing.assert_array_equal(draw(random.SeedGenerator(7)), draw(random.SeedGenerator(7)))
    assert not np.array_equal(draw(random.SeedGenerator(7)), draw(random.SeedGenerator(8)))


@pytest.mark.slow  # the fast step test below runs GaussianNoise's normal draws in a trace
def test_normal_draws_in_a_trace_are_standard_normal():
    z = _compiled(lambda: random.normal((SIZE,), mean=1.0, stddev=2.0, seed=5))()
    assert abs(z.mean() - 1.0) < 0.02 and abs(z.std() - 2.0) < 0.02
    # the share within one standard deviation of the mean: 68.27% for a normal distribution
    assert abs(np.mean(np.abs(z - 1.0) < 2.0) - 0.6827) < 0.005


@pytest.mark.slow  # the fast step test below runs Dropout in a trace
def test_dropout_in_a_trace_keeps_the_expected_share_scaled():
    x = torch.full((400, 500), 2.0)
    generator = random.SeedGenerator(1)
    out = _compiled(lambda: random.dropout(x, 0.3, seed=generator))()
    kept = out != 0
    assert abs(kept.mean() - 0.7) < 0.005
    np.testing.assert_allclose(out[kept], 2.0 / 0.7, rtol=1e-6)


def test_a_step_with_random_layers_compiles_once_without_a_graph_break():
    # the generator broke the graph at every dropout, and the frames after it compiled once
    # per key value: past torch.compile's limit they ran eagerly
    rng = np.random.default_rng(0)
    x, y = rng.normal(size=(32, 6)).astype("float32"), rng.normal(size=(32, 1)).astype("float32")
    model = tripod.Sequential(
        [
            tripod.Input((6,)),
            layers.GaussianNoise(0.1),
            layers.Dense(16, activation="relu"),
            layers.Dropout(0.3),
            layers.Dense(1),
        ]
    )
    model.compile(optimizer=tripod.optimizers.SGD(0.01), loss="mse", jit_compile=True)
    breaks = sum(counters["graph_break"].values())
    model.fit(x, y, batch_size=8, epochs=1, verbose=0)
    graphs = counters["stats"]["unique_graphs"]
    history = model.fit(x, y, batch_size=8, epochs=3, verbose=0)
    assert sum(counters["graph_break"].values()) == breaks, dict(counters["graph_break"])
    assert counters["stats"]["unique_graphs"] == graphs
    assert np.all(np.isfinite(history.history["loss"]))
