"""tripod: one Keras-3-style model definition that runs, trains and saves on JAX, PyTorch or
TensorFlow, chosen by `TRIPOD_BACKEND`."""

import importlib
import sys

# First: it notes whether Keras was imported before tripod (the frameworks may import it after).
from tripod.api.stand_in import use_as_keras

# isort: split
# Each public namespace is a module at its public path (tripod/<name>.py or tripod/<name>/),
# holding only re-exports of the names whose code lives in api/, training/, layers/, ...
from tripod import (
    activations,
    applications,
    backend,
    callbacks,
    config,
    constraints,
    datasets,
    distillation,
    distribution,
    dtype_policies,
    export,
    initializers,
    layers,
    legacy,
    losses,
    metrics,
    mixed_precision,
    models,
    ops,
    optimizers,
    preprocessing,
    quantizers,
    random,
    regularizers,
    saving,
    tree,
    utils,
    visualization,
)
from tripod.api import missing as _missing
from tripod.backends import active as _active
from tripod.backends.common.devices import device
from tripod.backends.common.keras_tensor import KerasTensor
from tripod.backends.common.name_scope import name_scope
from tripod.backends.common.seed import SeedGenerator
from tripod.backends.common.stateless import StatelessScope
from tripod.backends.common.symbolic_scope import SymbolicScope
from tripod.layers.dtype_policies import DTypePolicy, FloatDTypePolicy
from tripod.layers.initializers import Initializer
from tripod.layers.input_layer import Input
from tripod.layers.input_spec import InputSpec
from tripod.layers.layer import Layer
from tripod.layers.operation import Operation
from tripod.layers.quantization.quantizers import Quantizer
from tripod.layers.regularizers import Regularizer
from tripod.layers.remat import RematScope, remat
from tripod.training.function import Function
from tripod.training.losses import Loss
from tripod.training.metrics import Metric
from tripod.training.model import Model
from tripod.training.optimizers import Optimizer
from tripod.training.sequential import Sequential

#: the active backend's `Variable` class
Variable = _active().Variable

#: `value_and_grad(fn, variables, has_aux=False)`: gradients of fn's value with respect to
#: `variables`, the same code on every backend (see docs/differences.md)
value_and_grad = _active().value_and_grad


def __getattr__(name):
    """`tripod.wrappers`, imported on first use: it imports scikit-learn, which takes 1-2 s."""
    if name == "wrappers":
        return importlib.import_module("tripod.wrappers")
    raise AttributeError(f"module 'tripod' has no attribute {name!r}", name=name)


# Keras 3 names tripod lacks raise an error saying so (tripod/api/missing.py); the hook asks
# `__getattr__` above first.
_missing.install(sys.modules[__name__])

__version__ = "0.1.0"


def version():
    """The tripod version string."""
    return __version__
