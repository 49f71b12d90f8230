"""Adam and AdamW: steps scaled by running averages of the gradient and of its square."""

from tripod.backends import active
from tripod.training.optimizers.adaptive_moments import AdaptiveMomentOptimizer

ops = active()


class Adam(AdaptiveMomentOptimizer):
    """Adam (Kingma & Ba): bias-corrected first and second moment estimates; `amsgrad` divides
    by the largest second moment seen so far."""

    _elementwise = True

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

    def step_rule(self, learning_rate):
        step = self._next_step()
        correction = ops.sqrt(ops.subtract(1.0, ops.power(self.beta_2, step)))
        alpha = ops.divide(
            ops.multiply(learning_rate, correction), ops.subtract(1.0, ops.power(self.beta_1, step))
        )

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
