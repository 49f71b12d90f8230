"""Serialization and saving with custom objects: a registered layer and activation, a `.keras`
file reloaded three ways (registration, `custom_objects`, `custom_object_scope`), weights-only
files, and the architecture alone as JSON.

Run: TRIPOD_BACKEND=torch python examples/guides/saving_custom_objects.py
"""

import os
import tempfile

import numpy as np

import tripod as keras
from tripod import layers, ops


@keras.saving.register_keras_serializable(package="guides")
class Gate(layers.Layer):
    """`x * sigmoid(x @ w)`: a learned, per-feature gate."""

    def __init__(self, sharpness=1.0, **kwargs):
        super().__init__(**kwargs)
        self.sharpness = sharpness

    def build(self, input_shape):
        self.w = self.add_weight(
            shape=(input_shape[-1], input_shape[-1]), initializer="glorot_uniform", name="w"
        )

    def call(self, inputs):
        return inputs * ops.sigmoid(self.sharpness * ops.matmul(inputs, self.w))

    def get_config(self):
        return {**super().get_config(), "sharpness": self.sharpness}


@keras.saving.register_keras_serializable(package="guides", name="soft_square")
def soft_square(x):
    """`x**2 / (1 + |x|)`: a custom activation."""
    return ops.square(x) / (1.0 + ops.abs(x))


def build():
    """Dense -> Gate -> Dense(activation=soft_square), compiled."""
    inputs = keras.Input((6,))
    hidden = Gate(sharpness=2.0)(layers.Dense(8)(inputs))
    model = keras.Model(inputs, layers.Dense(2, activation=soft_square)(hidden))
    model.compile(optimizer="adam", loss="mse")
    return model


def reload_differences(model, path, x):
    """{way of loading: largest prediction difference from `model`}."""
    expected = model.predict(x, verbose=0)
    custom = {"Gate": Gate, "soft_square": soft_square}
    loaded = {
        "registered": keras.saving.load_model(path),
        "custom_objects": keras.saving.load_model(path, custom_objects=custom),
    }
    with keras.saving.custom_object_scope(custom):
        loaded["custom_object_scope"] = keras.saving.load_model(path)
    return {
        way: float(np.max(np.abs(m.predict(x, verbose=0) - expected))) for way, m in loaded.items()
    }


def main(epochs=2):
    """Return ({way of reloading: largest prediction difference}, JSON architecture rebuilt?)."""
    keras.utils.set_random_seed(0)
    x = np.random.default_rng(0).normal(size=(32, 6)).astype("float32")
    model = build()
    if keras.config.backend() != "numpy":
        model.fit(x, x[:, :2] ** 2, epochs=epochs, verbose=0)
    folder = tempfile.mkdtemp()
    path = os.path.join(folder, "gated.keras")
    model.save(path)
    differences = reload_differences(model, path, x)
    weights_path = os.path.join(folder, "gated.weights.h5")
    model.save_weights(weights_path)
    fresh = build()
    fresh.load_weights(weights_path)
    differences["weights_only"] = float(
        np.max(np.abs(fresh.predict(x, verbose=0) - model.predict(x, verbose=0)))
    )
    rebuilt = keras.models.model_from_json(model.to_json())
    same_architecture = [type(a) for a in rebuilt.layers] == [type(b) for b in model.layers]
    print(
        f"{keras.config.backend()}: {differences}; JSON architecture rebuilt: {same_architecture}"
    )
    return differences, same_architecture


if __name__ == "__main__":
    main()
