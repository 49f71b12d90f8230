"""The Adam family's shared part: `beta_1`, `beta_2`, `epsilon` and two moment slots per variable."""

from tripod.backends import active
from tripod.training.optimizers.base import Optimizer, update_average

ops = active()


class AdaptiveMomentOptimizer(Optimizer):
    """Base of Adam, Adamax, Lamb and Nadam: per variable, a first moment (the running mean of
    the gradient) and a second moment (the running mean of its square; Adamax: its infinity
    norm), created in `build` as the slots named `_slot_names`. Its arguments are Keras's for
    Adamax, Lamb and Nadam, which inherit them."""

    _slot_names = ("momentum", "velocity")

    def __init__(
        self,
        learning_rate=0.001,
        beta_1=0.9,
        beta_2=0.999,
        epsilon=1e-07,
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
        self.beta_1 = beta_1
        self.beta_2 = beta_2
        self.epsilon = epsilon

    def build(self, variables):
        if self.built:
            return
        super().build(variables)
        self._first_moments, self._second_moments = self.add_optimizer_variables(
            variables, self._slot_names
        )

    def _update_moments(self, gradient, index):
        """Move variable `index`'s moments towards the gradient and its square; their new values."""
        m = update_average(self._first_moments[index], gradient, self.beta_1)
        v = update_average(self._second_moments[index], ops.square(gradient), self.beta_2)
        return m, v

    def get_config(self):
        return {
            **super().get_config(),
            "beta_1": self.beta_1,
            "beta_2": self.beta_2,
            "epsilon": self.epsilon,
        }
