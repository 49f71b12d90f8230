"""tripod: one Keras-3-style model definition that runs, trains and saves on JAX, PyTorch or
TensorFlow, chosen by `TRIPOD_BACKEND`."""

import sys

from tripod.api import backend, config, ops, random

for _name, _module in {"backend": backend, "config": config, "ops": ops, "random": random}.items():
    sys.modules[f"tripod.{_name}"] = _module

__version__ = "0.1.0"

__all__ = ["backend", "config", "ops", "random"]
