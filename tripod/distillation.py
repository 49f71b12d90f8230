"""`tripod.distillation`: knowledge distillation from a teacher model into a student; the code lives
in tripod/training/distillation/."""

from tripod.training.distillation import (
    DistillationLoss,
    Distiller,
    FeatureDistillation,
    LogitsDistillation,
)

__all__ = ["DistillationLoss", "Distiller", "FeatureDistillation", "LogitsDistillation"]
