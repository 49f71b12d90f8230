"""Making new layers and models by subclassing: weights in `build`, a loss from `add_loss`,
serialization with `get_config`, and a `Model` subclass trained with `fit`.

Run: TRIPOD_BACKEND=torch python examples/guides/subclassing.py
"""

import numpy as np

import tripod as keras
from tripod import layers, ops


class Affine(layers.Layer):
    """`x @ w + b`, its weights created lazily from the input's last dimension."""

    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.units = units

    def build(self, input_shape):
        self.w = self.add_weight(
            shape=(input_shape[-1], self.units), initializer="glorot_uniform", name="w"
        )
        self.b = self.add_weight(shape=(self.units,), initializer="zeros", name="b")

    def call(self, inputs):
        return ops.matmul(inputs, self.w) + self.b

    def get_config(self):
        return {**super().get_config(), "units": self.units}


class SparseActivity(layers.Layer):
    """Passes its input through and adds `rate * mean(|x|)` to the model's losses."""

    def __init__(self, rate=1e-3, **kwargs):
        super().__init__(**kwargs)
        self.rate = rate

    def call(self, inputs):
        self.add_loss(self.rate * ops.mean(ops.abs(inputs)))
        return inputs


class TwoLayerRegressor(keras.Model):
    """Affine -> relu -> SparseActivity -> Affine(1), as a subclassed model."""

    def __init__(self, hidden=16, **kwargs):
        super().__init__(**kwargs)
        self.hidden = Affine(hidden)
        self.activity = SparseActivity()
        self.out = Affine(1)

    def call(self, inputs):
        return self.out(self.activity(ops.relu(self.hidden(inputs))))


def main(epochs=30):
    """Train the subclassed model; return (first loss, last loss, #weights, #losses, config match)."""
    keras.utils.set_random_seed(0)
    rng = np.random.default_rng(0)
    x = rng.normal(size=(256, 4)).astype("float32")
    y = (np.sin(x[:, :1]) + x[:, 1:2] ** 2).astype("float32")
    model = TwoLayerRegressor()
    model.compile(optimizer=keras.optimizers.Adam(0.02), loss="mse")
    history = model.fit(x, y, batch_size=32, epochs=epochs, verbose=0)
    model(x[:2])
    layer = Affine(3, name="probe")
    same_config = Affine.from_config(layer.get_config()).get_config() == layer.get_config()
    losses = history.history["loss"]
    print(f"{keras.config.backend()}: loss {losses[0]:.3f} -> {losses[-1]:.3f}, "
          f"{len(model.weights)} weights, {len(model.losses)} activity loss")  # fmt: skip
    return losses[0], losses[-1], len(model.trainable_weights), len(model.losses), same_config


if __name__ == "__main__":
    main()
