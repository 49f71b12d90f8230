"""Custom layers for the parity tests that misbehave on purpose on some backends.

The parity workers import this module (`imports=["tests.testing.backend_layers"]`) to register
the classes before loading a checkpoint that uses them.
"""

import tripod
from tripod import layers, ops

PACKAGE = "tripod_parity_tests"


@tripod.saving.register_keras_serializable(PACKAGE)
class ScaleOnBackend(layers.Layer):
    """Multiplies by `1 + error` on `backend`, passes its input through elsewhere."""

    def __init__(self, backend="jax", error=1e-3, **kwargs):
        super().__init__(**kwargs)
        self.backend, self.error = backend, error

    def call(self, x):
        return x * (1 + self.error) if tripod.config.backend() == self.backend else x

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        return {**super().get_config(), "backend": self.backend, "error": self.error}


@tripod.saving.register_keras_serializable(PACKAGE)
class FailOnBackend(layers.Layer):
    """Raises on `backend` when called on real values, passes its input through elsewhere."""

    def __init__(self, backend="torch", **kwargs):
        super().__init__(**kwargs)
        self.backend = backend

    def call(self, x):
        if tripod.config.backend() == self.backend and not isinstance(x, tripod.KerasTensor):
            raise RuntimeError(f"FailOnBackend: deliberate failure on {self.backend}")
        return x

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        return {**super().get_config(), "backend": self.backend}


@tripod.saving.register_keras_serializable(PACKAGE)
class TwoLayerNet(tripod.Model):
    """A subclassed model (no functional graph): Dense then tanh."""

    def __init__(self, units=3, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.dense = layers.Dense(units)

    def call(self, x):
        return ops.tanh(self.dense(x))

    def get_config(self):
        return {**super().get_config(), "units": self.units}
