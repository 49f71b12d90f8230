"""Callbacks: stop early, keep the best checkpoint, log every epoch, and resume after a crash.

Part 1 fits a large network on 120 noisy points: the validation loss soon reaches the noise
level and stops improving while the network starts fitting the noise.
`EarlyStopping(patience=5, restore_best_weights=True)` stops five epochs after the best one and
puts its weights back, `ModelCheckpoint(save_best_only=True)` keeps that same best model on disk and
`CSVLogger` writes one row per epoch.

Part 2 is a fit that dies: a callback raises at the start of epoch `crash_at`. Every epoch
before it was backed up by `BackupAndRestore`, so the same `fit` call, repeated on a freshly
built model (as a restarted script would), loads the backup and carries on from that epoch.

Run: python examples/callbacks.py   (pick the backend with TRIPOD_BACKEND=jax|torch|tensorflow)
"""

import csv
import os
import tempfile

import numpy as np

import tripod as keras
from tripod import layers


class Crash(Exception):
    """The failure `CrashAt` simulates."""


class CrashAt(keras.callbacks.Callback):
    """Raise `Crash` when epoch `epoch` (counted from 0) begins, like a machine going down."""

    def __init__(self, epoch):
        super().__init__()
        self.epoch = epoch

    def on_epoch_begin(self, epoch, logs=None):
        if epoch == self.epoch:
            raise Crash(f"simulated crash at the start of epoch {epoch}")


class EpochRecorder(keras.callbacks.Callback):
    """Remember which epochs ran."""

    def on_train_begin(self, logs=None):
        self.epochs = []

    def on_epoch_begin(self, epoch, logs=None):
        self.epochs.append(epoch)


def make_data(n, rng):
    """y = sin(2 x) plus a lot of noise, x in [-2, 2]."""
    X = rng.uniform(-2, 2, (n, 1)).astype("float32")
    return X, (np.sin(2 * X) + 0.3 * rng.standard_normal((n, 1))).astype("float32")


def build_model():
    model = keras.Sequential(
        [
            keras.Input((1,)),
            layers.Dense(128, activation="relu"),
            layers.Dense(128, activation="relu"),
            layers.Dense(1),
        ]
    )
    model.compile(optimizer=keras.optimizers.Adam(0.01), loss="mse")
    return model


def early_stopping_and_checkpoints(data, folder, max_epochs):
    """Part 1: the history, the best epoch's validation loss now, and the checkpoint's."""
    (X, y), validation = data
    best_path = os.path.join(folder, "best.keras")
    log_path = os.path.join(folder, "training_log.csv")
    model = build_model()
    stopper = keras.callbacks.EarlyStopping(
        monitor="val_loss", patience=5, restore_best_weights=True
    )
    callbacks = [
        stopper,
        keras.callbacks.ModelCheckpoint(best_path, monitor="val_loss", save_best_only=True),
        keras.callbacks.CSVLogger(log_path),
    ]
    history = model.fit(
        X,
        y,
        batch_size=32,
        epochs=max_epochs,
        validation_data=validation,
        callbacks=callbacks,
        verbose=0,
    )
    val_losses = history.history["val_loss"]
    print(f"ran {len(val_losses)} of {max_epochs} epochs; best val_loss {min(val_losses):.4f} "
          f"at epoch {stopper.best_epoch + 1}, last {val_losses[-1]:.4f}")  # fmt: skip
    with open(log_path) as f:
        rows = list(csv.DictReader(f))
    print(f"{os.path.basename(log_path)}: {len(rows)} rows, columns {list(rows[0])}")
    restored = model.evaluate(*validation, verbose=0)
    from_checkpoint = keras.saving.load_model(best_path).evaluate(*validation, verbose=0)
    print(f"val_loss of the restored weights {restored:.4f}, of {os.path.basename(best_path)} "
          f"{from_checkpoint:.4f}")  # fmt: skip
    return val_losses, rows, restored, from_checkpoint


def crash_and_resume(data, folder, epochs, crash_at):
    """Part 2: the epochs the resumed fit ran and the loss histories of both fits."""
    X, y = data
    backup = keras.callbacks.BackupAndRestore(os.path.join(folder, "backup"))
    first = build_model()
    recorder = EpochRecorder()
    crashing = [backup, recorder, CrashAt(crash_at)]
    try:
        first.fit(X, y, batch_size=32, epochs=epochs, callbacks=crashing, verbose=0)
    except Crash as crash:
        print(f"{crash}, after epochs {recorder.epochs[:-1]}")
    crashed_losses = first.history.history["loss"]
    restarted = build_model()
    history = restarted.fit(
        X, y, batch_size=32, epochs=epochs, callbacks=[backup, recorder], verbose=0
    )
    resumed_losses = history.history["loss"]
    first_loss, last_loss, resumed_loss = crashed_losses[0], crashed_losses[-1], resumed_losses[0]
    print(f"a new model resumed with epochs {recorder.epochs}")
    print(f"loss {first_loss:.4f} in the first epoch, {last_loss:.4f} before the crash, "
          f"{resumed_loss:.4f} in the first one after it")  # fmt: skip
    return recorder.epochs, crashed_losses, resumed_losses


def main(max_epochs=150, epochs=10, crash_at=4):
    print(f"tripod {keras.__version__} on the {keras.config.backend()} backend")
    keras.utils.set_random_seed(0)
    rng = np.random.default_rng(0)
    train, validation = make_data(120, rng), make_data(500, rng)
    with tempfile.TemporaryDirectory() as folder:
        part1 = early_stopping_and_checkpoints((train, validation), folder, max_epochs)
        part2 = crash_and_resume(train, folder, epochs, crash_at)
    return part1, part2


if __name__ == "__main__":
    main()
