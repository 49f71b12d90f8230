"""ScheduleFreeAdamW: AdamW without a learning-rate schedule, by interpolation and averaging."""

from tripod.backends import active
from tripod.training.optimizers.base import Optimizer, update_average

ops = active()


class ScheduleFreeAdamW(Optimizer):
    """Schedule-Free AdamW (Defazio et al., 2024). Per variable it keeps `z` (the slot
    `momentum`, starting at the variable's value), where Adam-normalised gradient steps land,
    and the Adam second moment (`velocity`). The average `x` of the `z`s (weight `1/t`) is
    recovered from the variable, which holds `y = (1 - beta_1) * z + beta_1 * x`. With
    `warmup_steps`, the rate grows linearly from 0 over that many updates."""

    _elementwise = True

    def __init__(
        self,
        learning_rate=0.0025,
        beta_1=0.9,
        beta_2=0.999,
        epsilon=1e-08,
        warmup_steps=0,
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
                "ScheduleFreeAdamW: `beta_1` must be in (0, 1] (the variable is recovered by "
                f"dividing by it). Received: beta_1={beta_1!r}"
            )
        if not isinstance(warmup_steps, int) or isinstance(warmup_steps, bool) or warmup_steps < 0:
            raise ValueError(
                f"ScheduleFreeAdamW: `warmup_steps` must be an integer >= 0. Received: warmup_steps={warmup_steps!r}"
            )
        self.beta_1 = beta_1
        self.beta_2 = beta_2
        self.epsilon = epsilon
        self.warmup_steps = warmup_steps

    def build(self, variables):
        if self.built:
            return
        super().build(variables)
        self._momentums, self._velocities = self.add_optimizer_variables(
            variables, ("momentum", "velocity")
        )
        for momentum, variable in zip(self._momentums, variables):
            # A copy: JAX cannot donate one buffer twice (as the variable and as its slot).
            momentum.assign(variable.numpy())

    def _prepare_step(self, learning_rate):
        """This step's rate (grown linearly over `warmup_steps`), the second moment's bias
        correction and the averaging weight `1 / step`."""
        step = self._next_step()
        if self.warmup_steps > 0:
            learning_rate = ops.multiply(
                learning_rate, ops.minimum(ops.divide(step, float(self.warmup_steps)), 1.0)
            )
        correction = ops.subtract(1.0, ops.power(self.beta_2, step))
        return learning_rate, correction, ops.divide(1.0, step)

    def update_step(self, gradient, variable, learning_rate):
        rate, correction, weight = self._prepared_for(learning_rate)
        beta_1 = self.beta_1
        index = self._get_variable_index(variable)
        z = self._momentums[index]
        # x before this step, from y and z before it (read first: z changes in place).
        x = ops.divide(ops.subtract(variable, ops.multiply(z, 1.0 - beta_1)), beta_1)
        v = update_average(self._velocities[index], ops.square(gradient), self.beta_2)
        denominator = ops.add(ops.sqrt(ops.divide(v, correction)), self.epsilon)
        z = z.assign_sub(ops.divide(ops.multiply(gradient, rate), denominator))
        x = ops.add(x, ops.multiply(ops.subtract(z, x), weight))
        variable.assign(ops.add(ops.multiply(z, 1.0 - beta_1), ops.multiply(x, beta_1)))

    def get_config(self):
        return {
            **super().get_config(),
            "beta_1": self.beta_1,
            "beta_2": self.beta_2,
            "epsilon": self.epsilon,
            "warmup_steps": self.warmup_steps,
        }
