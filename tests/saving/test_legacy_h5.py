"""Legacy Keras 2 `.h5` files (`model_config` + `model_weights`) load, for the layers that exist."""

import json

import h5py
import numpy as np
import pytest

import tripod
from tripod import saving


def _dense(name, units, activation="linear", **extra):
    return {
        "class_name": "Dense",
        "config": {
            "name": name,
            "trainable": True,
            "dtype": "float32",
            "units": units,
            "activation": activation,
            "use_bias": True,
            "kernel_initializer": {"class_name": "GlorotUniform", "config": {"seed": None}},
            "bias_initializer": {"class_name": "Zeros", "config": {}},
            "kernel_regularizer": None,
            "bias_regularizer": None,
            "activity_regularizer": None,
            "kernel_constraint": None,
            "bias_constraint": None,
            **extra,
        },
    }


def _write(path, config, weights, training_config=None, weights_only=False):
    """A Keras 2-style file: `weights` maps layer name -> [(weight name, array)]."""
    with h5py.File(path, "w") as f:
        if not weights_only:
            f.attrs["model_config"] = json.dumps(config)
            f.attrs["keras_version"] = "2.13.1"
            f.attrs["backend"] = "tensorflow"
            if training_config:
                f.attrs["training_config"] = json.dumps(training_config)
        group = f if weights_only else f.create_group("model_weights")
        group.attrs["layer_names"] = np.array([n.encode() for n in weights], dtype="S")
        for layer, values in weights.items():
            layer_group = group.create_group(layer)
            layer_group.attrs["weight_names"] = np.array(
                [f"{layer}/{n}:0".encode() for n, _ in values], dtype="S"
            )
            for n, value in values:
                layer_group[f"{layer}/{n}:0"] = value


def _sequential(tmp_path):
    rng = np.random.default_rng(0)
    weights = {
        "dense": [
            ("kernel", rng.standard_normal((4, 6)).astype("float32")),
            ("bias", rng.standard_normal(6).astype("float32")),
        ],
        "dropout": [],
        "batch_normalization": [
            (n, (rng.random(6) + 0.5).astype("float32"))
            for n in ("gamma", "beta", "moving_mean", "moving_variance")
        ],
        "dense_1": [
            ("kernel", rng.standard_normal((6, 2)).astype("float32")),
            ("bias", rng.standard_normal(2).astype("float32")),
        ],
    }
    config = {
        "class_name": "Sequential",
        "config": {
            "name": "sequential",
            "layers": [
                {
                    "class_name": "InputLayer",
                    "config": {
                        "batch_input_shape": [None, 4],
                        "dtype": "float32",
                        "sparse": False,
                        "ragged": False,
                        "name": "dense_input",
                    },
                },
                _dense("dense", 6, "relu"),
                {
                    "class_name": "Dropout",
                    "config": {
                        "name": "dropout",
                        "trainable": True,
                        "dtype": "float32",
                        "rate": 0.5,
                        "noise_shape": None,
                        "seed": None,
                    },
                },
                {
                    "class_name": "BatchNormalization",
                    "config": {
                        "name": "batch_normalization",
                        "trainable": True,
                        "dtype": "float32",
                        "axis": [1],
                        "momentum": 0.99,
                        "epsilon": 0.001,
                        "center": True,
                        "scale": True,
                        "beta_initializer": {"class_name": "Zeros", "config": {}},
                        "gamma_initializer": {"class_name": "Ones", "config": {}},
                        "moving_mean_initializer": {"class_name": "Zeros", "config": {}},
                        "moving_variance_initializer": {"class_name": "Ones", "config": {}},
                        "beta_regularizer": None,
                        "gamma_regularizer": None,
                        "beta_constraint": None,
                        "gamma_constraint": None,
                    },
                },
                _dense("dense_1", 2),
            ],
        },
    }
    training = {
        "loss": "mse",
        "metrics": None,
        "weighted_metrics": None,
        "loss_weights": None,
        "optimizer_config": {
            "class_name": "Adam",
            "config": {
                "name": "Adam",
                "learning_rate": 0.002,
                "decay": 0.0,
                "beta_1": 0.9,
                "beta_2": 0.999,
                "epsilon": 1e-07,
                "amsgrad": False,
                "is_legacy_optimizer": False,
            },
        },
    }
    _write(tmp_path / "seq.h5", config, weights, training)
    return weights


