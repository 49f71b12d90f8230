"""`tripod.models`: Model, Sequential and model utilities."""

from tripod.saving.model_io import load_model, model_from_json, save_model
from tripod.training.cloning import clone_model
from tripod.training.functional import Functional
from tripod.training.model import Model
from tripod.training.sequential import Sequential

__all__ = [
    "Functional",
    "Model",
    "Sequential",
    "clone_model",
    "load_model",
    "model_from_json",
    "save_model",
]
