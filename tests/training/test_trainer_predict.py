"""predict / predict_on_batch on the active backend: what they return and which hooks they call."""

import numpy as np
import pytest

import tripod as keras
from tripod import layers, ops

rng = np.random.default_rng(3)
X = rng.standard_normal((25, 4)).astype("float32")


def dense_model():
    keras.utils.set_random_seed(2)
    return keras.Sequential([keras.Input((4,)), layers.Dense(3)])


def expected(model, x=X):
    kernel, bias = model.get_weights()
    return x.astype("float32") @ kernel + bias


def identity_model():
    return keras.Sequential([keras.Input((4,)), layers.Identity()])


@pytest.mark.parametrize("batch_size", [None, 10, 25])
def test_predict_matches_numpy_for_one_batch_or_several(batch_size):
    model = dense_model()
    out = model.predict(X, batch_size=batch_size, verbose=0)
    assert isinstance(out, np.ndarray) and out.shape == (25, 3) and out.dtype == np.float32
    np.testing.assert_allclose(out, expected(model), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize(
    "predict",
    [
        lambda m, x: m.predict(x, verbose=0),
        lambda m, x: m.predict(x, batch_size=10, verbose=0),
        lambda m, x: m.predict_on_batch(x),
    ],
    ids=["one_batch", "batches", "on_batch"],
)
def test_outputs_are_arrays_the_caller_owns(predict):
    # An identity model hands its input straight back: the result must still be a fresh,
    # writable array, not a view of the input or of a backend buffer.
    model = identity_model()
    out = predict(model, X)
    assert isinstance(out, np.ndarray) and out.flags.writeable
    assert not np.shares_memory(out, X)
    out[:] = -1.0
    np.testing.assert_array_equal(predict(model, X), X)


def test_dict_outputs_keep_their_names_in_one_batch_or_several():
    inputs = keras.Input((4,))
    model = keras.Model(
        inputs, {"a": layers.Dense(1, name="a")(inputs), "b": layers.Dense(2, name="b")(inputs)}
    )
    whole = model.predict(X, verbose=0)
    parts = model.predict(X, batch_size=10, verbose=0)
    on_batch = model.predict_on_batch(X)
    for out in (whole, parts, on_batch):
        assert sorted(out) == ["a", "b"]
        assert out["a"].shape == (25, 1) and out["b"].shape == (25, 2)
        np.testing.assert_allclose(
            out["b"], whole["b"], rtol=1e-5, atol=1e-7
        )  # batch shapes pick different kernels


def test_inputs_are_standardized_without_the_backend():
    model = dense_model()
    want = expected(model)
    for x in (X.astype("float64"), ops.convert_to_tensor(X)):
        np.testing.assert_allclose(model.predict(x, verbose=0), want, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(
        model.predict_on_batch(X.astype("float64")), want, rtol=1e-5, atol=1e-5
    )


class Recorder(keras.callbacks.Callback):
    """Records every predict hook it receives."""

    def __init__(self):
        super().__init__()
        self.seen = []

    def on_predict_begin(self, logs=None):
        self.seen.append("begin")

    def on_predict_batch_begin(self, batch, logs=None):
        self.seen.append(f"batch_begin {batch}")

    def on_predict_batch_end(self, batch, logs=None):
        self.seen.append(f"batch_end {batch} {tuple(logs['outputs'].shape)}")

    def on_predict_end(self, logs=None):
        self.seen.append("end")


class BeginEndOnly(keras.callbacks.Callback):
    """Overrides no batch hook: predict may skip those, never the begin / end hooks."""

    def __init__(self):
        super().__init__()
        self.seen = []

    def on_predict_begin(self, logs=None):
        self.seen.append(("begin", self.model, self.params["steps"]))

    def on_predict_end(self, logs=None):
        self.seen.append(("end", self.model, self.params["steps"]))


def test_callbacks_get_every_predict_hook_in_order():
    model = dense_model()
    recorder, quiet = Recorder(), BeginEndOnly()
    model.predict(X, batch_size=10, verbose=0, callbacks=[recorder, quiet])
    assert recorder.seen == [
        "begin",
        "batch_begin 0",
        "batch_end 0 (10, 3)",
        "batch_begin 1",
        "batch_end 1 (10, 3)",
        "batch_begin 2",
        "batch_end 2 (5, 3)",
        "end",
    ]
    assert quiet.seen == [("begin", model, 3), ("end", model, 3)]


def test_verbose_shows_the_progress_bar_and_zero_is_silent(capsys):
    model = dense_model()
    model.predict(X, batch_size=10, verbose=0)
    assert capsys.readouterr().out == ""
    model.predict(X, batch_size=10, verbose=1)
    assert "3/3" in capsys.readouterr().out


def test_predict_of_nothing_is_an_error():
    with pytest.raises(ValueError, match="no data"):
        dense_model().predict((x for x in []), verbose=0)
