"""LAMB: Adam steps rescaled per variable by the trust ratio ||w|| / ||step||."""

from tripod.backends import active
from tripod.training.optimizers.base import Optimizer, norm, update_average

ops = active()


class Lamb(Optimizer):
    """LAMB (You et al.): the bias-corrected Adam direction, scaled for each variable so its size
    is proportional to the variable's norm (large-batch training)."""

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
        self._momentums, self._velocities = self.add_optimizer_variables(
            variables, ["momentum", "velocity"]
        )

    def step_rule(self, learning_rate):
        step = self._next_step()
        m_scale = ops.divide(1.0, ops.subtract(1.0, ops.power(self.beta_1, step)))
        v_scale = ops.divide(1.0, ops.subtract(1.0, ops.power(self.beta_2, step)))

        def update(gradient, variable):
            index = self._get_variable_index(variable)
            m, v = self._momentums[index], self._velocities[index]
            m = update_average(m, gradient, self.beta_1)
            v = update_average(v, ops.square(gradient), self.beta_2)
            denominator = ops.add(ops.sqrt(ops.multiply(v, v_scale)), self.epsilon)
            direction = ops.divide(ops.multiply(m, m_scale), denominator)
            w_norm, d_norm = norm(variable), norm(direction)
            trusted = ops.logical_and(ops.greater(w_norm, 0.0), ops.greater(d_norm, 0.0))
            ratio = ops.where(trusted, ops.divide(w_norm, d_norm), 1.0)
            variable.assign(
                ops.subtract(variable, ops.multiply(direction, ops.multiply(ratio, learning_rate)))
            )

        return update

    def get_config(self):
        return {
            **super().get_config(),
            "beta_1": self.beta_1,
            "beta_2": self.beta_2,
            "epsilon": self.epsilon,
        }
