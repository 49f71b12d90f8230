"""`Distiller`: a model that trains a student on labels and on a frozen teacher's outputs."""

from tripod.backends import active
from tripod.saving import registry, serialization
from tripod.training.distillation import checks
from tripod.training.metrics import Mean
from tripod.training.model import Model

ops = active()
#: the key of a model's final output among the features its extractor returns
FINAL_OUTPUT = "final_output"


class Distiller(Model):
    """Knowledge distillation: trains `student` to match labels and a frozen `teacher`.

    The loss `fit` minimizes is `student_loss_weight * student_loss + (1 - student_loss_weight)
    * distillation_loss`, where the student loss compares the student's outputs with the labels
    (the `loss` given to `compile`) and the distillation loss is the weighted sum of the
    `distillation_losses` between the teacher's outputs or features and the student's. The
    teacher is frozen (`trainable = False`) and runs in inference mode; calling the distiller,
    and `predict`, give the student's outputs. `fit` logs `student_loss`, `distillation_loss`
    and `total_loss` besides `loss`. After training, use `distiller.student` on its own.

    Args:
        teacher: a trained `tripod.Model`, the source of knowledge.
        student: a `tripod.Model` with the teacher's inputs and outputs, the model trained.
        distillation_losses: a `tripod.distillation.DistillationLoss` (`LogitsDistillation`,
            `FeatureDistillation`, a subclass) or a list of them.
        distillation_loss_weights: one float per distillation loss (default 1.0 each).
        student_loss_weight: float in [0, 1], the share of the student (label) loss (default
            0.5); 1.0 trains on labels alone, 0.0 on the teacher alone.
        name: str, the model's name (default "distiller").
        **kwargs: `trainable` or `dtype`, passed to `Model`.

    Raises:
        ValueError: a model is not a `tripod.Model`, their input or output shapes or dtypes
            differ, a weight is out of range or the weights do not match the losses, or a
            distillation loss refuses the models (e.g. a layer name it cannot find).

    Examples:
        >>> def mlp(width):
        ...     inputs = tripod.Input((4,))
        ...     hidden = tripod.layers.Dense(width, activation="relu")(inputs)
        ...     return tripod.Model(inputs, tripod.layers.Dense(3)(hidden))
        >>> distiller = tripod.distillation.Distiller(
        ...     teacher=mlp(16),
        ...     student=mlp(4),
        ...     distillation_losses=tripod.distillation.LogitsDistillation(temperature=2.0),
        ... )
        >>> distiller.teacher.trainable
        False
        >>> distiller.predict(np.ones((2, 4)), verbose=0).shape
        (2, 3)
    """

    # The feature extractors share the teacher's and the student's layers: not more state.
    _UNTRACKED = Model._UNTRACKED | {"_teacher_feature_extractor", "_student_feature_extractor"}

    def __init__(
        self,
        teacher,
        student,
        distillation_losses,
        distillation_loss_weights=None,
        student_loss_weight=0.5,
        name="distiller",
        **kwargs,
    ):
        super().__init__(name=name, **kwargs)
        checks.check_models(teacher, student, Model)
        self.teacher = teacher
        self.student = student
        self.student_loss_weight = checks.check_student_loss_weight(student_loss_weight)
        self.distillation_losses, self.distillation_loss_weights = checks.losses_and_weights(
            distillation_losses, distillation_loss_weights
        )
        for distillation_loss in self.distillation_losses:
            distillation_loss.validate_model_compatibility(teacher, student)
        self._teacher_feature_extractor = _feature_extractor(teacher, "teacher_layer_name", self)
        self._student_feature_extractor = _feature_extractor(student, "student_layer_name", self)
        self.teacher.trainable = False
        self.student_loss_tracker = Mean(name="student_loss")
        self.distillation_loss_tracker = Mean(name="distillation_loss")
        self.total_loss_tracker = Mean(name="total_loss")

    def compile(self, optimizer="adam", loss=None, metrics=None, **kwargs):
        """Configure training: `loss` (required) is the student's loss against the labels;
        `metrics` (a list) track the student's outputs; other arguments as `Model.compile`."""
        if loss is None:
            raise ValueError(
                "Distiller.compile: `loss` cannot be None; pass the student's loss against the "
                'labels (e.g. "sparse_categorical_crossentropy").'
            )
        if metrics is not None and not isinstance(metrics, (list, tuple)):
            raise ValueError(
                f"Distiller.compile: `metrics` must be a list or tuple, received {metrics!r}."
            )
        super().compile(optimizer=optimizer, loss=loss, metrics=metrics, **kwargs)

    def call(self, inputs, training=None):
        """The student's outputs."""
        return self.student(inputs, training=training)

    def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None, training=True):
        """The weighted sum of the student loss and the distillation losses (updating the
        `student_loss`, `distillation_loss` and `total_loss` metrics)."""
        if y_pred is None:
            y_pred = self(x, training=training)
        weight = self.student_loss_weight
        student_loss = 0.0
        if weight > 0.0 and y is not None:
            student_loss = self._compile_loss(y, y_pred, sample_weight)
        distillation_loss = 0.0
        if weight < 1.0:
            distillation_loss = self._distillation_loss(x, y_pred, training)
        total = ops.add(
            ops.multiply(weight, student_loss), ops.multiply(1.0 - weight, distillation_loss)
        )
        for added in self.student.losses:  # e.g. the student's weight regularizers
            total = ops.add(total, ops.cast(added, ops.dtype(total)))
        self.student_loss_tracker.update_state(student_loss)
        self.distillation_loss_tracker.update_state(distillation_loss)
        self.total_loss_tracker.update_state(total)
        return total

    def _distillation_loss(self, x, y_pred, training):
        """The weighted sum of the distillation losses, on one teacher and one student pass."""
        teacher_features = self._features(self._teacher_feature_extractor, self.teacher, x, False)
        teacher_features = {k: ops.stop_gradient(v) for k, v in teacher_features.items()}
        if self._student_feature_extractor is None:
            student_features = {FINAL_OUTPUT: y_pred}
        else:
            student_features = self._student_feature_extractor(x, training=training)
        total = 0.0
        for loss, weight in zip(self.distillation_losses, self.distillation_loss_weights):
            teacher_out = teacher_features[_feature_key(loss, "teacher_layer_name")]
            student_out = student_features[_feature_key(loss, "student_layer_name")]
            loss.validate_outputs(teacher_out, student_out)
            value = loss.compute_loss(teacher_out, student_out)
            if len(ops.shape(value)) > 0:
                raise ValueError(
                    f"Distiller: {type(loss).__name__}.compute_loss must return a scalar; it "
                    f"returned shape {tuple(ops.shape(value))}."
                )
            total = ops.add(total, ops.multiply(weight, value))
        return total

    @staticmethod
    def _features(extractor, model, x, training):
        """{layer name or "final_output": tensor} of `model` on `x`."""
        if extractor is None:
            return {FINAL_OUTPUT: model(x, training=training)}
        return extractor(x, training=training)

    def get_config(self):
        """The constructor arguments, the teacher and student serialized whole."""
        config = super().get_config()
        config.update(
            {
                "teacher": serialization.serialize_keras_object(self.teacher),
                "student": serialization.serialize_keras_object(self.student),
                "distillation_losses": [
                    serialization.serialize_keras_object(loss) for loss in self.distillation_losses
                ],
                "distillation_loss_weights": list(self.distillation_loss_weights),
                "student_loss_weight": self.student_loss_weight,
            }
        )
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """A distiller from `get_config`'s dict: the teacher, student and losses rebuilt."""
        config = dict(config)
        for key in ("teacher", "student", "distillation_losses"):
            config[key] = serialization.deserialize_keras_object(config[key], custom_objects)
        return cls(**config)


def _feature_key(loss, attribute):
    """The feature a distillation loss compares: the layer it names, else the final output."""
    return getattr(loss, attribute, None) or FINAL_OUTPUT


def _feature_extractor(model, attribute, distiller):
    """A functional model giving `model`'s final output and the outputs of the layers the
    distillation losses name through `attribute`, or None when none names a layer."""
    names = []
    for loss in distiller.distillation_losses:
        name = getattr(loss, attribute, None)
        if name and name not in names:
            names.append(name)
    if not names:
        return None
    outputs = {FINAL_OUTPUT: model.output}
    outputs.update({name: model.get_layer(name=name).output for name in names})
    return Model(inputs=model.input, outputs=outputs, name=f"{model.name}_feature_extractor")


registry.register_builtin(Distiller, "keras.distillation")
