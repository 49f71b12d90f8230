"""TensorBoard event files: the record framing, the protobuf encoding, and what fit logs."""

import os
import struct

import numpy as np
import pytest

from tests.training.callbacks.helpers import X, Y, linear_model, needs_training
from tripod.backends import config
from tripod.callbacks import TensorBoard
from tripod.training.callbacks.tensorboard_events import crc32c, masked_crc32c


# -- a small reader written for the test: TFRecord frames and the few protobuf fields used --------
def _varint(data, pos):
    result = shift = 0
    while True:
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return result, pos


def fields(data):
    """[(field number, value)]: varints as int, fixed64 as double, fixed32 as float, else bytes."""
    out, pos = [], 0
    while pos < len(data):
        key, pos = _varint(data, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = _varint(data, pos)
        elif wire == 1:
            value, pos = struct.unpack("<d", data[pos : pos + 8])[0], pos + 8
        elif wire == 5:
            value, pos = struct.unpack("<f", data[pos : pos + 4])[0], pos + 4
        else:
            length, pos = _varint(data, pos)
            value, pos = data[pos : pos + length], pos + length
        out.append((number, value))
    return out


def records(path):
    with open(path, "rb") as f:
        data = f.read()
    pos, out = 0, []
    while pos < len(data):
        header = data[pos : pos + 8]
        (length,) = struct.unpack("<Q", header)
        assert struct.unpack("<I", data[pos + 8 : pos + 12])[0] == masked_crc32c(header)
        body = data[pos + 12 : pos + 12 + length]
        assert struct.unpack("<I", data[pos + 12 + length : pos + 16 + length])[0] == masked_crc32c(
            body
        )
        out.append(body)
        pos += 16 + length
    return out


def scalars(log_dir):
    """{tag: {step: value}} of every scalar in the event files under `log_dir`."""
    result = {}
    for name in os.listdir(log_dir):
        assert "tfevents" in name
        events = records(os.path.join(log_dir, name))
        assert dict(fields(events[0]))[3] == b"brain.Event:2"
        for event in events[1:]:
            event_fields = dict(fields(event))
            for number, value in fields(event_fields[5]):
                assert number == 1
                value_fields = dict(fields(value))
                if 2 in value_fields:
                    result.setdefault(value_fields[1].decode(), {})[event_fields[2]] = value_fields[
                        2
                    ]
    return result


def test_crc32c_known_values():
    assert crc32c(b"123456789") == 0xE3069283
    assert crc32c(b"") == 0
    assert crc32c(bytes(32)) == 0x8A9136AA


@needs_training
def test_epoch_scalars_for_train_and_validation(tmp_path):
    model = linear_model(metrics=["mae"])
    history = model.fit(
        X,
        Y,
        epochs=3,
        verbose=0,
        validation_split=0.25,
        callbacks=[TensorBoard(str(tmp_path), write_steps_per_second=True)],
    )
    train = scalars(tmp_path / "train")
    validation = scalars(tmp_path / "validation")
    assert set(train) == {
        "epoch_loss",
        "epoch_mae",
        "epoch_learning_rate",
        "epoch_steps_per_second",
    }
    for epoch in range(3):
        assert train["epoch_loss"][epoch] == pytest.approx(history.history["loss"][epoch], rel=1e-6)
        assert validation["epoch_mae"][epoch] == pytest.approx(
            history.history["val_mae"][epoch], rel=1e-6
        )
    assert train["epoch_learning_rate"] == {
        0: pytest.approx(0.05),
        1: pytest.approx(0.05),
        2: pytest.approx(0.05),
    }
    # after each validation, the metrics against the optimizer's step count (1 batch per epoch)
    assert set(validation["evaluation_loss_vs_iterations"]) == {1, 2, 3}


@needs_training
def test_per_epoch_logging_ignores_batch_hooks_it_did_not_ask_for(tmp_path, monkeypatch):
    """With the fast paths off the loops call every batch hook (`fast_paths.SHORTCUTS`), as
    Keras does; `update_freq="epoch"` then still writes no batch scalar."""
    monkeypatch.setenv("TRIPOD_FAST_PATHS", "0")
    model = linear_model()
    model.fit(X, Y, epochs=2, batch_size=8, verbose=0, callbacks=[TensorBoard(str(tmp_path))])
    assert sorted(scalars(tmp_path / "train")) == ["epoch_learning_rate", "epoch_loss"]


@needs_training
def test_batch_scalars_every_update_freq_batches(tmp_path):
    model = linear_model()
    model.fit(
        X,
        Y,
        epochs=2,
        batch_size=8,
        verbose=0,
        callbacks=[TensorBoard(str(tmp_path), update_freq=3)],
    )
    assert sorted(scalars(tmp_path / "train")["batch_loss"]) == [3, 6]


@needs_training
def test_weight_histograms(tmp_path):
    model = linear_model()
    model.fit(X, Y, epochs=2, verbose=0, callbacks=[TensorBoard(str(tmp_path), histogram_freq=2)])
    (name,) = os.listdir(tmp_path / "train")
    histograms = []
    for event in records(os.path.join(tmp_path, "train", name))[1:]:
        event_fields = dict(fields(event))
        for _, value in fields(event_fields[5]):
            value_fields = dict(fields(value))
            if 5 in value_fields:
                histograms.append(
                    (event_fields[2], value_fields[1].decode(), dict(fields(value_fields[5])))
                )
    kernel = np.asarray(model.get_weights()[0])
    assert [(step, tag) for step, tag, _ in histograms] == [
        (1, f"{w.path}/histogram") for w in model.weights
    ]
    assert histograms[0][1].endswith("/kernel/histogram")
    histo = histograms[0][2]
    assert (
        histo[3] == kernel.size
        and histo[1] == pytest.approx(kernel.min())
        and histo[2] == pytest.approx(kernel.max())
    )
    assert sum(struct.unpack(f"<{len(histo[7]) // 8}d", histo[7])) == kernel.size


@needs_training
@pytest.mark.skipif(
    config.backend() != "tensorflow", reason="reads the files back with TensorFlow's own parser"
)
def test_tensorflow_reads_the_files(tmp_path):
    tf = pytest.importorskip("tensorflow")
    model = linear_model()
    history = model.fit(X, Y, epochs=2, verbose=0, callbacks=[TensorBoard(str(tmp_path))])
    (name,) = os.listdir(tmp_path / "train")
    values = {}
    for event in tf.compat.v1.train.summary_iterator(os.path.join(tmp_path, "train", name)):
        for value in event.summary.value:
            values[(value.tag, event.step)] = value.simple_value
    assert values[("epoch_loss", 1)] == pytest.approx(history.history["loss"][1], rel=1e-6)


def test_unsupported_options_are_refused():
    with pytest.raises(NotImplementedError, match="profile_batch"):
        TensorBoard(profile_batch=2)
    with pytest.raises(NotImplementedError, match="write_images"):
        TensorBoard(write_images=True)
    with pytest.raises(ValueError, match="update_freq"):
        TensorBoard(update_freq="sometimes")
