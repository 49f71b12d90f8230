"""Files tripod writes load in Keras 3 (run in a subprocess with KERAS_BACKEND=jax), and a Keras
file with a custom layer structure loads in tripod; skipped where keras is not installed."""

import importlib.util
import json

import numpy as np
import pytest

import tripod
from tests.saving.helpers import functional_model, inputs_for, outputs, perturb, run_python
from tripod import layers
from tripod.saving import registry

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("keras") is None or importlib.util.find_spec("jax") is None,
    reason="Keras 3 (with JAX) is not installed",
)

_KERAS = """
import json, sys, numpy as np, keras
folder = FOLDER
report = {}
for name in NAMES:
    data = np.load(f"{folder}/{name}.npz", allow_pickle=False)
    xs = [data[k] for k in sorted((k for k in data.files if k.startswith("x")), key=lambda k: int(k[1:]))]
    ys = [data[k] for k in sorted((k for k in data.files if k.startswith("y")), key=lambda k: int(k[1:]))]
    x = xs if len(xs) > 1 else xs[0]

    def diff(model):
        # the error relative to 1 + |expected|: within 1e-5 means atol = rtol = 1e-5
        out = model.predict(x, verbose=0)
        out = [out[k] for k in sorted(out)] if isinstance(out, dict) else (list(out) if isinstance(out, (list, tuple)) else [out])
        return max(float(np.max(np.abs(np.asarray(o) - y) / (1 + np.abs(y)))) for o, y in zip(out, ys))

    model = keras.saving.load_model(f"{folder}/{name}.keras")
    fresh = keras.saving.load_model(f"{folder}/{name}.keras", compile=False)
    for v in fresh.weights:
        v.assign(np.zeros(v.shape, v.dtype))
    fresh.load_weights(f"{folder}/{name}.weights.h5")
    legacy_h5 = keras.saving.load_model(f"{folder}/{name}.h5")
    report[name] = {
        "archive": diff(model), "weights": diff(fresh), "h5": diff(legacy_h5),
        "iterations": int(model.optimizer.iterations.numpy()) if model.optimizer is not None else None,
        "h5_iterations": int(legacy_h5.optimizer.iterations.numpy()) if legacy_h5.optimizer is not None else None,
    }

class Sub(keras.Model):
    def __init__(self):
        super().__init__()
        self.zeta = keras.layers.Dense(2)
        self._hidden = keras.layers.Dense(3)
        self.blocks = [keras.layers.Dense(4), keras.layers.Dense(4)]
        self.d = {"b": keras.layers.Dense(5), "a": keras.layers.Dense(5)}

    def call(self, x):
        x = self._hidden(x)
        for block in self.blocks:
            x = block(x)
        return self.zeta(self.d["a"](self.d["b"](x)))

sub = Sub()
x = np.random.default_rng(0).standard_normal((2, 3)).astype("float32")
y = sub(x)
for v in sub.weights:
    v.assign(np.random.default_rng(len(v.path)).standard_normal(v.shape).astype("float32"))
sub.save_weights(f"{folder}/sub.weights.h5")
np.savez(f"{folder}/sub.npz", x=x, y=np.asarray(sub(x)))

i = keras.Input((4, 6))
y = keras.layers.MultiHeadAttention(2, 3)(i, i)
y = keras.layers.Bidirectional(keras.layers.LSTM(3))(y)
nested = keras.Model(i, y)
for v in nested.weights:
    v.assign(np.random.default_rng(len(v.path)).standard_normal(v.shape).astype("float32") * 0.3)
xn = np.random.default_rng(3).standard_normal((2, 4, 6)).astype("float32")
nested.save_weights(f"{folder}/nested.weights.h5")
np.savez(f"{folder}/nested.npz", x=xn, y=np.asarray(nested.predict(xn, verbose=0)))

a, b = keras.Input((4,), name="a"), keras.Input((3,), name="b")
h = keras.layers.BatchNormalization()(keras.layers.Dense(5, activation="relu")(keras.layers.Concatenate()([a, b])))
legacy = keras.Model([a, b], keras.layers.Dense(2)(h))
legacy.compile(keras.optimizers.Adam(0.003), "mse")
for v in legacy.weights:
    v.assign(np.abs(np.random.default_rng(len(v.path)).standard_normal(v.shape)).astype("float32") + 0.1)
xa, xb = np.ones((2, 4), "float32"), np.full((2, 3), -0.5, "float32")
legacy.save(f"{folder}/legacy.h5")
np.savez(f"{folder}/legacy.npz", xa=xa, xb=xb, y=np.asarray(legacy.predict([xa, xb], verbose=0)))
print(json.dumps(report))
"""


def _has(*class_names):
    return all(registry.resolve("keras.layers", c) is not None for c in class_names)


