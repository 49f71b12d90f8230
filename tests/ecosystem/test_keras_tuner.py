"""KerasTuner searches on tripod through `tripod.use_as_keras()`, unchanged: a random search
over a model-building function, then the best model and hyperparameters back."""

import importlib.util
import json

import pytest

from tests.saving.helpers import run_python
from tripod.backends import config

if importlib.util.find_spec("keras_tuner") is None:  # not imported here: it imports Keras
    pytest.skip("keras-tuner is not installed", allow_module_level=True)
if config.backend() == "numpy":
    pytest.skip("the numpy reference does not train", allow_module_level=True)

_SEARCH = """
import json, tempfile
import numpy as np, tripod
tripod.use_as_keras()
import keras, keras_tuner

def build(hp):
    model = keras.Sequential([
        keras.Input((4,)),
        keras.layers.Dense(hp.Int("units", 4, 16, step=4), activation="relu"),
        keras.layers.Dense(1),
    ])
    model.compile(optimizer=keras.optimizers.Adam(hp.Choice("lr", [1e-2, 1e-3])), loss="mse")
    return model

rng = np.random.default_rng(0)
x = rng.normal(size=(64, 4)).astype("float32")
y = x.sum(axis=1, keepdims=True)
tuner = keras_tuner.RandomSearch(build, objective="val_loss", max_trials=3, seed=1,
                                 directory=tempfile.mkdtemp(), project_name="search")
tuner.search(x, y, epochs=2, validation_split=0.25, verbose=0)
best = tuner.get_best_models(1)[0]
trials = tuner.oracle.get_best_trials(3)
print(json.dumps({
    "trials": len(trials),
    "best": tuner.get_best_hyperparameters(1)[0].values,
    "scores": [t.score for t in trials],
    "best_is_tripod": isinstance(best, tripod.Model),
    "best_loss": float(best.evaluate(x[48:], y[48:], verbose=0)),
}))
"""


def test_random_search_finds_and_rebuilds_the_best_model():
    found = json.loads(run_python(_SEARCH, config.backend()).strip().splitlines()[-1])
    assert found["trials"] == 3 and found["best_is_tripod"]
    assert found["best"]["units"] in (4, 8, 12, 16) and found["best"]["lr"] in (1e-2, 1e-3)
    assert found["scores"] == sorted(found["scores"])  # best first
    # the best model's weights come back from its checkpoint: its loss on the validation rows
    # is the best trial's score (validation_split takes the last quarter)
    assert found["best_loss"] == pytest.approx(found["scores"][0], rel=1e-4)
