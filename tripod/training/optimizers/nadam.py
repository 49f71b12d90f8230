"""Nadam: Adam with Nesterov momentum."""

from tripod.backends import active
from tripod.training.optimizers.adaptive_moments import AdaptiveMomentOptimizer

ops = active()


class Nadam(AdaptiveMomentOptimizer):
    """Nadam (Dozat): Adam whose momentum looks one step ahead, with Keras's momentum schedule
    `beta_1 * (1 - 0.5 * 0.96 ** t)` at step t."""

    _elementwise = True

    def build(self, variables):
        if self.built:
            return
        super().build(variables)
        self._u_product = self.add_variable((), initializer="ones", name="u_product")

    def _momentum_at(self, step):
        return ops.multiply(
            self.beta_1, ops.subtract(1.0, ops.multiply(0.5, ops.power(0.96, step)))
        )

    def _prepare_step(self, learning_rate):
        """Advance the momentum product (once a step) and return this step's coefficients."""
        return self._coefficients(advance=True)

    def _prepared_for(self, learning_rate):
        """This step's coefficients; outside `apply` (a user's own loop calling `update_step`
        per variable) the momentum product is read, not advanced, so every variable sees the
        same step, as inside `apply`."""
        return self._coefficients(advance=False) if self._prepared is None else self._prepared

    def _coefficients(self, advance):
        """The coefficients of `m_hat = m * u_next / (1 - product * u_next) + g * (1 - u_now) /
        (1 - product)` and the second moment's bias correction, for the coming step."""
        step = self._next_step()
        u_now, u_next = self._momentum_at(step), self._momentum_at(ops.add(step, 1.0))
        product = ops.multiply(self._u_product, u_now)
        if advance:
            product = self._u_product.assign(product)
        m_coefficient = ops.divide(u_next, ops.subtract(1.0, ops.multiply(product, u_next)))
        g_coefficient = ops.divide(ops.subtract(1.0, u_now), ops.subtract(1.0, product))
        v_coefficient = ops.divide(1.0, ops.subtract(1.0, ops.power(self.beta_2, step)))
        return m_coefficient, g_coefficient, v_coefficient

    def update_step(self, gradient, variable, learning_rate):
        m_coefficient, g_coefficient, v_coefficient = self._prepared_for(learning_rate)
        m, v = self._update_moments(gradient, self._get_variable_index(variable))
        m_hat = ops.add(ops.multiply(m, m_coefficient), ops.multiply(gradient, g_coefficient))
        denominator = ops.add(ops.sqrt(ops.multiply(v, v_coefficient)), self.epsilon)
        variable.assign_sub(ops.divide(ops.multiply(m_hat, learning_rate), denominator))
