"""keras-rs on tripod through `tripod.use_as_keras()`, unchanged: a DCN-style ranking model (its
embedding, feature-cross and dot-interaction layers) trains with a pairwise loss and ranking
metrics, saves and loads back; retrieval top-k. Values are checked against NumPy.

One subprocess per backend and test run (about 8 s; tests/ecosystem/conftest.py).
"""

import importlib.util

import numpy as np
import pytest

from tripod.backends import config

if importlib.util.find_spec("keras_rs") is None:  # not imported here: it imports Keras
    pytest.skip("keras-rs is not installed", allow_module_level=True)
if config.backend() == "numpy":
    pytest.skip("the numpy reference does not train", allow_module_level=True)

_RANKING = """
import json, os, tempfile
import numpy as np, tripod
tripod.use_as_keras()
import keras, keras_rs

rng = np.random.default_rng(0)
n, d, items = 32, 4, 5
x = rng.standard_normal((n, d)).astype("float32")
ids = rng.integers(0, 10, (n,)).astype("int32")
relevant = (rng.random((n, items)) < 0.3).astype("float32")

table = keras_rs.layers.TableConfig(name="t", vocabulary_size=10, embedding_dim=d)
embedding = keras_rs.layers.DistributedEmbedding(
    keras_rs.layers.FeatureConfig(name="f", table=table, input_shape=(n,), output_shape=(n, d))
)
dense_in, id_in = keras.Input((d,)), keras.Input((), dtype="int32")
embedded = embedding(id_in)
x0 = keras.layers.Concatenate()([dense_in, embedded])
cross = keras_rs.layers.FeatureCross()
crossed = cross(x0, x0)
interactions = keras_rs.layers.DotInteraction()([dense_in, embedded])
scores = keras.layers.Dense(items)(keras.layers.Concatenate()([crossed, interactions]))
model = keras.Model([dense_in, id_in], scores)
model.compile(optimizer=keras.optimizers.SGD(0.05), loss=keras_rs.losses.PairwiseHingeLoss(),
              metrics=[keras_rs.metrics.MeanReciprocalRank(), keras_rs.metrics.NDCG(k=3)])
history = model.fit([x, ids], relevant, epochs=3, batch_size=8, shuffle=False, verbose=0)
logs = model.evaluate([x, ids], relevant, batch_size=n, verbose=0, return_dict=True)

pieces = keras.Model([dense_in, id_in], [embedded, x0, crossed])
got_embedded, got_x0, got_crossed = pieces.predict([x, ids], verbose=0)
path = os.path.join(tempfile.mkdtemp(), "ranker.keras")
model.save(path)
reloaded = keras.saving.load_model(path)

candidates = rng.standard_normal((12, d)).astype("float32")
queries = rng.standard_normal((3, d)).astype("float32")
retrieval = keras_rs.layers.BruteForceRetrieval(candidate_embeddings=candidates, k=3)
top = retrieval(queries)
print(json.dumps({
    "history": {k: [float(v) for v in values] for k, values in history.history.items()},
    "logs": {k: float(v) for k, v in logs.items()},
    "table": np.asarray(embedding.get_weights()[0]).tolist(), "embedded": got_embedded.tolist(),
    "x0": got_x0.tolist(), "crossed": got_crossed.tolist(),
    "cross": [np.asarray(w).tolist() for w in cross.get_weights()],
    "scores": model.predict([x, ids], verbose=0).tolist(),
    "reloaded": reloaded.predict([x, ids], verbose=0).tolist(),
    "x": x.tolist(), "ids": ids.tolist(), "relevant": relevant.tolist(),
    "candidates": candidates.tolist(), "queries": queries.tolist(),
    "top": np.asarray(keras.ops.convert_to_numpy(top[1] if isinstance(top, tuple) else top)).tolist(),
}))
"""


@pytest.fixture(scope="module")
def run(script_json):
    found = script_json("keras-rs", _RANKING)
    arrays = {k: np.asarray(v) for k, v in found.items() if isinstance(v, list) and k != "cross"}
    return {**found, **arrays}


def _mean_reciprocal_rank(scores, relevant):
    """The mean over rows of 1 / (rank of the best-scored relevant item), 0 for none."""
    ranks = np.argsort(np.argsort(-scores, axis=1), axis=1) + 1
    best = np.where(relevant > 0, ranks, np.inf).min(axis=1)
    return np.mean(np.where(np.isfinite(best), 1.0 / best, 0.0))


def test_the_ranking_model_trains_with_ranking_metrics_under_their_own_keys(run):
    history = run["history"]
    # both metrics are called "mean" (keras-rs leaves Keras's default name): two log keys
    assert sorted(history) == ["loss", "mean", "mean_1"]
    assert history["loss"][-1] < history["loss"][0]
    expected = _mean_reciprocal_rank(run["scores"], run["relevant"])
    assert run["logs"]["mean"] == pytest.approx(expected, rel=1e-5)


def test_the_layers_compute_their_formulas(run):
    np.testing.assert_allclose(run["embedded"], run["table"][run["ids"]], rtol=1e-6)
    np.testing.assert_allclose(run["x0"][:, :4], run["x"], rtol=1e-6)
    kernel, bias = (np.asarray(w) for w in run["cross"])
    x0 = run["x0"]
    np.testing.assert_allclose(run["crossed"], x0 * (x0 @ kernel + bias) + x0, rtol=1e-4, atol=1e-5)


def test_the_model_saves_and_loads_back(run):
    np.testing.assert_allclose(run["reloaded"], run["scores"], rtol=1e-6)


def test_brute_force_retrieval_finds_the_top_scores(run):
    similarity = run["queries"] @ run["candidates"].T
    np.testing.assert_array_equal(run["top"], np.argsort(-similarity, axis=1)[:, :3])
