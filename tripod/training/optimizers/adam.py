"""Adam and AdamW: steps scaled by running averages of the gradient and of its square."""

import numpy as np

from tripod.backends import active
from tripod.training.optimizers.adaptive_moments import AdaptiveMomentOptimizer

ops = active()


class Adam(AdaptiveMomentOptimizer):
    """Adam (Kingma & Ba): bias-corrected first and second moment estimates; `amsgrad` divides
    by the largest second moment seen so far.

    Each step moves a variable by `lr * m_hat / (sqrt(v_hat) + epsilon)`, where `m_hat` and
    `v_hat` are the bias-corrected running means of the gradient and of its square, so the
    first steps move each entry by about `lr` whatever the gradient's scale.

    Args:
        learning_rate: float, schedule or function giving the step size (default 0.001).
        beta_1: float in [0, 1), the decay of the gradient's running mean (default 0.9).
        beta_2: float in [0, 1), the decay of the squared gradient's running mean (default
            0.999).
        epsilon: float, added to the denominator for stability (default 1e-7).
        amsgrad: bool, use the AMSGrad variant.
        **kwargs: the options every optimizer takes (`weight_decay`, `clipnorm`,
            `clipvalue`, `global_clipnorm`, `use_ema`, `ema_momentum`,
            `ema_overwrite_frequency`, `loss_scale_factor`, `gradient_accumulation_steps`,
            `name`), described under `Optimizer`.

    Examples:
        >>> optimizer = tripod.optimizers.Adam(learning_rate=0.1)
        >>> w = tripod.Variable(np.array([1.0, 1.0]))
        >>> optimizer.apply([np.array([0.5, -20.0])], [w])
        >>> print(np.round(tripod.ops.convert_to_numpy(w), 3))
        [0.9 1.1]
    """

    _elementwise = True
    _kernel_name = "adam"

    def __init__(
        self,
        learning_rate=0.001,
        beta_1=0.9,
        beta_2=0.999,
        epsilon=1e-07,
        amsgrad=False,
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
            beta_1=beta_1,
            beta_2=beta_2,
            epsilon=epsilon,
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

    def _prepare_step(self, learning_rate):
        return self._step_size(learning_rate, self._next_step())

    def update_step(self, gradient, variable, learning_rate):
        alpha = self._prepared_for(learning_rate)
        index = self._get_variable_index(variable)
        m, v = self._update_moments(gradient, index)
        if self.amsgrad:
            v_hat = self._velocity_hats[index]
            v = v_hat.assign(ops.maximum(v_hat, v))
        variable.assign_sub(ops.divide(ops.multiply(m, alpha), ops.add(ops.sqrt(v), self.epsilon)))

    def _kernel_arguments(self, learning_rate):
        if self.amsgrad:
            return None
        step_size = self._step_size(
            _host_float32(learning_rate), _host_float32(self._iterations.value + 1), np
        )
        numbers = {
            "step_size": float(step_size[0]),
            "beta_1": self.beta_1,
            "beta_2": self.beta_2,
            "epsilon": self.epsilon,
        }
        return (self._first_moments, self._second_moments), numbers

    def get_config(self):
        return {**super().get_config(), "amsgrad": self.amsgrad}


class AdamW(Adam):
    """Adam with decoupled weight decay (Loshchilov & Hutter), on by default.

    Each step first shrinks every variable by `learning_rate * weight_decay * variable`, then
    takes Adam's step; the decay does not pass through the moment estimates, unlike an L2
    penalty added to the loss.

    Args:
        learning_rate: float, schedule or function giving the step size (default 0.001).
        weight_decay: float, the decay rate (default 0.004).
        beta_1: float in [0, 1), the decay of the gradient's running mean (default 0.9).
        beta_2: float in [0, 1), the decay of the squared gradient's running mean (default
            0.999).
        epsilon: float, added to the denominator for stability (default 1e-7).
        amsgrad: bool, use the AMSGrad variant.
        **kwargs: the options every optimizer takes (`clipnorm`,
            `clipvalue`, `global_clipnorm`, `use_ema`, `ema_momentum`,
            `ema_overwrite_frequency`, `loss_scale_factor`, `gradient_accumulation_steps`,
            `name`), described under `Optimizer`.

    Raises:
        ValueError: `weight_decay` is None, or a common option is invalid.

    Examples:
        >>> optimizer = tripod.optimizers.AdamW(learning_rate=0.1, weight_decay=0.5)
        >>> w = tripod.Variable(np.array([1.0]))
        >>> optimizer.apply([np.array([2.0])], [w])
        >>> print(np.round(tripod.ops.convert_to_numpy(w), 3))  # 1 - 0.1 * 0.5 - 0.1
        [0.85]
    """

    def __init__(
        self,
        learning_rate=0.001,
        weight_decay=0.004,
        beta_1=0.9,
        beta_2=0.999,
        epsilon=1e-07,
        amsgrad=False,
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
        if weight_decay is None:
            raise ValueError("Argument `weight_decay` must be a float. Received: weight_decay=None")
        super().__init__(
            learning_rate=learning_rate,
            beta_1=beta_1,
            beta_2=beta_2,
            epsilon=epsilon,
            amsgrad=amsgrad,
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


def _host_float32(value):
    """A scalar as a one-entry float32 NumPy array: NumPy computes with it, and with the Python
    numbers next to it, in float32 (as `ops` does with a float32 tensor) on NumPy 1 and 2."""
    return np.full(1, float(value), np.float32)
