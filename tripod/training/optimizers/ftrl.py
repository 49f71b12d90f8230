"""FTRL-Proximal: follow the regularized leader, suited to sparse, wide models."""

from tripod.backends import active
from tripod.training.optimizers.base import Optimizer

ops = active()


def _non_negative(argument, value):
    if value < 0:
        raise ValueError(
            f"`{argument}` needs to be positive or zero. Received: {argument}={value}."
        )
    return value


class Ftrl(Optimizer):
    """FTRL-Proximal (McMahan et al.) with L1, L2 and L2-shrinkage regularization; `beta` adds
    to the L2 strength as `beta / (2 * lr)`."""

    _elementwise = True

    def __init__(
        self,
        learning_rate=0.001,
        learning_rate_power=-0.5,
        initial_accumulator_value=0.1,
        l1_regularization_strength=0.0,
        l2_regularization_strength=0.0,
        l2_shrinkage_regularization_strength=0.0,
        beta=0.0,
        weight_decay=None,
        clipnorm=None,
        clipvalue=None,
        global_clipnorm=None,
        use_ema=False,
        ema_momentum=0.99,
        ema_overwrite_frequency=None,
        loss_scale_factor=None,
        gradient_accumulation_steps=None,
        name=None,
        **kwargs,
    ):
        super().__init__(
            learning_rate=learning_rate,
            weight_decay=weight_decay,
            clipnorm=clipnorm,
            clipvalue=clipvalue,
            global_clipnorm=global_clipnorm,
            use_ema=use_ema,
            ema_momentum=ema_momentum,
            ema_overwrite_frequency=ema_overwrite_frequency,
            loss_scale_factor=loss_scale_factor,
            gradient_accumulation_steps=gradient_accumulation_steps,
            name=name,
            **kwargs,
        )
        if learning_rate_power > 0:
            raise ValueError(
                f"`learning_rate_power` needs to be negative or zero. Received: learning_rate_power={learning_rate_power}."
            )
        self.learning_rate_power = learning_rate_power
        self.initial_accumulator_value = _non_negative(
            "initial_accumulator_value", initial_accumulator_value
        )
        self.l1_regularization_strength = _non_negative(
            "l1_regularization_strength", l1_regularization_strength
        )
        self.l2_regularization_strength = _non_negative(
            "l2_regularization_strength", l2_regularization_strength
        )
        self.l2_shrinkage_regularization_strength = _non_negative(
            "l2_shrinkage_regularization_strength", l2_shrinkage_regularization_strength
        )
        self.beta = beta

    def build(self, variables):
        if self.built:
            return
        super().build(variables)
        self._accumulators_of_squares, self._linears = self.add_optimizer_variables(
            variables, ["accumulator", "linear"], [self.initial_accumulator_value, 0.0]
        )

    def _prepare_step(self, learning_rate):
        """`1 / learning_rate` and the L2 strength of the quadratic term, `2 * l2 + beta / lr`."""
        inverse_rate = ops.divide(1.0, learning_rate)
        quadratic_l2 = ops.add(
            2.0 * self.l2_regularization_strength, ops.multiply(inverse_rate, self.beta)
        )
        return inverse_rate, quadratic_l2

    def update_step(self, gradient, variable, learning_rate):
        inverse_rate, quadratic_l2 = self._prepared_for(learning_rate)
        power, l1 = -self.learning_rate_power, self.l1_regularization_strength
        index = self._get_variable_index(variable)
        accumulator, linear = self._accumulators_of_squares[index], self._linears[index]
        shrunk = ops.add(
            gradient, ops.multiply(variable, 2.0 * self.l2_shrinkage_regularization_strength)
        )
        new_accumulator = ops.add(accumulator, ops.square(gradient))
        scale_now, scale_before = ops.power(new_accumulator, power), ops.power(accumulator, power)
        sigma = ops.multiply(ops.subtract(scale_now, scale_before), inverse_rate)
        z = linear.assign(ops.add(linear, ops.subtract(shrunk, ops.multiply(sigma, variable))))
        quadratic = ops.add(ops.multiply(scale_now, inverse_rate), quadratic_l2)
        variable.assign(ops.divide(ops.subtract(ops.clip(z, -l1, l1), z), quadratic))
        accumulator.assign(new_accumulator)

    def get_config(self):
        return {
            **super().get_config(),
            "learning_rate_power": self.learning_rate_power,
            "initial_accumulator_value": self.initial_accumulator_value,
            "l1_regularization_strength": self.l1_regularization_strength,
            "l2_regularization_strength": self.l2_regularization_strength,
            "l2_shrinkage_regularization_strength": self.l2_shrinkage_regularization_strength,
            "beta": self.beta,
        }
