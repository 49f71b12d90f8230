"""Adamax: Adam with the infinity norm in place of the second moment."""

from tripod.backends import active
from tripod.training.optimizers.base import Optimizer, update_average

ops = active()


class Adamax(Optimizer):
    """Adamax (Kingma & Ba): steps divided by an exponentially weighted infinity norm of the
    gradients."""

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-07, weight_decay=None,
                 clipnorm=None, clipvalue=None, global_clipnorm=None, use_ema=False, ema_momentum=0.99,
                 ema_overwrite_frequency=None, loss_scale_factor=None, gradient_accumulation_steps=None,
                 name=None, **kwargs):  # fmt: skip
        super().__init__(learning_rate, weight_decay, clipnorm, clipvalue, global_clipnorm, use_ema, ema_momentum,
                         ema_overwrite_frequency, loss_scale_factor, gradient_accumulation_steps, name,
                         **kwargs)  # fmt: skip
        self.beta_1 = beta_1
        self.beta_2 = beta_2
        self.epsilon = epsilon

    def build(self, variables):
        if self.built:
            return
        super().build(variables)
        self._m, self._u = self.add_optimizer_variables(variables, ["momentum", "norm"])

    def step_rule(self, learning_rate):
        rate = ops.divide(
            learning_rate, ops.subtract(1.0, ops.power(self.beta_1, self._next_step()))
        )

        def update(gradient, variable):
            index = self._get_variable_index(variable)
            m, u = self._m[index], self._u[index]
            m = update_average(m, gradient, self.beta_1)
            u = u.assign(ops.maximum(ops.multiply(u, self.beta_2), ops.abs(gradient)))
            step_size = ops.divide(ops.multiply(m, rate), ops.add(u, self.epsilon))
            variable.assign(ops.subtract(variable, step_size))

        return update

    def get_config(self):
        return {
            **super().get_config(),
            "beta_1": self.beta_1,
            "beta_2": self.beta_2,
            "epsilon": self.epsilon,
        }
