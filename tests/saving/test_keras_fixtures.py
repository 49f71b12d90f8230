"""Models written by Keras 3.15 load in tripod and reproduce Keras's outputs within 1e-5."""

import json
import zipfile

import numpy as np
import pytest

from tests.saving.helpers import FIXTURES, assert_same_outputs, outputs
from tripod import saving
from tripod.saving import registry

NAMES = ["mlp", "cnn_bn", "lstm_embed", "functional_multi_io"]


def _class_names(config):
    """Every layer class a model config names (nested models included)."""
    if isinstance(config, dict):
        found = {config["class_name"]} if "class_name" in config and "module" in config else set()
        for value in config.values():
            found |= _class_names(value)
        return found
    if isinstance(config, list):
        return set().union(*[_class_names(v) for v in config]) if config else set()
    return set()


def _fixture(name):
    archive = FIXTURES / f"{name}.keras"
    if not archive.exists():
        pytest.skip(f"fixture {archive} is missing")
    config = json.loads(zipfile.ZipFile(archive).read("config.json"))
    missing = sorted(
        c
        for c in _class_names(config)
        if registry.resolve("keras.layers", c) is None
        and registry.resolve("keras", c) is None
        and registry.resolve("keras.src.models.functional", c) is None
    )
    if missing:
        pytest.skip(f"tripod lacks {missing}, which {name} uses")
    io = np.load(FIXTURES / f"{name}.io.npz", allow_pickle=False)
    xs = [io[k] for k in sorted((k for k in io if k.startswith("x")), key=lambda k: int(k[1:]))]
    ys = [io[k] for k in sorted((k for k in io if k.startswith("y")), key=lambda k: int(k[1:]))]
    return archive, (xs if len(xs) > 1 else xs[0]), ys


@pytest.mark.parametrize("name", NAMES)
def test_keras_archive_reproduces_outputs(name):
    archive, x, ys = _fixture(name)
    model = saving.load_model(archive)
    assert_same_outputs(outputs(model, x), ys)


@pytest.mark.parametrize("name", NAMES)
def test_keras_archive_restores_compile_and_optimizer(name):
    archive, _, _ = _fixture(name)
    model = saving.load_model(archive)
    assert model.compiled and model.optimizer is not None and model.optimizer.built
    assert int(np.asarray(model.optimizer.iterations.numpy())) > 0  # Keras trained a few steps
    uncompiled = saving.load_model(archive, compile=False)
    assert not uncompiled.compiled


@pytest.mark.parametrize("name", NAMES)
def test_keras_weights_file_loads_into_a_fresh_model(name):
    archive, x, ys = _fixture(name)
    model = saving.load_model(archive, compile=False)
    for v in model.weights:
        v.assign(np.zeros(tuple(v.shape), dtype=v.dtype))
    model.load_weights(FIXTURES / f"{name}.weights.h5")
    assert_same_outputs(outputs(model, x), ys)