def _models():
    models = {"functional": functional_model()}
    tripod.utils.set_random_seed(2)
    models["cnn"] = tripod.Sequential(
        [
            tripod.Input((8, 8, 2)),
            layers.Conv2D(4, 3, padding="same"),
            layers.BatchNormalization(),
            layers.Activation("relu"),
            layers.MaxPooling2D(),
            layers.Conv2D(3, 3),
            layers.GlobalAveragePooling2D(),
            layers.Dense(2, activation="softmax"),
        ]
    )
    if _has("LSTM", "Embedding"):
        models["lstm"] = tripod.Sequential(
            [
                tripod.Input((6,), dtype="int32"),
                layers.Embedding(12, 4, mask_zero=True),
                layers.LSTM(5),
                layers.Dense(1),
            ]
        )
    return models


def _inputs(name, model):
    if name == "lstm":
        x = np.random.default_rng(1).integers(0, 12, (3, 6)).astype("int32")
        x[:, -2:] = 0
        return x
    return inputs_for(model)


class _TripodSub(tripod.Model):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.zeta = layers.Dense(2)
        self._hidden = layers.Dense(3)
        self.blocks = [layers.Dense(4), layers.Dense(4)]
        self.d = {"b": layers.Dense(5), "a": layers.Dense(5)}

    def call(self, x):
        x = self._hidden(x)
        for block in self.blocks:
            x = block(x)
        return self.zeta(self.d["a"](self.d["b"](x)))


@pytest.fixture(scope="module")
def keras_report(tmp_path_factory):
    folder = tmp_path_factory.mktemp("interop")
    for name, model in _models().items():
        model.compile(optimizer=tripod.optimizers.Adam(0.005), loss="mse")
        model.optimizer.build(model.trainable_variables)
        model.optimizer.iterations.assign(7)
        perturb(model)
        x = _inputs(name, model)
        xs = x if isinstance(x, list) else [x]
        ys = outputs(model, x)
        np.savez(
            folder / f"{name}.npz",
            **{f"x{i}": v for i, v in enumerate(xs)},
            **{f"y{i}": v for i, v in enumerate(ys)},
        )
        model.save(folder / f"{name}.keras")
        model.save_weights(folder / f"{name}.weights.h5")
        # Keras 3.15 cannot compile a legacy .h5 whose loss is a string ("mse"), even one it
        # wrote itself: the .h5 copy names the loss by object. Same optimizer, state kept.
        model.compile(optimizer=model.optimizer, loss=tripod.losses.MeanSquaredError())
        with pytest.warns(UserWarning, match="legacy HDF5"):
            model.save(folder / f"{name}.h5")
    names = sorted(_models())
    code = _KERAS.replace("FOLDER", repr(str(folder))).replace("NAMES", repr(names))
    stdout = run_python(code, "jax", env={"KERAS_BACKEND": "jax"})
    return folder, json.loads(stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("name", ["functional", "cnn", "lstm"])
def test_tripod_files_load_in_keras(keras_report, name):
    _, report = keras_report
    if name not in report:
        pytest.skip(f"tripod lacks a layer the {name} model uses")
    result = report[name]
    assert result["archive"] <= 1e-5, result
    assert result["weights"] <= 1e-5, result
    assert result["iterations"] == 7, result


@pytest.mark.parametrize("name", ["functional", "cnn", "lstm"])
def test_tripod_legacy_h5_loads_in_keras(keras_report, name):
    _, report = keras_report
    if name not in report:
        pytest.skip(f"tripod lacks a layer the {name} model uses")
    assert report[name]["h5"] <= 1e-5, report[name]
    assert report[name]["h5_iterations"] == 7, report[name]


def test_keras_subclassed_layout_loads_in_tripod(keras_report):
    folder, _ = keras_report
    data = np.load(folder / "sub.npz", allow_pickle=False)
    model = _TripodSub()
    model(data["x"])
    model.load_weights(folder / "sub.weights.h5")
    np.testing.assert_allclose(
        tripod.ops.convert_to_numpy(model(data["x"])), data["y"], rtol=1e-5, atol=1e-5
    )


def test_keras3_legacy_h5_loads_in_tripod(keras_report):
    folder, _ = keras_report
    data = np.load(folder / "legacy.npz", allow_pickle=False)
    model = tripod.saving.load_model(folder / "legacy.h5")
    np.testing.assert_allclose(
        np.asarray(model.predict([data["xa"], data["xb"]], verbose=0)),
        data["y"],
        rtol=1e-5,
        atol=1e-5,
    )
    assert model.compiled and float(model.optimizer.learning_rate.numpy()) == pytest.approx(0.003)


def test_keras_nested_layers_load_in_tripod(keras_report):
    if not _has("MultiHeadAttention", "Bidirectional", "LSTM"):
        pytest.skip("tripod lacks MultiHeadAttention, Bidirectional or LSTM")
    folder, _ = keras_report
    data = np.load(folder / "nested.npz", allow_pickle=False)
    i = tripod.Input((4, 6))
    y = layers.MultiHeadAttention(2, 3)(i, i)
    model = tripod.Model(i, layers.Bidirectional(layers.LSTM(3))(y))
    model.load_weights(folder / "nested.weights.h5")
    np.testing.assert_allclose(
        np.asarray(model.predict(data["x"], verbose=0)), data["y"], rtol=1e-5, atol=1e-5
    )
