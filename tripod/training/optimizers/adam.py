"""Adam and AdamW: steps scaled by running averages of the gradient and of its square."""

import numpy as np

from tripod.backends import active
from tripod.training.optimizers.adaptive_moments import AdaptiveMomentOptimizer

ops = active()


class Adam(AdaptiveMomentOptimizer):
    """Adam (Kingma & Ba): bias-corrected first and second moment estimates; `amsgrad` divides
    by the largest second moment seen so far."""

    _elementwise = True
    _kernel_name = "adam"

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-07, amsgrad=False,
                 weight_decay=None, clipnorm=None, clipvalue=None, global_clipnorm=None, use_ema=False,
                 ema_momentum=0.99, ema_overwrite_frequency=None, loss_scale_factor=None,
                 gradient_accumulation_steps=None, name=None, **kwargs):  # fmt: skip
        super().__init__(learning_rate, beta_1, beta_2, epsilon, weight_decay, clipnorm, clipvalue, global_clipnorm,
                         use_ema, ema_momentum, ema_overwrite_frequency, loss_scale_factor,
                         gradient_accumulation_steps, name, **kwargs)  # fmt: skip
        self.amsgrad = amsgrad

    def build(self, variables):
        if self.built:
            return
        super().build(variables)
        if self.amsgrad:
            self._velocity_hats = self.add_optimizer_variables(variables, "velocity_hat")

    def _step_size(self, learning_rate, step, math=ops):
        """The learning rate with both bias corrections folded in, `learning_rate *
        sqrt(1 - beta_2^step) / (1 - beta_1^step)`, computed with `math`: `ops` on tensors, or
        NumPy on float32 host numbers for a kernel (the same float32 roundings)."""
        correction = math.sqrt(math.subtract(1.0, math.power(self.beta_2, step)))
        return math.divide(
            math.multiply(learning_rate, correction),
            math.subtract(1.0, math.power(self.beta_1, step)),
        )

    def step_rule(self, learning_rate):
        alpha = self._step_size(learning_rate, self._next_step())

        def update(gradient, variable):
            index = self._get_variable_index(variable)
            m, v = self._update_moments(gradient, index)
            if self.amsgrad:
                v_hat = self._velocity_hats[index]
                v = v_hat.assign(ops.maximum(v_hat, v))
            variable.assign_sub(
                ops.divide(ops.multiply(m, alpha), ops.add(ops.sqrt(v), self.epsilon))
            )

        return update

    def _kernel_arguments(self, learning_rate):
        if self.amsgrad:
            return None
        step_size = self._step_size(
            _host_float32(learning_rate), _host_float32(self._iterations.value + 1), np
        )
        numbers = {"step_size": float(step_size[0]), "beta_1": self.beta_1,
                   "beta_2": self.beta_2, "epsilon": self.epsilon}  # fmt: skip
        return (self._first_moments, self._second_moments), numbers

    def get_config(self):
        return {**super().get_config(), "amsgrad": self.amsgrad}


class AdamW(Adam):
    """Adam with decoupled weight decay (Loshchilov & Hutter), on by default."""

    def __init__(self, learning_rate=0.001, weight_decay=0.004, beta_1=0.9, beta_2=0.999, epsilon=1e-07,
                 amsgrad=False, clipnorm=None, clipvalue=None, global_clipnorm=None, use_ema=False,
                 ema_momentum=0.99, ema_overwrite_frequency=None, loss_scale_factor=None,
                 gradient_accumulation_steps=None, name=None, **kwargs):  # fmt: skip
        if weight_decay is None:
            raise ValueError("Argument `weight_decay` must be a float. Received: weight_decay=None")
        super().__init__(learning_rate, beta_1, beta_2, epsilon, amsgrad, weight_decay, clipnorm, clipvalue,
                         global_clipnorm, use_ema, ema_momentum, ema_overwrite_frequency, loss_scale_factor,
                         gradient_accumulation_steps, name, **kwargs)  # fmt: skip


def _host_float32(value):
    """A scalar as a one-entry float32 NumPy array: NumPy computes with it, and with the Python
    numbers next to it, in float32 (as `ops` does with a float32 tensor) on NumPy 1 and 2."""
    return np.full(1, float(value), np.float32)
