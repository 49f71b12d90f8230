"""CSVLogger writes one row per epoch of fit."""

import csv

import pytest

from tests.training.callbacks.helpers import X, Y, linear_model, needs_training
from tripod.callbacks import CSVLogger, EarlyStopping

pytestmark = needs_training


def read(path, sep=","):
    with open(path, newline="") as f:
        return list(csv.reader(f, delimiter=sep))


def test_writes_header_and_one_row_per_epoch(tmp_path):
    path = str(tmp_path / "log.csv")
    model = linear_model(metrics=["mae"])
    history = model.fit(
        X, Y, epochs=3, verbose=0, validation_split=0.25, callbacks=[CSVLogger(path)]
    )
    rows = read(path)
    assert rows[0] == ["epoch", "loss", "mae", "val_loss", "val_mae"]
    assert [r[0] for r in rows[1:]] == ["0", "1", "2"]
    for epoch, row in enumerate(rows[1:]):
        assert float(row[1]) == pytest.approx(history.history["loss"][epoch], rel=1e-6)
        assert float(row[4]) == pytest.approx(history.history["val_mae"][epoch], rel=1e-6)


def test_append_continues_without_a_second_header_and_separator(tmp_path):
    path = str(tmp_path / "log.tsv")
    model = linear_model()
    model.fit(X, Y, epochs=2, verbose=0, callbacks=[CSVLogger(path, separator="\t")])
    model.fit(X, Y, epochs=1, verbose=0, callbacks=[CSVLogger(path, separator="\t", append=True)])
    rows = read(path, "\t")
    assert rows[0] == ["epoch", "loss"] and len(rows) == 4
    model.fit(X, Y, epochs=1, verbose=0, callbacks=[CSVLogger(path, separator="\t")])
    assert len(read(path, "\t")) == 2  # without append: overwritten


def test_missing_values_are_na(tmp_path):
    path = str(tmp_path / "log.csv")
    model = linear_model()
    model.fit(
        X,
        Y,
        epochs=2,
        verbose=0,
        validation_split=0.25,
        validation_freq=2,
        callbacks=[CSVLogger(path)],
    )
    rows = read(path)
    assert rows[0] == ["epoch", "loss"]  # keys of the first epoch
    model.fit(
        X,
        Y,
        epochs=3,
        verbose=0,
        validation_split=0.25,
        validation_freq=[1, 3],
        callbacks=[CSVLogger(path), EarlyStopping(monitor="loss", patience=99)],
    )
    rows = read(path)
    assert rows[0] == ["epoch", "loss", "val_loss"] and rows[2][2] == "NA"
