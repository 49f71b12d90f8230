"""Adafactor: Adam-like steps with factored second moments, so state is O(rows + cols)."""

from tripod.backends import active
from tripod.training.optimizers.base import Optimizer, update_average

ops = active()


def _rms(x):
    """The root mean square of all entries of `x`."""
    return ops.sqrt(ops.mean(ops.square(x)))


class Adafactor(Optimizer):
    """Adafactor (Shazeer & Stern): a matrix's second moment is kept as row and column means;
    steps are relative to the variable's scale and clipped to RMS `clip_threshold`."""

    def __init__(
        self,
        learning_rate=0.001,
        beta_2_decay=-0.8,
        epsilon_1=1e-30,
        epsilon_2=0.001,
        clip_threshold=1.0,
        relative_step=True,
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
        self.beta_2_decay = beta_2_decay
        self.epsilon_1 = epsilon_1
        self.epsilon_2 = epsilon_2
        self.clip_threshold = clip_threshold
        self.relative_step = relative_step

    def build(self, variables):
        """Per variable: row means, column means (scalar placeholders below rank 2), velocity."""
        if self.built:
            return
        super().build(variables)
        self._rows, self._cols, self._velocities = [], [], []
        for variable in variables:
            base = variable.path.replace("/", "_")
            shape = variable.shape
            factored = len(shape) >= 2
            self._rows.append(self.add_variable(shape[:-1] if factored else (), name=f"{base}_row"))
            self._cols.append(
                self.add_variable(shape[:-2] + shape[-1:] if factored else (), name=f"{base}_col")
            )
            self._velocities.append(self.add_variable_from_reference(variable, "velocity"))

    def _prepare_step(self, learning_rate):
        """This step's rate (at most `1 / sqrt(step)` with `relative_step`) and the second
        moments' decay `1 - step ** beta_2_decay`."""
        step = self._next_step()
        rate = ops.minimum(learning_rate, ops.rsqrt(step)) if self.relative_step else learning_rate
        return rate, ops.subtract(1.0, ops.power(step, self.beta_2_decay))

    def update_step(self, gradient, variable, learning_rate):
        rate, decay = self._prepared_for(learning_rate)
        index = self._get_variable_index(variable)
        squares = ops.add(ops.square(gradient), self.epsilon_1)
        velocity = self._velocities[index]
        if len(variable.shape) >= 2:
            rows, cols = self._rows[index], self._cols[index]
            rows = update_average(rows, ops.mean(squares, axis=-1), decay)
            cols = update_average(cols, ops.mean(squares, axis=-2), decay)
            row_share = ops.divide(rows, ops.mean(rows, axis=-1, keepdims=True))
            v = velocity.assign(
                ops.multiply(ops.expand_dims(row_share, -1), ops.expand_dims(cols, -2))
            )
        else:
            v = update_average(velocity, squares, decay)
        direction = ops.multiply(gradient, ops.rsqrt(v))
        direction = ops.divide(
            direction, ops.maximum(1.0, ops.divide(_rms(direction), self.clip_threshold))
        )
        scale = ops.multiply(ops.maximum(_rms(variable), self.epsilon_2), rate)
        variable.assign(ops.subtract(variable, ops.multiply(direction, scale)))

    def get_config(self):
        return {
            **super().get_config(),
            "beta_2_decay": self.beta_2_decay,
            "epsilon_1": self.epsilon_1,
            "epsilon_2": self.epsilon_2,
            "clip_threshold": self.clip_threshold,
            "relative_step": self.relative_step,
        }
