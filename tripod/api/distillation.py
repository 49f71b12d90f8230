"""`tripod.distillation`: knowledge distillation from a teacher model into a student."""

from tripod.training.distillation import (
    DistillationLoss,
    Distiller,
    FeatureDistillation,
    LogitsDistillation,
)

__all__ = ["DistillationLoss", "Distiller", "FeatureDistillation", "LogitsDistillation"]
