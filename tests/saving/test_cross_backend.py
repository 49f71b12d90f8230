"""Save on each of jax, torch and tensorflow, load on each other (all 6 ordered pairs):
predictions agree within 1e-5, and training continues as if it had never stopped."""

import json

import pytest

from tests.saving.helpers import run_python
from tripod.backends import config

BACKENDS = ("jax", "torch", "tensorflow")

_COMMON = """
import json, sys, numpy as np, tripod
from tripod import layers
folder = sys.argv[1] if len(sys.argv) > 1 else FOLDER
rng = np.random.default_rng(0)
x = [rng.standard_normal((32, 4)).astype("float32"), rng.standard_normal((32, 3)).astype("float32")]
y = {"cls": rng.standard_normal((32, 3)).astype("float32"), "reg": rng.standard_normal((32, 1)).astype("float32")}

def flat(out):
    return [np.asarray(out[k]) for k in sorted(out)]

def relative_error(actual, expected):
    # the error relative to 1 + |expected|: within tol means atol = rtol = tol
    return float(np.max(np.abs(actual - expected) / (1 + np.abs(expected))))

def continue_training(model):
    model.fit(x, y, batch_size=8, epochs=1, shuffle=False, verbose=0)
    return [np.asarray(w.numpy()) for w in model.weights]
"""

_SAVE = (
    _COMMON
    + """
tripod.utils.set_random_seed(4)
a, b = tripod.Input((4,), name="a"), tripod.Input((3,), name="b")
h = layers.Dense(8, activation="relu", name="hidden")(layers.Concatenate()([a, b]))
h = layers.BatchNormalization()(h)
model = tripod.Model([a, b], {"cls": layers.Dense(3, name="cls")(h), "reg": layers.Dense(1, name="reg")(h)})
model.compile(optimizer=tripod.optimizers.Adam(0.01), loss="mse")
model.fit(x, y, batch_size=8, epochs=2, shuffle=False, verbose=0)
backend = tripod.config.backend()
model.save(f"{folder}/{backend}.keras")
predictions = flat(model.predict(x, verbose=0))
after = continue_training(model)
np.savez(f"{folder}/{backend}.npz", *(predictions + after))
print(json.dumps([len(predictions), len(after)]))
"""
)

_LOAD = (
    _COMMON
    + """
backend = tripod.config.backend()
report = {}
for source in SOURCES:
    model = tripod.saving.load_model(f"{folder}/{source}.keras")
    saved = np.load(f"{folder}/{source}.npz", allow_pickle=False)
    arrays = [saved[f"arr_{i}"] for i in range(len(saved.files))]
    predictions = flat(model.predict(x, verbose=0))
    n = len(predictions)
    iterations = int(np.asarray(model.optimizer.iterations.numpy()))
    after = continue_training(model)
    report[source] = {
        "predict": max(relative_error(p, q) for p, q in zip(predictions, arrays[:n])),
        "iterations": iterations,
        "train": max(relative_error(p, q) for p, q in zip(after, arrays[n:])),
        "count": [len(after), len(arrays) - n],
    }
print(json.dumps(report))
"""
)


@pytest.mark.skipif(
    config.backend() != "jax", reason="the 6-pair matrix runs once, in subprocesses"
)
def test_six_ordered_pairs(tmp_path):
    for backend in BACKENDS:
        run_python(_SAVE.replace("FOLDER", repr(str(tmp_path))), backend)
    for backend in BACKENDS:
        sources = [b for b in BACKENDS if b != backend]
        code = _LOAD.replace("FOLDER", repr(str(tmp_path))).replace("SOURCES", repr(sources))
        report = json.loads(run_python(code, backend).strip().splitlines()[-1])
        for source, result in report.items():
            pair = f"saved on {source}, loaded on {backend}"
            assert result["predict"] <= 1e-5, (pair, result)
            assert result["iterations"] == 8, (pair, result)  # 2 epochs x 4 batches
            assert result["count"][0] == result["count"][1], (pair, result)
            assert result["train"] <= 1e-4, (pair, result)
