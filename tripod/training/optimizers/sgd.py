"""SGD: plain gradient descent, with optional (Nesterov) momentum."""

from tripod.backends import active
from tripod.training.optimizers.base import Optimizer

ops = active()


class SGD(Optimizer):
    """Gradient descent: `w -= lr * g`; with `momentum`, a velocity `m = momentum * m - lr * g`
    is added instead (`nesterov` looks one momentum step ahead).

    Args:
        learning_rate: float, schedule or function giving the step size (default 0.01).
        momentum: float in [0, 1], how much of the previous velocity carries over (default 0,
            plain gradient descent).
        nesterov: bool, use Nesterov momentum.
        **kwargs: the options every optimizer takes (`weight_decay`, `clipnorm`,
            `clipvalue`, `global_clipnorm`, `use_ema`, `ema_momentum`,
            `ema_overwrite_frequency`, `loss_scale_factor`, `gradient_accumulation_steps`,
            `name`), described under `Optimizer`.

    Raises:
        ValueError: `momentum` is not a number in [0, 1], or a common option is invalid.

    Examples:
        >>> optimizer = tripod.optimizers.SGD(learning_rate=0.1, momentum=0.9)
        >>> w = tripod.Variable(np.array([1.0]))
        >>> for _ in range(2):
        ...     optimizer.apply([np.array([1.0])], [w])
        >>> print(np.round(tripod.ops.convert_to_numpy(w), 3))  # 1 - 0.1 - (0.9 * 0.1 + 0.1)
        [0.71]
    """

    _elementwise = True
    _kernel_name = "sgd"

    def __init__(
        self,
        learning_rate=0.01,
        momentum=0.0,
        nesterov=False,
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
        if (
            isinstance(momentum, bool)
            or not isinstance(momentum, (int, float))
            or not 0 <= momentum <= 1
        ):
            raise ValueError(
                f"`momentum` must be a float between [0, 1]. Received: momentum={momentum!r}"
            )
        self.momentum = momentum
        self.nesterov = nesterov

    def build(self, variables):
        if self.built:
            return
        super().build(variables)
        self._momentums = (
            self.add_optimizer_variables(variables, "momentum") if self.momentum else []
        )

    @property
    def momentums(self):
        """The momentum variable of each trainable variable (empty without momentum)."""
        return self._momentums[: len(self._trainable_variables)]

    def update_step(self, gradient, variable, learning_rate):
        step = ops.multiply(gradient, learning_rate)
        if not self.momentum:
            variable.assign(ops.subtract(variable, step))
            return
        momentum = self._momentums[self._get_variable_index(variable)]
        velocity = momentum.assign(ops.subtract(ops.multiply(momentum, self.momentum), step))
        if self.nesterov:
            velocity = ops.subtract(ops.multiply(velocity, self.momentum), step)
        variable.assign(ops.add(variable, velocity))

    def _kernel_arguments(self, learning_rate):
        numbers = {
            "learning_rate": float(learning_rate),
            "momentum": self.momentum,
            "nesterov": self.nesterov,
        }
        return (self._momentums,), numbers

    def get_config(self):
        return {**super().get_config(), "momentum": self.momentum, "nesterov": self.nesterov}
