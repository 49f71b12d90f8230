"""Adamax: Adam with the infinity norm in place of the second moment."""

from tripod.backends import active
from tripod.training.optimizers.adaptive_moments import AdaptiveMomentOptimizer
from tripod.training.optimizers.base import update_average

ops = active()


class Adamax(AdaptiveMomentOptimizer):
    """Adamax (Kingma & Ba): steps divided by an exponentially weighted infinity norm of the
    gradients."""

    _elementwise = True

    _slot_names = ("momentum", "norm")

    def _prepare_step(self, learning_rate):
        return ops.divide(
            learning_rate, ops.subtract(1.0, ops.power(self.beta_1, self._next_step()))
        )

    def update_step(self, gradient, variable, learning_rate):
        rate = self._prepared_for(learning_rate)
        index = self._get_variable_index(variable)
        m, u = self._first_moments[index], self._second_moments[index]
        m = update_average(m, gradient, self.beta_1)
        u = u.assign(ops.maximum(ops.multiply(u, self.beta_2), ops.abs(gradient)))
        variable.assign_sub(ops.divide(ops.multiply(m, rate), ops.add(u, self.epsilon)))
