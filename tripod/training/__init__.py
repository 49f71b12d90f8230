"""Models and training: Model, Sequential, Functional; the fit, evaluate and predict loops
(`trainer.py`), losses, metrics, optimizers, callbacks and data adapters."""

from tripod.training.functional import Functional
from tripod.training.model import Model
from tripod.training.sequential import Sequential

Model._functional_class = Functional

__all__ = ["Functional", "Model", "Sequential"]
