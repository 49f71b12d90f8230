"""RMSprop: steps divided by a running root mean square of the gradients."""

from tripod.backends import active
from tripod.training.optimizers.base import Optimizer, update_average

ops = active()


class RMSprop(Optimizer):
    """RMSprop (Hinton): `w -= lr * g / sqrt(mean(g^2) + epsilon)` with a running mean of
    weight `rho`; `centered` subtracts the squared running mean of g, `momentum` smooths the
    steps.

    Args:
        learning_rate: float, schedule or function giving the step size (default 0.001).
        rho: float in [0, 1), the decay of the squared gradient's running mean (default 0.9).
        momentum: float in [0, 1], momentum of the steps (default 0, none).
        epsilon: float, added inside the square root for stability (default 1e-7).
        centered: bool, divide by the gradient's running variance instead of its running mean
            square (can stabilize training, at the cost of one more slot).
        **kwargs: the options every optimizer takes (`weight_decay`, `clipnorm`,
            `clipvalue`, `global_clipnorm`, `use_ema`, `ema_momentum`,
            `ema_overwrite_frequency`, `loss_scale_factor`, `gradient_accumulation_steps`,
            `name`), described under `Optimizer`.

    Examples:
        >>> optimizer = tripod.optimizers.RMSprop(learning_rate=0.01)
        >>> w = tripod.Variable(np.array([1.0]))
        >>> optimizer.apply([np.array([4.0])], [w])
        >>> print(np.round(tripod.ops.convert_to_numpy(w), 3))  # 1 - 0.01 / sqrt(1 - 0.9)
        [0.968]
    """

    _elementwise = True
    _kernel_name = "rmsprop"

    def __init__(
        self,
        learning_rate=0.001,
        rho=0.9,
        momentum=0.0,
        epsilon=1e-07,
        centered=False,
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
        self.momentum = momentum
        self.epsilon = epsilon
        self.centered = centered

    def build(self, variables):
        if self.built:
            return
        super().build(variables)
        self._velocities = self.add_optimizer_variables(variables, "velocity")
        if self.momentum > 0:
            self._momentums = self.add_optimizer_variables(variables, "momentum")
        if self.centered:
            self._average_gradients = self.add_optimizer_variables(variables, "average_gradient")

    def update_step(self, gradient, variable, learning_rate):
        index = self._get_variable_index(variable)
        velocity = self._velocities[index]
        mean_square = update_average(velocity, ops.square(gradient), self.rho)
        if self.centered:
            average = self._average_gradients[index]
            mean = update_average(average, gradient, self.rho)
            mean_square = ops.subtract(mean_square, ops.square(mean))
        step = ops.multiply(
            ops.multiply(gradient, learning_rate), ops.rsqrt(ops.add(mean_square, self.epsilon))
        )
        if self.momentum > 0:
            momentum = self._momentums[index]
            step = momentum.assign(ops.add(ops.multiply(momentum, self.momentum), step))
        variable.assign(ops.subtract(variable, step))

    def _kernel_arguments(self, learning_rate):
        momentums = self._momentums if self.momentum > 0 else []
        averages = self._average_gradients if self.centered else []
        numbers = {
            "learning_rate": float(learning_rate),
            "rho": self.rho,
            "momentum": self.momentum,
            "epsilon": self.epsilon,
            "centered": self.centered,
        }
        return (self._velocities, momentums, averages), numbers

    def get_config(self):
        return {
            **super().get_config(),
            "rho": self.rho,
            "momentum": self.momentum,
            "epsilon": self.epsilon,
            "centered": self.centered,
        }
