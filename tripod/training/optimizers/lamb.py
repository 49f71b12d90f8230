"""LAMB: Adam steps rescaled per variable by the trust ratio ||w|| / ||step||."""

from tripod.backends import active
from tripod.training.optimizers.adaptive_moments import AdaptiveMomentOptimizer
from tripod.training.optimizers.update_pipeline import norm

ops = active()


class Lamb(AdaptiveMomentOptimizer):
    """LAMB (You et al.): the bias-corrected Adam direction, scaled for each variable so its size
    is proportional to the variable's norm (large-batch training)."""

    def _prepare_step(self, learning_rate):
        step = self._next_step()
        m_scale = ops.divide(1.0, ops.subtract(1.0, ops.power(self.beta_1, step)))
        v_scale = ops.divide(1.0, ops.subtract(1.0, ops.power(self.beta_2, step)))
        return m_scale, v_scale

    def update_step(self, gradient, variable, learning_rate):
        m_scale, v_scale = self._prepared_for(learning_rate)
        m, v = self._update_moments(gradient, self._get_variable_index(variable))
        denominator = ops.add(ops.sqrt(ops.multiply(v, v_scale)), self.epsilon)
        direction = ops.divide(ops.multiply(m, m_scale), denominator)
        w_norm, d_norm = norm(variable), norm(direction)
        trusted = ops.logical_and(ops.greater(w_norm, 0.0), ops.greater(d_norm, 0.0))
        ratio = ops.where(trusted, ops.divide(w_norm, d_norm), 1.0)
        variable.assign_sub(ops.multiply(direction, ops.multiply(ratio, learning_rate)))
