"""`tripod.config`'s runtime switches: every Keras 3.15 config name, and each switch's effect."""

import logging
import warnings

import numpy as np
import pytest

import tripod
from tests.api import keras_api
from tripod import ops
from tripod.backends import config as backend_config
from tripod.backends import load

TRAINS = backend_config.backend() != "numpy"
needs_training = pytest.mark.skipif(not TRAINS, reason="the numpy backend is inference-only")


@pytest.fixture(autouse=True)
def restore_switches():
    saved = dict(backend_config._switches)
    yield
    backend_config._switches.update(saved)


@pytest.mark.skipif(not keras_api.available(), reason="../shared/keras3_api.txt not found")
@pytest.mark.parametrize(
    "namespace, module", [("keras.config", tripod.config), ("keras.utils", tripod.utils)]
)
def test_every_keras_config_name_exists(namespace, module):
    names = keras_api.section(namespace)
    wanted = (
        names
        if namespace == "keras.config"
        else [n for n in names if "logging" in n or "dot" in n or "plot" in n]
    )
    assert not [n for n in wanted if not hasattr(module, n)]


def test_set_backend_accepts_the_running_backend_and_explains_switching():
    tripod.config.set_backend(tripod.config.backend())
    other = next(n for n in ("numpy", "jax") if n != tripod.config.backend())
    with pytest.raises(RuntimeError, match="TRIPOD_BACKEND"):
        tripod.config.set_backend(other)
    with pytest.raises(ValueError, match="Unknown tripod backend"):
        tripod.config.set_backend("theano")


def test_switches_round_trip():
    c = tripod.config
    assert c.is_interactive_logging_enabled() and c.is_traceback_filtering_enabled()
    assert c.is_flash_attention_enabled() is None and c.is_nnx_enabled() is False
    c.disable_interactive_logging(), c.disable_traceback_filtering(), c.disable_flash_attention()
    assert not c.is_interactive_logging_enabled() and not c.is_traceback_filtering_enabled()
    assert c.is_flash_attention_enabled() is False
    c.enable_interactive_logging(), c.enable_traceback_filtering(), c.enable_flash_attention()
    assert c.is_interactive_logging_enabled() and c.is_traceback_filtering_enabled()
    assert c.is_flash_attention_enabled() is None
    assert tripod.utils.is_interactive_logging_enabled is c.is_interactive_logging_enabled


def test_caps_validate():
    with pytest.raises(ValueError, match="set_max_epochs: expected a positive int"):
        tripod.config.set_max_epochs(0)
    with pytest.raises(ValueError, match="set_max_steps_per_epoch"):
        tripod.config.set_max_steps_per_epoch("3")
    tripod.config.set_max_epochs(2)
    assert tripod.config.max_epochs() == 2


def _model():
    model = tripod.Sequential([tripod.Input((3,)), tripod.layers.Dense(1)])
    model.compile(tripod.optimizers.SGD(0.01), "mse")
    return model


class _CountBatches(tripod.callbacks.Callback):
    def __init__(self):
        super().__init__()
        self.counts = {"train": 0, "test": 0, "predict": 0}

    def on_train_batch_end(self, batch, logs=None):
        self.counts["train"] += 1

    def on_test_batch_end(self, batch, logs=None):
        self.counts["test"] += 1

    def on_predict_batch_end(self, batch, logs=None):
        self.counts["predict"] += 1


@needs_training
def test_max_epochs_and_steps_cap_fit_evaluate_predict():
    x, y = np.ones((100, 3), "float32"), np.ones((100, 1), "float32")
    model, counter = _model(), _CountBatches()
    tripod.config.set_max_epochs(2)
    tripod.config.set_max_steps_per_epoch(3)
    with pytest.warns(UserWarning, match="Limiting epochs to 2"):
        history = model.fit(x, y, batch_size=10, epochs=5, verbose=0, callbacks=[counter])
    assert len(history.history["loss"]) == 2 and counter.counts["train"] == 6
    with pytest.warns(UserWarning, match="Limiting steps_per_epoch to 3"):
        model.evaluate(x, y, batch_size=10, verbose=0, callbacks=[counter])
    with pytest.warns(UserWarning, match="Limiting steps_per_epoch to 3"):
        predictions = model.predict(x, batch_size=10, verbose=0, callbacks=[counter])
    assert counter.counts["test"] == 3 and counter.counts["predict"] == 3 and len(predictions) == 30


@needs_training
def test_caps_leave_shorter_runs_alone():
    x, y = np.ones((20, 3), "float32"), np.ones((20, 1), "float32")
    model, counter = _model(), _CountBatches()
    tripod.config.set_max_epochs(5)
    tripod.config.set_max_steps_per_epoch(3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        history = model.fit(x, y, batch_size=10, epochs=2, verbose=0, callbacks=[counter])
    assert len(history.history["loss"]) == 2 and counter.counts["train"] == 4


def test_disabled_interactive_logging_sends_the_progress_bar_to_logging(capsys, caplog):
    tripod.config.disable_interactive_logging()
    bar = tripod.utils.Progbar(2)
    with caplog.at_level(logging.INFO, logger="tripod"):
        bar.update(1, [("loss", 0.5)])
        bar.update(2, [("loss", 0.25)])
    assert capsys.readouterr().out == ""
    assert [r.getMessage().startswith("2/2") for r in caplog.records] == [True]
    assert "loss: 0.2500" in caplog.records[0].getMessage()


def test_interactive_logging_writes_the_progress_bar_to_stdout(capsys, caplog):
    bar = tripod.utils.Progbar(2)
    with caplog.at_level(logging.INFO, logger="tripod"):
        bar.update(2, [("loss", 0.25)])
    assert capsys.readouterr().out.startswith("2/2") and not caplog.records


def _bad_predict():
    model = tripod.Sequential([tripod.Input((3,)), tripod.layers.Dense(1)])
    with pytest.raises(ValueError, match="incompatible") as info:
        model.predict(np.ones((2, 4), "float32"), verbose=0)
    return [entry.path for entry in info.traceback]


def test_traceback_filtering_hides_tripods_frames():
    internal = backend_config.__file__.rsplit("backends", 1)[0]
    assert not [
        p for p in map(str, _bad_predict()) if p.startswith(internal) and "traceback_utils" not in p
    ]
    tripod.config.disable_traceback_filtering()
    assert [
        p for p in map(str, _bad_predict()) if p.startswith(internal) and p.endswith("layer.py")
    ]


@pytest.mark.skipif(
    backend_config.backend() != "torch", reason="only torch has a fused attention kernel"
)
def test_disabled_flash_attention_keeps_torch_off_its_fused_kernel(monkeypatch):
    torch_nn = load("torch").package.nn

    def fused(*args):
        raise AssertionError("the fused kernel ran")

    monkeypatch.setattr(torch_nn, "_fused_attention", fused)
    q = np.random.RandomState(0).randn(1, 4, 2, 8).astype("float32")
    with pytest.raises(AssertionError, match="fused kernel ran"):
        ops.dot_product_attention(q, q, q)
    tripod.config.disable_flash_attention()
    out = ops.convert_to_numpy(ops.dot_product_attention(q, q, q))
    tripod.config.enable_flash_attention()
    assert out.shape == (1, 4, 2, 8)