def _expected_sequential(weights, x):
    (k0, b0), (g, beta, mean, var), (k1, b1) = (
        [v for _, v in weights[n]] for n in ("dense", "batch_normalization", "dense_1")
    )
    h = np.maximum(x @ k0 + b0, 0)
    h = (h - mean) / np.sqrt(var + 1e-3) * g + beta
    return h @ k1 + b1


def test_keras2_sequential(tmp_path):
    weights = _sequential(tmp_path)
    with pytest.warns(UserWarning, match="ignoring arguments"):  # Keras 2 Adam's `decay`, ...
        model = saving.load_model(tmp_path / "seq.h5")
    x = np.random.default_rng(1).standard_normal((3, 4)).astype("float32")
    np.testing.assert_allclose(
        np.asarray(model.predict(x, verbose=0)),
        _expected_sequential(weights, x),
        rtol=1e-5,
        atol=1e-5,
    )
    assert model.compiled and float(model.optimizer.learning_rate.numpy()) == pytest.approx(0.002)


def test_keras2_weights_only_file(tmp_path):
    weights = _sequential(tmp_path)
    _write(tmp_path / "w.h5", None, weights, weights_only=True)
    model = saving.load_model(tmp_path / "seq.h5", compile=False)
    for v in model.weights:
        v.assign(np.zeros(tuple(v.shape), "float32"))
    model.load_weights(tmp_path / "w.h5")
    x = np.ones((2, 4), "float32")
    np.testing.assert_allclose(
        np.asarray(model.predict(x, verbose=0)),
        _expected_sequential(weights, x),
        rtol=1e-5,
        atol=1e-5,
    )
    with pytest.raises(ValueError, match="no model config"):
        saving.load_model(tmp_path / "w.h5")


def test_keras2_functional(tmp_path):
    rng = np.random.default_rng(2)
    k, b = rng.standard_normal((7, 3)).astype("float32"), rng.standard_normal(3).astype("float32")
    config = {
        "class_name": "Functional",
        "config": {
            "name": "model",
            "layers": [
                {
                    "class_name": "InputLayer",
                    "config": {"batch_input_shape": [None, 4], "dtype": "float32", "name": "a"},
                    "name": "a",
                    "inbound_nodes": [],
                },
                {
                    "class_name": "InputLayer",
                    "config": {"batch_input_shape": [None, 3], "dtype": "float32", "name": "b"},
                    "name": "b",
                    "inbound_nodes": [],
                },
                {
                    "class_name": "Concatenate",
                    "config": {
                        "name": "concatenate",
                        "trainable": True,
                        "dtype": "float32",
                        "axis": -1,
                    },
                    "name": "concatenate",
                    "inbound_nodes": [[["a", 0, 0, {}], ["b", 0, 0, {}]]],
                },
                {
                    **_dense("out", 3, "tanh"),
                    "name": "out",
                    "inbound_nodes": [[["concatenate", 0, 0, {}]]],
                },
            ],
            "input_layers": [["a", 0, 0], ["b", 0, 0]],
            "output_layers": [["out", 0, 0]],
        },
    }
    _write(
        tmp_path / "f.h5",
        config,
        {"a": [], "b": [], "concatenate": [], "out": [("kernel", k), ("bias", b)]},
    )
    model = saving.load_model(tmp_path / "f.h5")
    xa, xb = np.ones((2, 4), "float32"), np.full((2, 3), 0.5, "float32")
    expected = np.tanh(np.concatenate([xa, xb], -1) @ k + b)
    np.testing.assert_allclose(
        np.asarray(model.predict([xa, xb], verbose=0)), expected, rtol=1e-5, atol=1e-5
    )


def test_legacy_layer_count_mismatch(tmp_path):
    _sequential(tmp_path)
    model = tripod.Sequential([tripod.Input((4,)), tripod.layers.Dense(6)])
    with pytest.raises(ValueError, match="holds weights for 3 layers"):
        model.load_weights(tmp_path / "seq.h5")


def test_legacy_wrong_shapes(tmp_path):
    _sequential(tmp_path)
    model = tripod.Sequential(
        [
            tripod.Input((4,)),
            tripod.layers.Dense(5),
            tripod.layers.BatchNormalization(),
            tripod.layers.Dense(2),
        ]
    )
    with pytest.raises(ValueError, match=r"expects weights of shapes \[\(4, 5\), \(5,\)\]"):
        model.load_weights(tmp_path / "seq.h5")
