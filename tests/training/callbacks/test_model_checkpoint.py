"""ModelCheckpoint in real fit runs: what is saved, when, and under which name."""

import os

import numpy as np
import pytest

import tripod as keras
from tests.training.callbacks.helpers import (
    RecordingModel,
    ScriptedLogs,
    X,
    Y,
    assert_weights_equal,
    linear_model,
    needs_training,
)
from tripod.callbacks import ModelCheckpoint

REAL_SAVING = hasattr(keras.Model, "save_weights")


def fit_recording(tmp_path, values, epochs=None, batch_size=32, **kwargs):
    model = linear_model(cls=RecordingModel)
    checkpoint = ModelCheckpoint(**kwargs)
    model.fit(
        X,
        Y,
        epochs=epochs or len(values),
        batch_size=batch_size,
        verbose=0,
        callbacks=[ScriptedLogs("score", values), checkpoint],
    )
    return model, checkpoint


@needs_training
def test_saves_weights_every_epoch_under_a_formatted_name(tmp_path):
    pattern = str(tmp_path / "ckpt-{epoch:02d}-{score:.2f}.weights.h5")
    model, _ = fit_recording(tmp_path, [0.5, 0.25, 0.125], filepath=pattern, save_weights_only=True)
    names = ["ckpt-01-0.50.weights.h5", "ckpt-02-0.25.weights.h5", "ckpt-03-0.12.weights.h5"]
    assert model.calls == [("save_weights", str(tmp_path / n)) for n in names]
    assert sorted(os.listdir(tmp_path)) == names


@needs_training
def test_saves_the_whole_model_and_creates_folders(tmp_path):
    path = str(tmp_path / "sub" / "dir" / "model.keras")
    model, _ = fit_recording(tmp_path, [1, 2], filepath=path)
    assert model.calls == [("save", path), ("save", path)]
    assert os.path.exists(path)


@needs_training
@pytest.mark.parametrize(
    "mode, values, threshold, saved",
    [
        ("min", [3, 2, 2.5, 1, 1], None, [1, 2, 4]),
        ("max", [3, 2, 2.5, 4, 4], None, [1, 4]),
        ("min", [3, 2, 2.5, 1, 1], 1.5, [4]),
        ("auto", [3, 2, 2.5, 1, 1], None, [1, 2, 4]),  # "score" is unknown: auto fails (below)
    ],
)
def test_save_best_only(tmp_path, mode, values, threshold, saved):
    kwargs = {
        "filepath": str(tmp_path / "e{epoch}.weights.h5"),
        "monitor": "score",
        "save_best_only": True,
        "save_weights_only": True,
        "mode": mode,
        "initial_value_threshold": threshold,
    }
    if mode == "auto":
        with pytest.raises(ValueError, match="minimized or maximized"):
            fit_recording(tmp_path, values, **kwargs)
        return
    model, checkpoint = fit_recording(tmp_path, values, **kwargs)
    assert [os.path.basename(p) for _, p in model.calls] == [f"e{i}.weights.h5" for i in saved]
    assert checkpoint.best == min(values) if mode == "min" else max(values)


@needs_training
def test_save_best_only_on_real_validation_loss(tmp_path, capsys):
    model = linear_model(cls=RecordingModel)
    path = str(tmp_path / "best.weights.h5")
    checkpoint = ModelCheckpoint(path, save_best_only=True, save_weights_only=True, verbose=1)
    history = model.fit(X, Y, epochs=4, verbose=0, validation_split=0.25, callbacks=[checkpoint])
    val_losses = history.history["val_loss"]
    improved = [i for i, v in enumerate(val_losses) if v < min(val_losses[:i], default=np.inf)]
    assert len(model.calls) == len(improved)
    assert checkpoint.best == pytest.approx(min(val_losses))
    out = capsys.readouterr().out
    # Keras's wording: the first value improves on "None" (no best yet), then a line per save.
    assert (
        f"\nEpoch 1: val_loss improved from None to {val_losses[0]:.5f}, saving model to {path}\n"
        in out
    )
    assert f"\nEpoch 1: finished saving model to {path}\n" in out
    assert "inf" not in out


@needs_training
def test_save_freq_in_batches_counts_across_epochs(tmp_path):
    pattern = str(tmp_path / "e{epoch}-b{batch}.weights.h5")
    # 32 samples in batches of 8: 4 batches per epoch, 8 in all; a save every 3 batches.
    model, _ = fit_recording(
        tmp_path, [0, 0], batch_size=8, filepath=pattern, save_weights_only=True, save_freq=3
    )
    assert [os.path.basename(p) for _, p in model.calls] == ["e1-b3.weights.h5", "e2-b2.weights.h5"]


