"""`tripod.optimizers`: optimizers and their learning-rate `schedules`; the code lives in tripod/training/optimizers/."""

from tripod.optimizers import legacy, schedules
from tripod.training.optimizers import deserialize, get, serialize
from tripod.training.optimizers.adafactor import Adafactor
from tripod.training.optimizers.adagrad import Adadelta, Adagrad
from tripod.training.optimizers.adam import Adam, AdamW
from tripod.training.optimizers.adamax import Adamax
from tripod.training.optimizers.base import Optimizer
from tripod.training.optimizers.ftrl import Ftrl
from tripod.training.optimizers.lamb import Lamb
from tripod.training.optimizers.lion import Lion
from tripod.training.optimizers.loss_scale_optimizer import LossScaleOptimizer
from tripod.training.optimizers.multi_optimizer import MultiOptimizer, OptimizerMap
from tripod.training.optimizers.muon import Muon
from tripod.training.optimizers.nadam import Nadam
from tripod.training.optimizers.rmsprop import RMSprop
from tripod.training.optimizers.schedule_free_adamw import ScheduleFreeAdamW
from tripod.training.optimizers.sgd import SGD

__all__ = [
    "SGD",
    "Adadelta",
    "Adafactor",
    "Adagrad",
    "Adam",
    "AdamW",
    "Adamax",
    "Ftrl",
    "Lamb",
    "Lion",
    "LossScaleOptimizer",
    "MultiOptimizer",
    "Muon",
    "Nadam",
    "Optimizer",
    "OptimizerMap",
    "RMSprop",
    "ScheduleFreeAdamW",
    "deserialize",
    "get",
    "legacy",
    "schedules",
    "serialize",
]
