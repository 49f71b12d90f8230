"""The argument checks of `Distiller`: each raises a ValueError naming the argument at fault
(ValueError even for a wrong type, as Keras raises it: ported code catches that)."""

from tripod.training.distillation.losses import DistillationLoss, symbolic_inputs


def check_models(teacher, student, model_class):
    """Raise unless both are models whose symbolic inputs and outputs agree in shape and dtype
    (a subclassed model, having none, is not compared)."""
    for role, model in (("teacher", teacher), ("student", student)):
        if not isinstance(model, model_class):
            raise ValueError(  # noqa: TRY004
                f"Distiller: `{role}` must be a tripod Model, received {type(model).__name__}."
            )
    if symbolic_inputs(teacher) is None or symbolic_inputs(student) is None:
        return
    for kind in ("inputs", "outputs"):
        _check_same_specs(getattr(teacher, kind), getattr(student, kind), kind)


def _check_same_specs(teacher_tensors, student_tensors, kind):
    """Raise unless the two lists of symbolic tensors match in number, shape and dtype."""
    if len(teacher_tensors) != len(student_tensors):
        raise ValueError(
            f"Distiller: the teacher has {len(teacher_tensors)} {kind} and the student "
            f"{len(student_tensors)}; they must have the same {kind}."
        )
    for t, s in zip(teacher_tensors, student_tensors):
        if len(t.shape) != len(s.shape) or any(
            a is not None and b is not None and a != b for a, b in zip(t.shape, s.shape)
        ):
            raise ValueError(
                f"Distiller: the teacher's and the student's {kind} have incompatible shapes: "
                f"teacher {tuple(t.shape)}, student {tuple(s.shape)}."
            )
        if t.dtype != s.dtype:
            raise ValueError(
                f"Distiller: the teacher's and the student's {kind} must have the same dtype: "
                f"teacher {t.dtype}, student {s.dtype}."
            )


def check_student_loss_weight(weight):
    """`weight` as a float, after checking it is a number in [0, 1]."""
    if isinstance(weight, bool) or not isinstance(weight, (int, float)):
        raise ValueError(  # noqa: TRY004
            f"Distiller: `student_loss_weight` must be a number, received {weight!r}."
        )
    if not 0.0 <= weight <= 1.0:
        raise ValueError(
            f"Distiller: `student_loss_weight` must be between 0 and 1, received {weight}."
        )
    return float(weight)


def losses_and_weights(distillation_losses, weights):
    """(list of losses, list of float weights): one loss becomes a list of one; the weights
    default to 1.0 each and must be as many as the losses."""
    if distillation_losses is None:
        raise ValueError(
            "Distiller: `distillation_losses` cannot be None; pass a distillation loss (e.g. "
            "LogitsDistillation() or FeatureDistillation()) or a list of them."
        )
    if not isinstance(distillation_losses, (list, tuple)):
        distillation_losses = [distillation_losses]
    for loss in distillation_losses:
        if not isinstance(loss, DistillationLoss):
            raise ValueError(  # noqa: TRY004
                "Distiller: every item of `distillation_losses` must be a "
                f"tripod.distillation.DistillationLoss, received {type(loss).__name__}."
            )
    if weights is None:
        return list(distillation_losses), [1.0] * len(distillation_losses)
    if isinstance(weights, (int, float)):
        weights = [weights]
    if len(weights) != len(distillation_losses):
        raise ValueError(
            f"Distiller: `distillation_loss_weights` has {len(weights)} weights for "
            f"{len(distillation_losses)} distillation losses; pass one weight per loss."
        )
    return list(distillation_losses), [float(w) for w in weights]
