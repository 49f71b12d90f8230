"""Lion: sign-of-momentum steps, one slot per variable."""

from tripod.backends import active
from tripod.training.optimizers.base import Optimizer, moving_average, update_average

ops = active()


class Lion(Optimizer):
    """Lion (Chen et al.): `w -= lr * sign(beta_1 * m + (1 - beta_1) * g)`, then the momentum
    `m` moves towards g with weight `beta_2`."""

    _elementwise = True

    def __init__(
        self,
        learning_rate=0.001,
        beta_1=0.9,
        beta_2=0.99,
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
        if not 0 < beta_1 <= 1:
            raise ValueError(
                "Argument `beta_1` must be in the (0, 1] range; at 0 Lion degenerates to SignSGD. "
                f"Received: beta_1={beta_1}."
            )
        self.beta_1 = beta_1
        self.beta_2 = beta_2

    def build(self, variables):
        if self.built:
            return
        super().build(variables)
        self._momentums = self.add_optimizer_variables(variables, "momentum")

    def update_step(self, gradient, variable, learning_rate):
        momentum = self._momentums[self._get_variable_index(variable)]
        direction = ops.sign(moving_average(momentum, gradient, self.beta_1))
        variable.assign(ops.subtract(variable, ops.multiply(direction, learning_rate)))
        update_average(momentum, gradient, self.beta_2)

    def get_config(self):
        return {**super().get_config(), "beta_1": self.beta_1, "beta_2": self.beta_2}
