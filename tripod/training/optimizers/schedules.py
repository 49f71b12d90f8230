"""Learning-rate schedules: the learning rate as a function of the optimizer's step.

A schedule is called with the step (a Python int or an integer tensor, also a traced one) and
returns a float32 tensor computed with `tripod.ops` only, so it runs inside compiled steps.
"""

import math

from tripod.backends import active
from tripod.saving import registry, serialization

ops = active()

_MODULE = "keras.optimizers.schedules"


def _positive_steps(argument, value):
    """`value` as given; a ValueError naming `argument` unless it is > 0."""
    if value <= 0:
        raise ValueError(f"Argument `{argument}` must be > 0. Received: {argument}={value}")
    return value


def _float(step):
    """The step as a float32 tensor."""
    return ops.cast(step, "float32")


class LearningRateSchedule:
    """Base class: `schedule(step)` gives the learning rate for optimizer step `step`."""

    def __call__(self, step):
        raise NotImplementedError(f"{type(self).__name__} must implement __call__(step).")

    def get_config(self):
        raise NotImplementedError(f"{type(self).__name__} must implement get_config().")

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class _StepDecay(LearningRateSchedule):
    """The arguments, config and decay progress shared by `ExponentialDecay` and
    `InverseTimeDecay`."""

    def __init__(self, initial_learning_rate, decay_steps, decay_rate, staircase, name):
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = _positive_steps("decay_steps", decay_steps)
        self.decay_rate = decay_rate
        self.staircase = staircase
        self.name = name

    def _progress(self, step):
        """`step / decay_steps` as float32, floored when `staircase`."""
        progress = _float(step) / self.decay_steps
        return ops.floor(progress) if self.staircase else progress

    def get_config(self):
        return {
            "initial_learning_rate": self.initial_learning_rate,
            "decay_steps": self.decay_steps,
            "decay_rate": self.decay_rate,
            "staircase": self.staircase,
            "name": self.name,
        }


class ExponentialDecay(_StepDecay):
    """`initial_learning_rate * decay_rate ** (step / decay_steps)` (the exponent floored when
    `staircase`)."""

    def __init__(
        self,
        initial_learning_rate,
        decay_steps,
        decay_rate,
        staircase=False,
        name="ExponentialDecay",
    ):
        super().__init__(
            initial_learning_rate=initial_learning_rate,
            decay_steps=decay_steps,
            decay_rate=decay_rate,
            staircase=staircase,
            name=name,
        )

    def __call__(self, step):
        decay = ops.power(float(self.decay_rate), self._progress(step))
        return ops.multiply(self.initial_learning_rate, decay)


class InverseTimeDecay(_StepDecay):
    """`initial_learning_rate / (1 + decay_rate * step / decay_steps)` (the ratio floored when
    `staircase`)."""

    def __init__(
        self,
        initial_learning_rate,
        decay_steps,
        decay_rate,
        staircase=False,
        name="InverseTimeDecay",
    ):
        super().__init__(
            initial_learning_rate=initial_learning_rate,
            decay_steps=decay_steps,
            decay_rate=decay_rate,
            staircase=staircase,
            name=name,
        )

    def __call__(self, step):
        growth = ops.multiply(self._progress(step), float(self.decay_rate))
        return ops.divide(self.initial_learning_rate, ops.add(1.0, growth))


class PiecewiseConstantDecay(LearningRateSchedule):
    """`values[0]` up to and including step `boundaries[0]`, then `values[1]` up to
    `boundaries[1]`, ..., and `values[-1]` after the last boundary."""

    def __init__(self, boundaries, values, name="PiecewiseConstant"):
        if len(boundaries) != len(values) - 1:
            raise ValueError(
                "The length of boundaries should be 1 less than the length of values. Received: "
                f"boundaries={boundaries} of length {len(boundaries)}, and values={values} of "
                f"length {len(values)}."
            )
        self.boundaries = list(boundaries)
        self.values = list(values)
        self.name = name

    def __call__(self, step):
        step = _float(step)
        rate = ops.convert_to_tensor(float(self.values[0]), "float32")
        for boundary, value in zip(self.boundaries, self.values[1:]):
            rate = ops.where(ops.greater(step, float(boundary)), float(value), rate)
        return rate

    def get_config(self):
        return {"boundaries": self.boundaries, "values": self.values, "name": self.name}


class PolynomialDecay(LearningRateSchedule):
    """From `initial_learning_rate` to `end_learning_rate` over `decay_steps` along
    `(1 - step / decay_steps) ** power`; with `cycle`, the horizon grows by `decay_steps` each
    time it is reached."""

    def __init__(
        self,
        initial_learning_rate,
        decay_steps,
        end_learning_rate=0.0001,
        power=1.0,
        cycle=False,
        name="PolynomialDecay",
    ):
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = _positive_steps("decay_steps", decay_steps)
        self.end_learning_rate = end_learning_rate
        self.power = power
        self.cycle = cycle
        self.name = name

    def __call__(self, step):
        step = _float(step)
        horizon = float(self.decay_steps)
        if self.cycle:
            horizon = horizon * ops.maximum(ops.ceil(step / horizon), 1.0)
        else:
            step = ops.minimum(step, horizon)
        remaining = ops.power(1.0 - step / horizon, float(self.power))
        span = self.initial_learning_rate - self.end_learning_rate
        return ops.add(ops.multiply(remaining, float(span)), float(self.end_learning_rate))

    def get_config(self):
        return {
            "initial_learning_rate": self.initial_learning_rate,
            "decay_steps": self.decay_steps,
            "end_learning_rate": self.end_learning_rate,
            "power": self.power,
            "cycle": self.cycle,
            "name": self.name,
        }


