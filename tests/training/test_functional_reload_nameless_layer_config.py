"""Reloading a functional model whose custom layer's `get_config` leaves out `name` (issue 14):
the rebuilt layer gets a fresh auto name, but the graph is keyed by the config entry's name."""

import numpy as np

import tripod as keras
from tripod import layers, ops

X = np.array([[1.0, 2.0, 3.0], [-1.0, 0.5, 2.0]], "float32")


class NamelessDense(layers.Layer):
    """A custom layer whose config holds only its own argument, as in the Keras guides."""

    def __init__(self, units=2, **kwargs):
        super().__init__(**kwargs)
        self.units = units

    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1], self.units), initializer="random_normal")

    def call(self, x):
        return ops.matmul(x, self.w)

    def get_config(self):
        return {"units": self.units}


CUSTOM = {"NamelessDense": NamelessDense}


def _model():
    """Input -> NamelessDense -> Dense, plus a second NamelessDense called twice (two nodes)."""
    inputs = keras.Input((3,))
    shared = NamelessDense(3)
    hidden = shared(shared(inputs))
    outputs = layers.Dense(2)(NamelessDense(4)(hidden))
    return keras.Model(inputs, outputs)


def test_from_config_rebuilds_the_graph_and_predicts_the_same():
    model = _model()
    restored = keras.Model.from_config(model.get_config(), custom_objects=CUSTOM)
    assert [type(layer).__name__ for layer in restored.layers] == [
        "InputLayer",
        "NamelessDense",
        "NamelessDense",
        "Dense",
    ]
    assert len(restored.layers[1]._inbound_nodes) == 2  # the shared layer's two calls
    restored.set_weights(model.get_weights())
    np.testing.assert_allclose(
        restored.predict(X, verbose=0), model.predict(X, verbose=0), rtol=1e-6
    )


def test_save_and_load_model_round_trip(tmp_path):
    model = _model()
    path = str(tmp_path / "nameless.keras")
    model.save(path)
    restored = keras.saving.load_model(path, custom_objects=CUSTOM)
    np.testing.assert_allclose(
        restored.predict(X, verbose=0), model.predict(X, verbose=0), rtol=1e-6
    )
