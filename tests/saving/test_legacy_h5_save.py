"""`model.save("name.h5")` writes Keras 3's legacy HDF5 layout (with a warning), atomically, and
the file loads back in tripod (Keras 3 loading it: test_keras_interop.py)."""

import json
import os

import h5py
import numpy as np
import pytest

import tripod
from tests.saving.helpers import functional_model, inputs_for, outputs, perturb, sequential_model
from tripod import saving
from tripod.backends import config
from tripod.saving import legacy_h5_save

needs_training = pytest.mark.skipif(
    config.backend() == "numpy", reason="the numpy backend is inference-only"
)


def _save(model, path, **kwargs):
    with pytest.warns(UserWarning, match="legacy HDF5"):
        model.save(path, **kwargs)


def _names(attr):
    return [n.decode() if isinstance(n, bytes) else str(n) for n in np.asarray(attr).reshape(-1)]


@pytest.mark.parametrize("make", [functional_model, sequential_model])
def test_uncompiled_model_round_trips(tmp_path, make):
    model = make()
    perturb(model)
    x = inputs_for(model)
    _save(model, tmp_path / "m.h5")
    loaded = saving.load_model(tmp_path / "m.h5")
    for got, want in zip(outputs(loaded, x), outputs(model, x)):
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)
    assert not loaded.compiled


def test_file_layout_is_keras_legacy_h5(tmp_path):
    model = functional_model()
    model.compile(optimizer=tripod.optimizers.Adam(0.01), loss="mse")
    model.optimizer.build(model.trainable_variables)
    _save(model, tmp_path / "m.hdf5")
    with h5py.File(tmp_path / "m.hdf5", "r") as f:
        config_ = json.loads(f.attrs["model_config"])
        assert config_["class_name"] == "Functional" and "layers" in config_["config"]
        training = json.loads(f.attrs["training_config"])
        assert training["loss"] == "mse" and training["optimizer_config"]["class_name"] == "Adam"
        assert "optimizer" not in training
        group = f["model_weights"]
        assert _names(group.attrs["layer_names"]) == [layer.name for layer in model.layers]
        hidden = group["hidden"]
        assert _names(hidden.attrs["weight_names"]) == ["hidden/kernel", "hidden/bias"]
        np.testing.assert_array_equal(
            hidden["hidden/kernel"][()], model.get_layer("hidden").kernel.numpy()
        )
        bn = next(
            layer for layer in model.layers if isinstance(layer, tripod.layers.BatchNormalization)
        )
        assert _names(group[bn.name].attrs["weight_names"]) == [w.path for w in bn.weights]
        assert len(_names(f["optimizer_weights"].attrs["weight_names"])) == len(
            model.optimizer.variables
        )
        assert "top_level_model_weights" in group


@needs_training
def test_compile_and_optimizer_state_round_trip(tmp_path):
    model = functional_model()
    model.compile(optimizer=tripod.optimizers.Adam(0.01), loss="mse", metrics=["mae"])
    x = inputs_for(model, batch=8)
    y = {"cls": np.ones((8, 3), "float32"), "reg": np.zeros((8, 1), "float32")}
    model.fit(x, y, batch_size=4, epochs=2, verbose=0)
    _save(model, tmp_path / "m.h5")
    loaded = saving.load_model(tmp_path / "m.h5")
    assert loaded.compiled and int(np.asarray(loaded.optimizer.iterations.numpy())) == 4
    for a, b in zip(loaded.optimizer.variables, model.optimizer.variables):
        np.testing.assert_array_equal(np.asarray(a.numpy()), np.asarray(b.numpy()))
    for m in (model, loaded):  # training goes on as if it had never stopped
        m.fit(x, y, batch_size=4, epochs=1, shuffle=False, verbose=0)
    for a, b in zip(loaded.weights, model.weights):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-5, atol=1e-6, err_msg=a.path)


def test_include_optimizer_false_saves_no_training_state(tmp_path):
    model = sequential_model()
    model.compile(optimizer="adam", loss="mse")
    _save(model, tmp_path / "m.h5", include_optimizer=False)
    with h5py.File(tmp_path / "m.h5", "r") as f:
        assert "training_config" not in f.attrs and "optimizer_weights" not in f
    assert not saving.load_model(tmp_path / "m.h5").compiled


def test_a_failed_write_keeps_the_previous_file(tmp_path, monkeypatch):
    model = sequential_model()
    path = tmp_path / "m.h5"
    _save(model, path)
    before = path.read_bytes()

    def broken(group, variables):
        raise OSError("disk full")

    monkeypatch.setattr(legacy_h5_save, "_write_variables", broken)
    with pytest.raises(OSError, match="disk full"), pytest.warns(UserWarning):
        model.save(path)
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ["m.h5"]  # no temporary file left behind


def test_overwrite_false_refuses_an_existing_file(tmp_path):
    model = sequential_model()
    _save(model, tmp_path / "m.h5")
    with pytest.raises(FileExistsError), pytest.warns(UserWarning):
        model.save(tmp_path / "m.h5", overwrite=False)


def test_save_weights_needs_the_weights_suffix_as_in_keras(tmp_path):
    model = sequential_model()
    # Keras 3.15: save_weights("x.h5") is a ValueError; .weights.h5 is the only weights file name.
    with pytest.raises(ValueError, match=r"must end in '\.weights\.h5'"):
        model.save_weights(tmp_path / "x.h5")
    assert not os.listdir(tmp_path)
    with pytest.raises(ValueError, match="weights file name"):
        model.save(tmp_path / "x.weights.h5")
    with pytest.raises(ValueError, match=r"must end in '\.keras' \(or '\.h5'"):
        model.save(tmp_path / "x.tf")
