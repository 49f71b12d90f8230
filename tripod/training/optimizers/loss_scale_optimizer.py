"""LossScaleOptimizer: dynamic loss scaling around another optimizer (mixed precision)."""

from tripod.backends import active
from tripod.backends.common import stateless
from tripod.saving import serialization
from tripod.training.optimizers.base import Optimizer

ops = active()

_INNER_OPTIONS = (
    "weight_decay",
    "clipnorm",
    "clipvalue",
    "global_clipnorm",
    "use_ema",
    "ema_momentum",
    "ema_overwrite_frequency",
    "loss_scale_factor",
    "gradient_accumulation_steps",
)


class LossScaleOptimizer(Optimizer):
    """Wraps `inner_optimizer`: the loss is multiplied by a dynamic scale (`scale_loss`), the
    gradients divided by it. A step whose gradients are not all finite is skipped and the scale
    halved; after `dynamic_growth_steps` finite steps in a row the scale doubles."""

    def __init__(
        self, inner_optimizer, initial_scale=32768.0, dynamic_growth_steps=2000, name=None, **kwargs
    ):
        for option in _INNER_OPTIONS:
            if kwargs.get(option) not in (None, False):
                raise ValueError(
                    f"LossScaleOptimizer does not support `{option}`. Instead, set `{option}` on the `inner_optimizer`."
                )
            kwargs.pop(option, None)
        if not isinstance(inner_optimizer, Optimizer):
            raise TypeError(
                f"`inner_optimizer` must be an Optimizer instance. Received: {inner_optimizer!r}"
            )
        super().__init__(learning_rate=0.0, name=name, **kwargs)
        self.inner_optimizer = inner_optimizer
        self.initial_scale = initial_scale
        self.dynamic_growth_steps = dynamic_growth_steps
        self.step_counter = self._add_state(0, "step_counter", "int64")
        self.dynamic_scale = self._add_state(float(initial_scale), "dynamic_scale", "float32")

    def build(self, variables):
        if self.built:
            return
        self.inner_optimizer.build(variables)
        self._trainable_variables = list(variables)
        self.built = True

    def _choose_plan(self):
        self.inner_optimizer._choose_plan()  # the inner optimizer updates the variables

    @property
    def variables(self):
        return self._variables + self.inner_optimizer.variables

    def slot_references(self):
        return self.inner_optimizer.slot_references()

    @property
    def iterations(self):
        return self.inner_optimizer.iterations

    @property
    def learning_rate(self):
        return self.inner_optimizer.learning_rate

    @learning_rate.setter
    def learning_rate(self, value):
        self.inner_optimizer.learning_rate = value

    def scale_loss(self, loss):
        """The loss multiplied by the current dynamic scale (`fit` differentiates this; a
        custom step takes its gradients of `scale_loss(loss)` too)."""
        return ops.multiply(loss, self.dynamic_scale)

    def apply(self, grads, trainable_variables=None):
        """Unscale, then apply `grads` through the inner optimizer if all are finite (else skip
        the step); then grow or shrink the scale. Pure: both outcomes are selected by value."""
        if trainable_variables is not None and not self.built:
            self.build(trainable_variables)
        grads = list(grads)
        present = [g for g in grads if g is not None]
        finite = (
            ops.all(ops.stack([ops.all(ops.isfinite(g)) for g in present])) if present else True
        )
        scale = self.dynamic_scale.value
        with stateless.StatelessScope() as pending:
            self.inner_optimizer.apply(
                [None if g is None else ops.divide(g, scale) for g in grads], trainable_variables
            )
        for variable, value in pending.updates:
            variable.assign(ops.where(finite, value, variable.value))
        counter = ops.add(self.step_counter.value, 1)
        grow = ops.logical_and(finite, ops.greater_equal(counter, self.dynamic_growth_steps))
        new_scale = ops.where(
            finite, ops.where(grow, ops.multiply(scale, 2.0), scale), ops.divide(scale, 2.0)
        )
        self.dynamic_scale.assign(new_scale)
        self.step_counter.assign(
            ops.where(ops.logical_and(finite, ops.logical_not(grow)), counter, 0)
        )

    def finalize_variable_values(self, var_list):
        self.inner_optimizer.finalize_variable_values(var_list)

    def exclude_from_weight_decay(self, var_list=None, var_names=None):
        self.inner_optimizer.exclude_from_weight_decay(var_list, var_names)

    def get_config(self):
        return {
            "name": self.name,
            "inner_optimizer": serialization.serialize_keras_object(self.inner_optimizer),
            "initial_scale": self.initial_scale,
            "dynamic_growth_steps": self.dynamic_growth_steps,
        }

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        config["inner_optimizer"] = serialization.deserialize_keras_object(
            config["inner_optimizer"], custom_objects
        )
        return cls(**config)
