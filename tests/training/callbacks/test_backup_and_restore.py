"""BackupAndRestore: an interrupted fit resumes at the epoch where it stopped, with its weights."""

import json
import os

import pytest

import tripod as keras
from tests.training.callbacks.helpers import (
    RecordingModel,
    X,
    Y,
    assert_weights_equal,
    linear_model,
    needs_training,
)
from tripod.callbacks import BackupAndRestore, Callback

pytestmark = needs_training


class Interrupt(Exception):
    pass


class InterruptAt(Callback):
    """Raises at the end of training epoch `epoch` (after `batch` batches if given)."""

    def __init__(self, epoch, batch=None):
        super().__init__()
        self.epoch, self.batch, self.current = epoch, batch, 0
        if batch is not None:
            self.on_train_batch_end = self._batch_end

    def on_epoch_begin(self, epoch, logs=None):
        self.current = epoch

    def on_epoch_end(self, epoch, logs=None):
        if self.batch is None and epoch == self.epoch:
            raise Interrupt()

    def _batch_end(self, batch, logs=None):
        if self.current == self.epoch and batch == self.batch:
            raise Interrupt()


def uninterrupted(epochs, batch_size=8):
    model = linear_model(cls=RecordingModel)
    model.fit(X, Y, epochs=epochs, batch_size=batch_size, shuffle=False, verbose=0)
    return model.get_weights()


def test_resumes_after_the_last_finished_epoch(tmp_path):
    backup = str(tmp_path / "backup")
    model = linear_model(cls=RecordingModel)
    with pytest.raises(Interrupt):
        model.fit(
            X,
            Y,
            epochs=4,
            batch_size=8,
            shuffle=False,
            verbose=0,
            callbacks=[BackupAndRestore(backup), InterruptAt(1)],
        )
    with open(os.path.join(backup, "training_metadata.json")) as f:
        assert json.load(f) == {"epoch": 2, "batch": 0}

    resumed = linear_model(cls=RecordingModel, lr=0.05)
    resumed.set_weights([w * 0 + 7 for w in resumed.get_weights()])  # whatever it held is replaced
    history = resumed.fit(
        X, Y, epochs=4, batch_size=8, shuffle=False, verbose=0, callbacks=[BackupAndRestore(backup)]
    )
    assert history.epoch == [2, 3]
    assert resumed.calls[0] == ("load_weights", os.path.join(backup, "latest.weights.h5"))
    assert_weights_equal(resumed.get_weights(), uninterrupted(4))
    assert not os.path.exists(backup)  # a finished fit deletes its backup


def test_batch_backups_restart_the_interrupted_epoch(tmp_path):
    backup = str(tmp_path / "backup")
    model = linear_model(cls=RecordingModel)
    with pytest.raises(Interrupt):
        model.fit(
            X,
            Y,
            epochs=3,
            batch_size=8,
            shuffle=False,
            verbose=0,
            callbacks=[BackupAndRestore(backup, save_freq=3), InterruptAt(1, batch=3)],
        )
    # 4 batches per epoch: backups after batches 3 (epoch 0) and 6 (= batch 2 of epoch 1).
    with open(os.path.join(backup, "training_metadata.json")) as f:
        assert json.load(f) == {"epoch": 1, "batch": 2}
    resumed = linear_model(cls=RecordingModel)
    history = resumed.fit(
        X,
        Y,
        epochs=3,
        batch_size=8,
        shuffle=False,
        verbose=0,
        callbacks=[BackupAndRestore(backup, save_freq=3)],
    )
    assert history.epoch == [1, 2]


def test_keeps_the_backup_when_asked_and_uses_the_previous_one_if_damaged(tmp_path):
    backup = str(tmp_path / "backup")
    model = linear_model(cls=RecordingModel)
    model.fit(
        X,
        Y,
        epochs=2,
        verbose=0,
        callbacks=[BackupAndRestore(backup, double_checkpoint=True, delete_checkpoint=False)],
    )
    assert sorted(os.listdir(backup)) == [
        "latest.weights.h5",
        "latest.weights.h5.bkp",
        "training_metadata.json",
        "training_metadata.json.bkp",
    ]
    with open(os.path.join(backup, "latest.weights.h5"), "wb") as f:
        f.write(b"damaged")
    resumed = linear_model(cls=RecordingModel)
    history = resumed.fit(
        X, Y, epochs=3, verbose=0, callbacks=[BackupAndRestore(backup, double_checkpoint=True)]
    )
    assert history.epoch == [1, 2]  # the previous backup: after epoch 0


def test_a_damaged_backup_without_a_previous_one_is_an_error(tmp_path):
    backup = tmp_path / "backup"
    backup.mkdir()
    (backup / "latest.weights.h5").write_bytes(b"damaged")
    (backup / "training_metadata.json").write_text('{"epoch": 1, "batch": 0}')
    with pytest.raises(ValueError, match="could not restore"):
        linear_model(cls=RecordingModel).fit(
            X, Y, epochs=2, verbose=0, callbacks=[BackupAndRestore(str(backup))]
        )


def test_argument_errors():
    with pytest.raises(ValueError, match="Empty `backup_dir`"):
        BackupAndRestore("")
    with pytest.raises(ValueError, match="save_freq"):
        BackupAndRestore("x", save_freq="foo")
    BackupAndRestore("x", save_freq=False)


def test_needs_a_built_model(tmp_path):
    model = keras.Sequential([keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    with pytest.raises(ValueError, match="must be built"):
        model.fit(X, Y, verbose=0, callbacks=[BackupAndRestore(str(tmp_path))])


@pytest.mark.skipif(
    not hasattr(keras.Model, "save_weights"), reason="Model.save_weights is not there yet"
)
def test_resumes_with_real_weights_files_and_optimizer_state(tmp_path):
    backup = str(tmp_path / "backup")
    model = linear_model(optimizer=keras.optimizers.Adam(0.01))
    with pytest.raises(Interrupt):
        model.fit(
            X,
            Y,
            epochs=3,
            batch_size=8,
            shuffle=False,
            verbose=0,
            callbacks=[BackupAndRestore(backup), InterruptAt(0)],
        )
    resumed = linear_model(optimizer=keras.optimizers.Adam(0.01))
    resumed.fit(
        X, Y, epochs=3, batch_size=8, shuffle=False, verbose=0, callbacks=[BackupAndRestore(backup)]
    )
    reference = linear_model(optimizer=keras.optimizers.Adam(0.01))
    reference.fit(X, Y, epochs=3, batch_size=8, shuffle=False, verbose=0)
    assert_weights_equal(resumed.get_weights(), reference.get_weights())
