"""Nadam: Adam with Nesterov momentum."""

from tripod.backends import active
from tripod.training.optimizers.base import Optimizer, update_average

ops = active()


class Nadam(Optimizer):
    """Nadam (Dozat): Adam whose momentum looks one step ahead, with Keras's momentum schedule
    `beta_1 * (1 - 0.5 * 0.96 ** t)` at step t."""

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
        self._u_product = self.add_variable((), initializer="ones", name="u_product")

    def _momentum_at(self, step):
        return ops.multiply(
            self.beta_1, ops.subtract(1.0, ops.multiply(0.5, ops.power(0.96, step)))
        )

    def step_rule(self, learning_rate):
        step = self._next_step()
        u_now, u_next = self._momentum_at(step), self._momentum_at(ops.add(step, 1.0))
        product = self._u_product.assign(ops.multiply(self._u_product, u_now))
        # m_hat = m * u_next / (1 - product * u_next) + g * (1 - u_now) / (1 - product)
        m_coefficient = ops.divide(u_next, ops.subtract(1.0, ops.multiply(product, u_next)))
        g_coefficient = ops.divide(ops.subtract(1.0, u_now), ops.subtract(1.0, product))
        v_coefficient = ops.divide(1.0, ops.subtract(1.0, ops.power(self.beta_2, step)))

        def update(gradient, variable):
            index = self._get_variable_index(variable)
            m, v = self._momentums[index], self._velocities[index]
            m = update_average(m, gradient, self.beta_1)
            v = update_average(v, ops.square(gradient), self.beta_2)
            m_hat = ops.add(ops.multiply(m, m_coefficient), ops.multiply(gradient, g_coefficient))
            denominator = ops.add(ops.sqrt(ops.multiply(v, v_coefficient)), self.epsilon)
            variable.assign(
                ops.subtract(variable, ops.divide(ops.multiply(m_hat, learning_rate), denominator))
            )

        return update

    def get_config(self):
        return {
            **super().get_config(),
            "beta_1": self.beta_1,
            "beta_2": self.beta_2,
            "epsilon": self.epsilon,
        }
