"""The distillation losses: how far a student's outputs (or features) are from its teacher's.

A `DistillationLoss` compares teacher and student tensors of the same structure and returns a
scalar; `Distiller` weighs and sums them. `LogitsDistillation` compares temperature-softened
outputs, `FeatureDistillation` the outputs of two named intermediate layers (or the outputs).
"""

from tripod.backends import active
from tripod.backends.common import tree
from tripod.saving import registry, serialization
from tripod.training import losses
from tripod.training.losses.probabilistic import KLDivergence, kl_divergence

ops = active()


class DistillationLoss:
    """Base class of the distillation losses: subclass it and write `compute_loss`.

    A distillation loss maps the teacher's and the student's outputs (one tensor, or a list or
    dict of them for several outputs) to one scalar. `validate_outputs` and
    `validate_model_compatibility` let it refuse models or outputs it cannot compare.
    """

    def compute_loss(self, teacher_outputs, student_outputs, **kwargs):
        """The scalar loss between the teacher's outputs and the student's."""
        raise NotImplementedError(
            f"{type(self).__name__} must implement compute_loss(teacher_outputs, student_outputs)."
        )

    def validate_outputs(self, teacher_outputs, student_outputs):
        """Raise ValueError unless the teacher's and the student's outputs nest alike."""
        tree.assert_same_structure(teacher_outputs, student_outputs)

    def validate_model_compatibility(self, teacher, student):
        """Raise ValueError when this loss cannot compare `teacher` with `student` (none here)."""


class _PerOutputLosses(DistillationLoss):
    """A distillation loss applying one loss function per output (None skips that output)."""

    def _set_losses(self, loss, owner):
        """Resolve `loss` (a name, a loss, or a structure of them) and keep it as `self.loss`."""
        self.loss = tree.map_structure(_loss_function, loss)
        if all(fn is None for fn in tree.flatten(self.loss)):
            raise ValueError(f"{owner}: `loss` must hold at least one loss that is not None.")

    def _summed(self, apply, teacher_outputs, student_outputs):
        """The sum over outputs of `apply(loss_fn, teacher, student)`, skipping None losses."""
        values = tree.map_structure(
            lambda fn, t, s: None if fn is None else apply(fn, t, s),
            self.loss,
            teacher_outputs,
            student_outputs,
        )
        terms = [v for v in tree.flatten(values) if v is not None]
        return terms[0] if len(terms) == 1 else ops.sum(ops.stack(terms))

    def _loss_config(self):
        return serialization.serialize_keras_object(self.loss)

    @classmethod
    def from_config(cls, config):
        """The loss from `get_config`'s dict."""
        config = dict(config)
        config["loss"] = serialization.deserialize_keras_object(config["loss"])
        return cls(**config)


class LogitsDistillation(_PerOutputLosses):
    """Distills the teacher's outputs (logits) into the student's, softened by a temperature.

    Both models' logits are divided by `temperature`. With the KL divergence (the default), each
    becomes a softmax distribution and the loss is the batch mean of KL(teacher || student)
    times `temperature ** 2` (Hinton et al.'s scaling, which keeps gradient sizes independent
    of the temperature); any other loss compares the scaled logits directly.

    Args:
        temperature: positive number, the softening temperature (default 3.0; 3-5 is typical).
        loss: "kl_divergence" (default), another loss name or `Loss`, or a list or dict of them
            for a model of several outputs (None skips that output).

    Raises:
        ValueError: `temperature` is not a positive number, or every loss is None.

    Examples:
        >>> teacher_logits = np.array([[1.0, 2.0, 3.0]], "float32")
        >>> loss = tripod.distillation.LogitsDistillation(temperature=1.0)
        >>> round(float(loss.compute_loss(teacher_logits, teacher_logits)), 6)
        0.0
    """

    def __init__(self, temperature=3.0, loss="kl_divergence"):
        if isinstance(temperature, bool) or not isinstance(temperature, (int, float)):
            raise ValueError(  # noqa: TRY004 (Keras raises ValueError; ported code catches it)
                f"LogitsDistillation: `temperature` must be a number, received {temperature!r}."
            )
        if temperature <= 0:
            raise ValueError(
                f"LogitsDistillation: `temperature` must be positive, received {temperature}."
            )
        self.temperature = temperature
        self._set_losses(loss, "LogitsDistillation")

    def compute_loss(self, teacher_outputs, student_outputs, **kwargs):
        """The summed per-output loss between the temperature-scaled logits."""
        return self._summed(self._one_output, teacher_outputs, student_outputs)

    def _one_output(self, loss_fn, teacher_logits, student_logits):
        """One output's loss: KL of the softened softmaxes times T², else the loss of the
        scaled logits."""
        teacher_scaled = ops.divide(teacher_logits, self.temperature)
        student_scaled = ops.divide(student_logits, self.temperature)
        if not _is_kl_divergence(loss_fn):
            return ops.mean(loss_fn(teacher_scaled, student_scaled))
        teacher_probs = ops.softmax(teacher_scaled, axis=-1)
        student_probs = ops.softmax(student_scaled, axis=-1)
        return ops.mean(loss_fn(teacher_probs, student_probs)) * (self.temperature**2)

    def get_config(self):
        """The constructor arguments, serializable."""
        return {"temperature": self.temperature, "loss": self._loss_config()}


