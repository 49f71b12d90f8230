"""A custom layer and a custom model: write them once, train them, save them, load them back.

`GatedDense` is a subclassed Layer: it makes its weights in `build` with `add_weight` (once the
input size is known), computes (x W + b) * sigmoid(x V + c) in `call`, and lists its constructor
arguments in `get_config`. `GatedRegressor` is a subclassed Model made of two of them and a Dense
head. Both are registered with `register_keras_serializable`, which is what lets
`tripod.saving.load_model` rebuild them from a `.keras` file without any code in the file. The
model learns a non-linear function of two variables; the reloaded model predicts the same.

Run: python examples/custom_layer.py   (pick the backend with TRIPOD_BACKEND=...)
"""

import os
import tempfile

import numpy as np

import tripod as keras
from tripod import layers, ops


@keras.saving.register_keras_serializable(package="examples")
class GatedDense(keras.Layer):
    """A dense layer whose output is scaled, unit by unit, by a learned sigmoid gate."""

    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.units = units

    def build(self, input_shape):
        size = input_shape[-1]
        self.kernel = self.add_weight(
            shape=(size, self.units), initializer="glorot_uniform", name="kernel"
        )
        self.bias = self.add_weight(shape=(self.units,), initializer="zeros", name="bias")
        self.gate_kernel = self.add_weight(
            shape=(size, self.units), initializer="glorot_uniform", name="gate_kernel"
        )
        self.gate_bias = self.add_weight(shape=(self.units,), initializer="ones", name="gate_bias")

    def call(self, inputs):
        value = ops.matmul(inputs, self.kernel) + self.bias
        gate = ops.sigmoid(ops.matmul(inputs, self.gate_kernel) + self.gate_bias)
        return value * gate

    def compute_output_shape(self, input_shape):
        return (*input_shape[:-1], self.units)

    def get_config(self):
        return {**super().get_config(), "units": self.units}


@keras.saving.register_keras_serializable(package="examples")
class GatedRegressor(keras.Model):
    """Two GatedDense layers and a linear head, as a subclassed Model."""

    def __init__(self, hidden=32, **kwargs):
        super().__init__(**kwargs)
        self.hidden = hidden
        self.first = GatedDense(hidden)
        self.second = GatedDense(hidden)
        self.head = layers.Dense(1)

    def call(self, inputs):
        return self.head(self.second(self.first(inputs)))

    def get_config(self):
        return {**super().get_config(), "hidden": self.hidden}


def make_data(n, rng):
    """y = sin(3 x0) + x0 x1 on points drawn from [-1, 1]^2."""
    X = rng.uniform(-1, 1, (n, 2)).astype("float32")
    y = np.sin(3 * X[:, :1]) + X[:, :1] * X[:, 1:]
    return X, y.astype("float32")


def main(epochs=40):
    backend = keras.config.backend()
    print(f"tripod {keras.__version__} on the {backend} backend")
    keras.utils.set_random_seed(0)
    rng = np.random.default_rng(0)
    X, y = make_data(2000, rng)
    X_test, y_test = make_data(500, rng)
    model = GatedRegressor(hidden=32)
    if backend == "numpy":
        print("the numpy backend is inference-only: saving the untrained model instead")
        model(X[:1])  # a subclassed model builds on its first call
    else:
        model.compile(optimizer=keras.optimizers.Adam(0.01), loss="mse")
        history = model.fit(X, y, batch_size=64, epochs=epochs, verbose=0)
        print(
            f"training loss {history.history['loss'][0]:.4f} -> {history.history['loss'][-1]:.4f}"
        )
    predictions = model.predict(X_test, verbose=0)
    test_loss = float(np.mean((predictions - y_test) ** 2))
    print(f"test MSE {test_loss:.4f} (variance of the target: {y_test.var():.4f})")

    with tempfile.TemporaryDirectory() as scratch:
        path = os.path.join(scratch, "gated_regressor.keras")
        model.save(path)
        reloaded = keras.saving.load_model(path)
    difference = float(np.max(np.abs(predictions - reloaded.predict(X_test, verbose=0))))
    names = [type(layer).__name__ for layer in reloaded.layers]
    print(f"reloaded a {type(reloaded).__name__} made of {names}")
    print(f"largest prediction difference after reloading: {difference:.2e}")
    return test_loss, float(y_test.var()), difference


if __name__ == "__main__":
    main()