def _cosine(fraction, alpha, peak=1.0):
    """The cosine curve from `peak` (fraction 0) down to 0, squeezed into [alpha, 1]: `alpha`
    is the floor whatever the peak."""
    wave = ops.multiply(ops.add(1.0, ops.cos(math.pi * fraction)), peak)
    return ops.add(ops.multiply(wave, 0.5 * (1.0 - alpha)), alpha)


class CosineDecay(LearningRateSchedule):
    """Cosine decay over `decay_steps` down to `alpha` times the start; with `warmup_target`,
    first a linear warmup from `initial_learning_rate` to `warmup_target` over `warmup_steps`,
    then the decay starts from `warmup_target`."""

    def __init__(
        self,
        initial_learning_rate,
        decay_steps,
        alpha=0.0,
        name="CosineDecay",
        warmup_target=None,
        warmup_steps=0,
    ):
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = _positive_steps("decay_steps", decay_steps)
        self.alpha = alpha
        self.name = name
        self.warmup_target = warmup_target
        self.warmup_steps = warmup_steps

    def __call__(self, step):
        step = _float(step)
        if self.warmup_target is None:
            fraction = ops.minimum(step, float(self.decay_steps)) / self.decay_steps
            return ops.multiply(_cosine(fraction, self.alpha), float(self.initial_learning_rate))
        after = ops.clip(step - self.warmup_steps, 0.0, float(self.decay_steps))
        decayed = ops.multiply(
            _cosine(after / self.decay_steps, self.alpha), float(self.warmup_target)
        )
        if not self.warmup_steps:
            return decayed
        rise = (self.warmup_target - self.initial_learning_rate) / self.warmup_steps
        warming = ops.add(ops.multiply(step, float(rise)), float(self.initial_learning_rate))
        return ops.where(ops.less(step, float(self.warmup_steps)), warming, decayed)

    def get_config(self):
        return {
            "initial_learning_rate": self.initial_learning_rate,
            "decay_steps": self.decay_steps,
            "alpha": self.alpha,
            "name": self.name,
            "warmup_target": self.warmup_target,
            "warmup_steps": self.warmup_steps,
        }


class CosineDecayRestarts(LearningRateSchedule):
    """Cosine decay with warm restarts (SGDR): period `i` lasts `first_decay_steps * t_mul ** i`
    steps, its cosine scaled by `m_mul ** i`; the floor stays `alpha * initial_learning_rate`."""

    def __init__(
        self,
        initial_learning_rate,
        first_decay_steps,
        t_mul=2.0,
        m_mul=1.0,
        alpha=0.0,
        name="SGDRDecay",
    ):
        self.initial_learning_rate = initial_learning_rate
        self.first_decay_steps = _positive_steps("first_decay_steps", first_decay_steps)
        self.t_mul = t_mul
        self.m_mul = m_mul
        self.alpha = alpha
        self.name = name

    def _period_and_fraction(self, periods):
        """(index of the current period, fraction of it elapsed) after `periods` first periods."""
        if self.t_mul == 1.0:
            index = ops.floor(periods)
            return index, periods - index
        t_mul = float(self.t_mul)
        index = ops.floor(ops.log(1.0 - periods * (1.0 - t_mul)) / math.log(t_mul))
        length = ops.power(t_mul, index)
        start = (1.0 - length) / (1.0 - t_mul)
        return index, (periods - start) / length

    def __call__(self, step):
        index, fraction = self._period_and_fraction(_float(step) / self.first_decay_steps)
        peak = ops.power(float(self.m_mul), index)
        return ops.multiply(_cosine(fraction, self.alpha, peak), float(self.initial_learning_rate))

    def get_config(self):
        return {
            "initial_learning_rate": self.initial_learning_rate,
            "first_decay_steps": self.first_decay_steps,
            "t_mul": self.t_mul,
            "m_mul": self.m_mul,
            "alpha": self.alpha,
            "name": self.name,
        }


SCHEDULES = (
    LearningRateSchedule,
    ExponentialDecay,
    InverseTimeDecay,
    PiecewiseConstantDecay,
    PolynomialDecay,
    CosineDecay,
    CosineDecayRestarts,
)
for _cls in SCHEDULES:
    registry.register_builtin(_cls, _MODULE)


def serialize(learning_rate_schedule):
    """The config of a schedule, in Keras 3's schema."""
    return serialization.serialize_keras_object(learning_rate_schedule)


def deserialize(config, custom_objects=None):
    """A schedule from its config."""
    return serialization.deserialize_keras_object(config, custom_objects)
