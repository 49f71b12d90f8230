"""`tripod.models`: Model, Sequential and model utilities; the code lives in tripod/training/ and
tripod/saving/model_io.py."""

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
