"""Adagrad and Adadelta: steps scaled by accumulated squared gradients."""

from tripod.backends import active
from tripod.training.optimizers.base import Optimizer, update_average

ops = active()


class Adagrad(Optimizer):
    """Adagrad (Duchi et al.): `w -= lr * g / sqrt(sum of g^2 + epsilon)`, the sum starting at
    `initial_accumulator_value`."""

    _elementwise = True
    _kernel_name = "adagrad"

    def __init__(
        self,
        learning_rate=0.001,
        initial_accumulator_value=0.1,
        epsilon=1e-07,
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
        self.initial_accumulator_value = initial_accumulator_value
        self.epsilon = epsilon

    def build(self, variables):
        if self.built:
            return
        super().build(variables)
        self._accumulators_of_squares = self.add_optimizer_variables(
            variables, "accumulator", self.initial_accumulator_value
        )

    def update_step(self, gradient, variable, learning_rate):
        accumulator = self._accumulators_of_squares[self._get_variable_index(variable)]
        total = accumulator.assign(ops.add(accumulator, ops.square(gradient)))
        step = ops.divide(
            ops.multiply(gradient, learning_rate), ops.sqrt(ops.add(total, self.epsilon))
        )
        variable.assign(ops.subtract(variable, step))

    def _kernel_arguments(self, learning_rate):
        numbers = {"learning_rate": float(learning_rate), "epsilon": self.epsilon}
        return (self._accumulators_of_squares,), numbers

    def get_config(self):
        return {
            **super().get_config(),
            "initial_accumulator_value": self.initial_accumulator_value,
            "epsilon": self.epsilon,
        }


class Adadelta(Optimizer):
    """Adadelta (Zeiler): steps scaled by the ratio of running RMS of past steps to running RMS
    of gradients, so the learning rate is only a final multiplier."""

    _elementwise = True

    def __init__(
        self,
        learning_rate=0.001,
        rho=0.95,
        epsilon=1e-07,
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
        self.rho = rho
        self.epsilon = epsilon

    def build(self, variables):
        if self.built:
            return
        super().build(variables)
        self._grads_squared, self._deltas_squared = self.add_optimizer_variables(
            variables, ["accumulated_grad", "accumulated_delta_var"]
        )

    def update_step(self, gradient, variable, learning_rate):
        index = self._get_variable_index(variable)
        grads_squared, deltas_squared = self._grads_squared[index], self._deltas_squared[index]
        mean_g2 = update_average(grads_squared, ops.square(gradient), self.rho)
        ratio = ops.sqrt(
            ops.divide(ops.add(deltas_squared, self.epsilon), ops.add(mean_g2, self.epsilon))
        )
        delta = ops.multiply(ratio, gradient)
        update_average(deltas_squared, ops.square(delta), self.rho)
        variable.assign(ops.subtract(variable, ops.multiply(delta, learning_rate)))

    def get_config(self):
        return {**super().get_config(), "rho": self.rho, "epsilon": self.epsilon}
