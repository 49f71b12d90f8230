"""Muon: orthogonalised momentum steps for matrices, AdamW for every other variable."""

import math
import re

from tripod.backends import active
from tripod.training.optimizers.base import Optimizer, update_average

ops = active()


class Muon(Optimizer):
    """Muon (Jordan et al.; Liu et al., 2025). A 2-D variable takes the momentum
    `m = momentum * m + g` (with `nesterov`, the step direction is `g + momentum * m`),
    orthogonalised by `ns_steps` Newton-Schulz iterations with coefficients
    (`muon_a`, `muon_b`, `muon_c`) and, with `rms_rate`, scaled by
    `rms_rate * sqrt(max(rows, cols))`. Every other variable, embeddings (with
    `exclude_embeddings`) and variables whose path matches a pattern of `exclude_layers` take
    Adam steps at `learning_rate * adam_lr_ratio`. Weight decay is `weight_decay` for Muon
    variables and `adam_weight_decay` for Adam ones."""

    def __init__(
        self,
        learning_rate=0.001,
        adam_beta_1=0.9,
        adam_beta_2=0.999,
        adam_weight_decay=0.004,
        epsilon=1e-07,
        weight_decay=0.004,
        clipnorm=None,
        clipvalue=None,
        global_clipnorm=None,
        use_ema=False,
        ema_momentum=0.99,
        ema_overwrite_frequency=None,
        loss_scale_factor=None,
        gradient_accumulation_steps=None,
        name=None,
        exclude_layers=None,
        exclude_embeddings=True,
        muon_a=3.4445,
        muon_b=-4.775,
        muon_c=2.0315,
        adam_lr_ratio=1,
        momentum=0.95,
        ns_steps=5,
        nesterov=True,
        rms_rate=0.2,
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
        if not isinstance(ns_steps, int) or isinstance(ns_steps, bool) or ns_steps < 0:
            raise ValueError(
                f"Muon: `ns_steps` must be an integer >= 0. Received: ns_steps={ns_steps!r}"
            )
        if isinstance(exclude_layers, str):
            raise TypeError(
                "Muon: `exclude_layers` must be a list of patterns, not a string. "
                f"Received: exclude_layers={exclude_layers!r}"
            )
        self.adam_beta_1 = adam_beta_1
        self.adam_beta_2 = adam_beta_2
        self.adam_weight_decay = adam_weight_decay
        self.epsilon = epsilon
        self.exclude_layers = list(exclude_layers or [])
        self.exclude_embeddings = exclude_embeddings
        self.muon_a = muon_a
        self.muon_b = muon_b
        self.muon_c = muon_c
        self.adam_lr_ratio = adam_lr_ratio
        self.momentum = momentum
        self.ns_steps = ns_steps
        self.nesterov = nesterov
        self.rms_rate = rms_rate

    def _uses_adam(self, variable):
        """Whether `variable` takes Adam steps: not 2-D, an embedding, or an excluded path."""
        if len(variable.shape) != 2:
            return True
        if self.exclude_embeddings and "embedding" in variable.path.lower():
            return True
        return any(re.search(pattern, variable.path) for pattern in self.exclude_layers)

    def build(self, variables):
        """A `momentum` slot per variable, followed by a `velocity` slot for Adam variables."""
        if self.built:
            return
        super().build(variables)
        self._adam = [self._uses_adam(v) for v in variables]
        self._momentums, self._velocities = [], []
        for variable, adam, overwrite in zip(variables, self._adam, self._overwrites):
            momentum = velocity = None
            if not overwrite:
                momentum = self.add_variable_from_reference(variable, "momentum")
                if adam:
                    velocity = self.add_variable_from_reference(variable, "velocity")
            self._momentums.append(momentum)
            self._velocities.append(velocity)

    def _apply_weight_decay(self, variables, indices, learning_rate):
        for variable, index in zip(variables, indices):
            rate = self.adam_weight_decay if self._adam[index] else self.weight_decay
            if rate and self._decays[index]:
                variable.assign(
                    ops.multiply(variable, ops.subtract(1.0, ops.multiply(learning_rate, rate)))
                )

    def _prepare_step(self, learning_rate):
        """The Adam variables' step size: the Adam rate with both bias corrections."""
        step = self._next_step()
        adam_rate = ops.multiply(learning_rate, float(self.adam_lr_ratio))
        return ops.divide(
            ops.multiply(adam_rate, ops.sqrt(ops.subtract(1.0, ops.power(self.adam_beta_2, step)))),
            ops.subtract(1.0, ops.power(self.adam_beta_1, step)),
        )

    def update_step(self, gradient, variable, learning_rate):
        index = self._get_variable_index(variable)
        if self._adam[index]:
            self._adam_step(gradient, variable, index, self._prepared_for(learning_rate))
        else:
            self._muon_step(gradient, variable, index, learning_rate)

    def _adam_step(self, gradient, variable, index, alpha):
        m = update_average(self._momentums[index], gradient, self.adam_beta_1)
        v = update_average(self._velocities[index], ops.square(gradient), self.adam_beta_2)
        variable.assign_sub(ops.divide(ops.multiply(m, alpha), ops.add(ops.sqrt(v), self.epsilon)))

    def _muon_step(self, gradient, variable, index, learning_rate):
        slot = self._momentums[index]
        m = slot.assign(ops.add(ops.multiply(slot, self.momentum), gradient))
        direction = ops.add(gradient, ops.multiply(m, self.momentum)) if self.nesterov else m
        step = ops.multiply(self._orthogonalize(direction), learning_rate)
        if self.rms_rate is not None:
            step = ops.multiply(step, math.sqrt(max(variable.shape)) * self.rms_rate)
        variable.assign_sub(step)

    def _orthogonalize(self, x):
        """Newton-Schulz iterations taking `x` (2-D) towards the nearest semi-orthogonal
        matrix, on its wide orientation (the Gram matrix is the smaller one)."""
        tall = x.shape[0] > x.shape[1]
        if tall:
            x = ops.transpose(x)
        x = ops.divide(x, ops.add(ops.sqrt(ops.sum(ops.square(x))), 1e-7))
        for _ in range(self.ns_steps):
            gram = ops.matmul(x, ops.transpose(x))
            poly = ops.add(
                ops.multiply(gram, self.muon_b), ops.multiply(ops.matmul(gram, gram), self.muon_c)
            )
            x = ops.add(ops.multiply(x, self.muon_a), ops.matmul(poly, x))
        return ops.transpose(x) if tall else x

    def get_config(self):
        return {
            **super().get_config(),
            "adam_beta_1": self.adam_beta_1,
            "adam_beta_2": self.adam_beta_2,
            "epsilon": self.epsilon,
            "exclude_layers": self.exclude_layers,
            "muon_a": self.muon_a,
            "muon_b": self.muon_b,
            "muon_c": self.muon_c,
            "adam_lr_ratio": self.adam_lr_ratio,
            "momentum": self.momentum,
            "ns_steps": self.ns_steps,
            "nesterov": self.nesterov,
            "exclude_embeddings": self.exclude_embeddings,
            "adam_weight_decay": self.adam_weight_decay,
            "rms_rate": self.rms_rate,
        }