class FeatureDistillation(_PerOutputLosses):
    """Distills intermediate features: a named teacher layer's output into a student layer's.

    With no layer names the models' final outputs are compared. Naming layers needs functional
    or Sequential models (their layers' outputs are reachable); the two features must have the
    same shape unless the loss compares different sizes.

    Args:
        loss: "mse" (default), another loss name or `Loss`, or a list or dict of them for
            features of several tensors (None skips one).
        teacher_layer_name: str, the teacher layer whose output is the target (None: the
            teacher's output).
        student_layer_name: str, the student layer whose output is trained toward it (None:
            the student's output).

    Raises:
        ValueError: every loss is None; (when a `Distiller` is made) a named layer is missing
            or a model with named layers is subclassed.

    Examples:
        >>> loss = tripod.distillation.FeatureDistillation("mse", "hidden", "hidden")
        >>> float(loss.compute_loss(np.ones((2, 3)), np.zeros((2, 3))))
        1.0
    """

    def __init__(self, loss="mse", teacher_layer_name=None, student_layer_name=None):
        self.teacher_layer_name = teacher_layer_name
        self.student_layer_name = student_layer_name
        self._set_losses(loss, "FeatureDistillation")

    def validate_model_compatibility(self, teacher, student):
        """Raise ValueError when a named layer is absent or its model has no layer graph."""
        for role, model, layer_name in (
            ("teacher", teacher, self.teacher_layer_name),
            ("student", student, self.student_layer_name),
        ):
            if layer_name is None:
                continue
            if symbolic_inputs(model) is None:
                raise ValueError(
                    f"FeatureDistillation: `{role}_layer_name` needs a functional or Sequential "
                    f"{role} (a subclassed model has no layer outputs to read); {role} "
                    f"'{model.name}' is subclassed. Distill its final outputs instead "
                    f"({role}_layer_name=None) or use LogitsDistillation."
                )
            try:
                model.get_layer(name=layer_name)
            except ValueError as error:
                raise ValueError(f"FeatureDistillation: in the {role} model: {error}") from None

    def validate_outputs(self, teacher_outputs, student_outputs):
        """Raise ValueError unless the features and the loss structure nest alike."""
        super().validate_outputs(teacher_outputs, student_outputs)
        try:
            tree.assert_same_structure(self.loss, teacher_outputs)
        except ValueError as error:
            raise ValueError(
                "FeatureDistillation: the structure of `loss` does not match the features': "
                f"{error}"
            ) from None

    def compute_loss(self, teacher_outputs, student_outputs, **kwargs):
        """The summed per-feature loss (each loss's batch mean)."""
        return self._summed(lambda fn, t, s: ops.mean(fn(t, s)), teacher_outputs, student_outputs)

    def get_config(self):
        """The constructor arguments, serializable."""
        return {
            "loss": self._loss_config(),
            "teacher_layer_name": self.teacher_layer_name,
            "student_layer_name": self.student_layer_name,
        }


def symbolic_inputs(model):
    """A model's symbolic inputs, or None for a subclassed model (it has no layer graph)."""
    try:
        return model.inputs
    except (AttributeError, ValueError):
        return None


def _loss_function(identifier):
    """A loss name, config or callable resolved to the loss; None stays None."""
    if identifier is None:
        return None
    return losses.get(identifier)


def _is_kl_divergence(loss_fn):
    """Whether `loss_fn` is the KL divergence, as a function ("kl_divergence", "kld") or a
    `KLDivergence` loss: it compares distributions, so it gets softmaxes and the T² factor."""
    return loss_fn is kl_divergence or isinstance(loss_fn, KLDivergence)


for _cls in (DistillationLoss, LogitsDistillation, FeatureDistillation):
    registry.register_builtin(_cls, "keras.distillation")
