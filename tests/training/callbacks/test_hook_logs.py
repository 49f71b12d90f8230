"""What each callback hook receives in fit / evaluate / predict, checked against Keras 3.15: a
dict at every hook (`{}` at the begins), metric logs sorted by key, `{"outputs": ...}` for
predict batches, and batch hooks once per `steps_per_execution` batches."""

import numpy as np
import pytest

import tripod as keras
from tests.training.callbacks.helpers import needs_training
from tripod import layers

_PLAIN_HOOKS = (
    "on_train_begin",
    "on_train_end",
    "on_test_begin",
    "on_test_end",
    "on_predict_begin",
    "on_predict_end",
)
_INDEXED_HOOKS = (
    "on_epoch_begin",
    "on_epoch_end",
    "on_train_batch_begin",
    "on_train_batch_end",
    "on_test_batch_begin",
    "on_test_batch_end",
    "on_predict_batch_begin",
    "on_predict_batch_end",
)


class Recorder(keras.callbacks.Callback):
    """Records (hook, index, type of logs, keys of logs) for every hook call."""

    def __init__(self):
        super().__init__()
        self.calls = []

    def record(self, hook, index, logs):
        keys = list(logs) if isinstance(logs, dict) else None
        self.calls.append((hook, index, type(logs), keys))

    def hooks(self, name):
        return [c for c in self.calls if c[0] == name]


def _plain(name):
    return lambda self, logs=None: self.record(name, None, logs)


def _indexed(name):
    return lambda self, index, logs=None: self.record(name, index, logs)


for _name in _PLAIN_HOOKS:
    setattr(Recorder, _name, _plain(_name))
for _name in _INDEXED_HOOKS:
    setattr(Recorder, _name, _indexed(_name))

rng = np.random.default_rng(0)
X = rng.standard_normal((8, 4)).astype("float32")
LABELS = rng.integers(0, 3, 8)


def _classifier(steps_per_execution=1):
    keras.utils.set_random_seed(1)
    model = keras.Sequential([keras.Input((4,)), layers.Dense(3, activation="softmax")])
    # "accuracy" sorts before "loss": the logs' order shows whether they are sorted.
    model.compile(
        optimizer=keras.optimizers.SGD(0.1),
        loss="sparse_categorical_crossentropy",
        metrics=["accuracy"],
        steps_per_execution=steps_per_execution,
    )
    return model


@needs_training
def test_every_hook_receives_a_dict_as_in_keras():
    model, recorder = _classifier(), Recorder()
    model.fit(
        X,
        LABELS,
        batch_size=4,
        epochs=1,
        validation_data=(X, LABELS),
        verbose=0,
        callbacks=[recorder],
    )
    model.evaluate(X, LABELS, batch_size=4, verbose=0, callbacks=[recorder])
    model.predict(X, batch_size=4, verbose=0, callbacks=[recorder])
    assert {c[0] for c in recorder.calls} == set(_PLAIN_HOOKS + _INDEXED_HOOKS)
    assert all(kind is dict for _, _, kind, _ in recorder.calls), recorder.calls
    metrics = ["accuracy", "loss"]
    expected_keys = {
        "on_train_begin": [],
        "on_epoch_begin": [],
        "on_train_batch_begin": [],
        "on_test_begin": [],
        "on_test_batch_begin": [],
        "on_predict_begin": [],
        "on_predict_batch_begin": [],
        "on_predict_end": [],
        "on_train_batch_end": metrics,
        "on_test_batch_end": metrics,
        "on_test_end": metrics,
        "on_epoch_end": metrics + ["val_accuracy", "val_loss"],
        "on_train_end": metrics + ["val_accuracy", "val_loss"],
        "on_predict_batch_end": ["outputs"],
    }
    for hook, _, _, keys in recorder.calls:
        assert keys == expected_keys[hook], (hook, keys)
    outputs = recorder.hooks("on_predict_batch_end")
    assert [c[1] for c in outputs] == [0, 1]


@needs_training
def test_history_and_returned_logs_are_sorted_by_key_as_in_keras():
    model = _classifier()
    history = model.fit(X, LABELS, batch_size=4, epochs=2, validation_split=0.5, verbose=0)
    assert list(history.history) == ["accuracy", "loss", "val_accuracy", "val_loss"]
    logs = model.evaluate(X, LABELS, verbose=0, return_dict=True)
    assert list(logs) == ["accuracy", "loss"]
    # The list form keeps `metrics_names` order (loss first), as Keras's does.
    assert model.evaluate(X, LABELS, verbose=0) == [logs["loss"], logs["accuracy"]]
    assert list(model.train_on_batch(X, LABELS, return_dict=True)) == ["accuracy", "loss"]


@needs_training
def test_progress_bar_shows_sorted_logs_and_the_learning_rate_callbacks_add(capsys):
    model = _classifier()
    model.fit(
        X,
        LABELS,
        batch_size=4,
        epochs=1,
        verbose=2,
        callbacks=[keras.callbacks.ReduceLROnPlateau(monitor="loss", patience=5)],
    )
    line = capsys.readouterr().out.strip().splitlines()[-1]
    names = [part.split(":")[0] for part in line.split(" - ")[1:]]
    assert names == ["accuracy", "loss", "learning_rate"], line
    assert line.endswith("learning_rate: 0.1000"), line


class LegacyAndNew(keras.callbacks.Callback):
    """Overrides both the Keras 3 batch hooks and their Keras 2 names."""

    def __init__(self):
        super().__init__()
        self.calls = []

    def on_train_batch_end(self, batch, logs=None):
        self.calls.append(("on_train_batch_end", batch))

    def on_batch_end(self, batch, logs=None):
        self.calls.append(("on_batch_end", batch))


class LegacyOnly(keras.callbacks.Callback):
    def __init__(self):
        super().__init__()
        self.calls = []

    def on_batch_begin(self, batch, logs=None):
        self.calls.append(("on_batch_begin", batch, dict(logs)))

    def on_batch_end(self, batch, logs=None):
        self.calls.append(("on_batch_end", batch, sorted(logs)))


@needs_training
def test_keras2_batch_hooks_run_through_the_default_train_batch_hooks():
    new, legacy = LegacyAndNew(), LegacyOnly()
    _classifier().fit(X, LABELS, batch_size=4, epochs=1, verbose=0, callbacks=[new, legacy])
    # As in Keras: an override of on_train_batch_end replaces the call to on_batch_end.
    assert new.calls == [("on_train_batch_end", 0), ("on_train_batch_end", 1)]
    assert legacy.calls == [
        ("on_batch_begin", 0, {}),
        ("on_batch_end", 0, ["accuracy", "loss"]),
        ("on_batch_begin", 1, {}),
        ("on_batch_end", 1, ["accuracy", "loss"]),
    ]


@needs_training
@pytest.mark.parametrize("mode", ["train", "test"])
def test_batch_hooks_run_once_per_steps_per_execution(mode):
    model, recorder = _classifier(steps_per_execution=2), Recorder()
    x, y = np.concatenate([X, X[:2]]), np.concatenate([LABELS, LABELS[:2]])  # 5 batches of 2
    if mode == "train":
        model.fit(x, y, batch_size=2, epochs=1, verbose=0, callbacks=[recorder])
    else:
        model.evaluate(x, y, batch_size=2, verbose=0, callbacks=[recorder])
    # Keras: begin at each chunk's first batch, end at its last; the short last chunk ends too.
    assert [c[1] for c in recorder.hooks(f"on_{mode}_batch_begin")] == [0, 2, 4]
    assert [c[1] for c in recorder.hooks(f"on_{mode}_batch_end")] == [1, 3, 4]