def test_epoch_save_freq_needs_no_batch_hooks():
    from tripod.training.callbacks.callback import overrides_batch_hooks

    assert not overrides_batch_hooks(ModelCheckpoint("m.keras"), "train")
    assert overrides_batch_hooks(ModelCheckpoint("m.keras", save_freq=2), "train")
    assert not overrides_batch_hooks(ModelCheckpoint("m.keras", save_freq=2), "test")


def test_argument_errors():
    with pytest.raises(ValueError, match=r"must end in `\.weights\.h5`"):
        ModelCheckpoint("m.keras", save_weights_only=True)
    with pytest.raises(ValueError, match=r"must end in `\.keras`"):
        ModelCheckpoint("m")
    with pytest.raises(ValueError, match="save_freq"):
        ModelCheckpoint("m.keras", save_freq="batch")
    with pytest.raises(ValueError, match="save_freq"):
        ModelCheckpoint("m.keras", save_freq=0)


@needs_training
def test_missing_format_key_is_a_clear_error(tmp_path):
    with pytest.raises(KeyError, match="nope"):
        fit_recording(tmp_path, [1], filepath=str(tmp_path / "{nope}.keras"))


@needs_training
@pytest.mark.skipif(not REAL_SAVING, reason="Model.save_weights is not there yet")
def test_real_weights_files_load_back(tmp_path):
    model = linear_model()
    path = str(tmp_path / "w-{epoch}.weights.h5")
    model.fit(X, Y, epochs=2, verbose=0, callbacks=[ModelCheckpoint(path, save_weights_only=True)])
    other = linear_model(lr=0.3)
    other.load_weights(str(tmp_path / "w-2.weights.h5"))
    assert_weights_equal(other.get_weights(), model.get_weights())


@needs_training
def test_h5_checkpoint_writes_a_legacy_model_file_that_loads_back(tmp_path):
    model = linear_model()
    path = str(tmp_path / "best_model.h5")
    with pytest.warns(UserWarning, match="legacy HDF5"):
        model.fit(
            X,
            Y,
            epochs=2,
            verbose=0,
            validation_split=0.25,
            callbacks=[ModelCheckpoint(path, save_best_only=True)],
        )
    loaded = keras.saving.load_model(path)
    np.testing.assert_allclose(
        loaded.predict(X, verbose=0), model.predict(X, verbose=0), rtol=1e-6, atol=1e-6
    )
    assert loaded.compiled


@pytest.mark.parametrize("name", ["m.hdf5", "m.weights.json", "m.tf", "m.h5.tmp"])
def test_a_bad_model_extension_fails_at_construction(name):
    with pytest.raises(ValueError, match=r"must end in `\.keras`.*`\.h5`"):
        ModelCheckpoint(name)


@needs_training
def test_missing_monitor_saves_anyway_with_a_warning_as_in_keras(tmp_path):
    path = str(tmp_path / "m.weights.h5")
    with pytest.warns(UserWarning, match="`nope`"):
        model, checkpoint = fit_recording(
            tmp_path,
            [1, 2],
            filepath=path,
            monitor="nope",
            mode="min",
            save_best_only=True,
            save_weights_only=True,
        )
    assert model.calls == [("save_weights", path), ("save_weights", path)]
    assert checkpoint.best is None


@needs_training
def test_save_freq_counts_batches_with_steps_per_execution(tmp_path):
    pattern = str(tmp_path / "e{epoch}-b{batch}.weights.h5")
    model = linear_model(cls=RecordingModel, steps_per_execution=2)
    checkpoint = ModelCheckpoint(pattern, save_weights_only=True, save_freq=3)
    # 4 batches of 8 per epoch; the hook sees batches 1 and 3 (2 batches each time), so 3 batches
    # are done at batch 3 of each epoch (Keras counts batches, not hook calls).
    model.fit(X, Y, epochs=2, batch_size=8, verbose=0, callbacks=[checkpoint])
    assert [os.path.basename(p) for _, p in model.calls] == ["e1-b4.weights.h5", "e2-b4.weights.h5"]


def test_an_existing_folder_as_filepath_is_a_clear_error(tmp_path):
    (tmp_path / "ckpt.keras").mkdir()
    checkpoint = ModelCheckpoint(str(tmp_path / "ckpt.keras"))
    with pytest.raises(IsADirectoryError, match="existing folder"):
        checkpoint._save(0, None, {})
