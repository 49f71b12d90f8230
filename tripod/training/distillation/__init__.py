"""Knowledge distillation (`tripod.distillation`): a `Distiller` model that trains a student on
labels and on a frozen teacher, with the losses comparing their outputs or features."""

from tripod.training.distillation.distiller import Distiller
from tripod.training.distillation.losses import (
    DistillationLoss,
    FeatureDistillation,
    LogitsDistillation,
)

__all__ = ["DistillationLoss", "Distiller", "FeatureDistillation", "LogitsDistillation"]
