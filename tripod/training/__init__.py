"""Models and training: Model, Sequential, Functional, and (soon) the fit loop."""

from tripod.training.functional import Functional
from tripod.training.model import Model
from tripod.training.sequential import Sequential

Model._functional_class = Functional

__all__ = ["Functional", "Model", "Sequential"]
