"""The optimizer base: every optimizer's state in Variables, its options, configs and saving.

A subclass creates its slot variables in `build` and writes its rule for one variable in
`update_step(gradient, variable, learning_rate)`, the one method to override. What the updates
of every variable share in a step (bias corrections) a built-in optimizer computes once, in
`_prepare_step`, and reads back in `update_step` with `_prepared_for`. The step every optimizer
shares around its rule (unscaling, gradient accumulation, clipping, constraints, the moving
average (EMA), the iteration counter) is `update_pipeline`; decoupled weight decay is
`_apply_weight_decay`, here.

How the rule reaches the variables is an update plan (`update_plans`), chosen once after
building: a backend may compute a rule with a fused kernel of its own (`ops.optimizer_kernel`:
torch's foreach ops), on all variables fused into one (`ops.fuse_variables`); the rule written
here stays the reference, and runs wherever the kernel cannot.

The step may run as a pure function (JAX) inside a `StatelessScope`, so state changes only through
`Variable.assign`, and choices that depend on values (is this an accumulation step?) are
`ops.where` selections, never Python branches on tensors.
"""

import numbers
import re

import numpy as np

from tripod.backends import active
from tripod.backends.common import stateless
from tripod.backends.common.variables import Variable
from tripod.layers import initializers, naming
from tripod.saving import serialization
from tripod.training.optimizers import schedules, update_pipeline, update_plans

ops = active()


def _is_number(value):
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def _check_options(
    weight_decay,
    clipnorm,
    clipvalue,
    global_clipnorm,
    use_ema,
    ema_momentum,
    ema_overwrite_frequency,
    loss_scale_factor,
    gradient_accumulation_steps,
):
    """ValueError for optimizer options that cannot work together or are out of range."""
    clips = {"clipnorm": clipnorm, "clipvalue": clipvalue, "global_clipnorm": global_clipnorm}
    if sum(value is not None for value in clips.values()) > 1:
        received = ", ".join(f"{k}={v}" for k, v in clips.items())
        raise ValueError(
            f"Only one of `clipnorm`, `clipvalue` and `global_clipnorm` can be set. Received: {received}"
        )
    for argument, value in {**clips, "loss_scale_factor": loss_scale_factor}.items():
        if value is not None and (not _is_number(value) or value <= 0):
            raise ValueError(
                f"`{argument}` must be a positive number. Received: {argument}={value!r}"
            )
    if weight_decay is not None and not _is_number(weight_decay):
        raise ValueError(
            f"Argument `weight_decay` must be a float. Received: weight_decay={weight_decay!r}"
        )
    steps = gradient_accumulation_steps
    if steps is not None and (not isinstance(steps, int) or isinstance(steps, bool) or steps < 2):
        raise ValueError(
            f"`gradient_accumulation_steps` must be an integer >= 2. Received: gradient_accumulation_steps={steps!r}"
        )
    if use_ema:
        if not _is_number(ema_momentum) or not 0 <= ema_momentum <= 1:
            raise ValueError(
                f"`ema_momentum` must be in the range [0, 1]. Received: ema_momentum={ema_momentum!r}"
            )
        frequency = ema_overwrite_frequency
        if frequency is not None and (not isinstance(frequency, int) or frequency < 1):
            raise ValueError(
                "`ema_overwrite_frequency` must be a positive integer or None. "
                f"Received: ema_overwrite_frequency={frequency!r}"
            )


def _is_rate_function(value):
    """Whether `value` gives the learning rate by being called (a schedule or a function)."""
    return isinstance(value, schedules.LearningRateSchedule) or (
        callable(value) and not isinstance(value, Variable)
    )


class Optimizer:
    """Base class of optimizers: state, the update pipeline and serialization.

    Subclasses call `super().__init__` with the common arguments, create their slots in
    `build(variables)` (after `super().build(variables)`) and implement
    `update_step(gradient, variable, learning_rate)` with `tripod.ops`.

    Every optimizer takes these arguments (its own come first). An optimizer is used by
    `model.compile(optimizer=...)`, or directly: `optimizer.apply(grads, variables)` runs one
    step, building the slots on first use.

    Args:
        learning_rate: float, a `tripod.optimizers.schedules.LearningRateSchedule`, or a
            function of no argument returning the rate.
        weight_decay: float, decoupled weight decay: each step also subtracts
            `learning_rate * weight_decay * variable`; default None (none).
        clipnorm: float > 0, clip each gradient to at most this L2 norm.
        clipvalue: float > 0, clip each gradient's entries to `[-clipvalue, clipvalue]`.
        global_clipnorm: float > 0, scale all gradients so their joint L2 norm is at most this.
            At most one of the three clipping options may be set.
        use_ema: bool, keep an exponential moving average of the variables, which `fit` leaves
            in the model at the end of training.
        ema_momentum: float in [0, 1], the average's momentum (default 0.99).
        ema_overwrite_frequency: int, every that many steps overwrite the variables with
            their average; default None (only at the end).
        loss_scale_factor: float > 0, gradients are divided by it (the loss was multiplied by
            it to keep float16 gradients from underflowing).
        gradient_accumulation_steps: int >= 2, accumulate the gradients of that many steps and
            update once, with their mean, on the last of them.
        name: str, the optimizer's name; default a unique one from the class name.

    Raises:
        ValueError: an option out of range, an unknown keyword argument, or more than one
            clipping option.

    Examples:
        >>> optimizer = tripod.optimizers.SGD(learning_rate=0.1, clipvalue=0.5)
        >>> w = tripod.Variable(np.array([1.0, 2.0]))
        >>> optimizer.apply([np.array([1.0, -3.0])], [w])
        >>> print(np.round(tripod.ops.convert_to_numpy(w), 3))
        [0.95 2.05]
        >>> int(optimizer.iterations)
        1
    """

    #: Whether the rule is elementwise: it treats every entry of a variable alike and reads only
    #: that variable's slots (made by `add_optimizer_variables`), so that on backends whose
    #: variables can share storage (torch) all variables update as one flat tensor
    #: (`update_plans.FusedPlan`).
    _elementwise = False

    #: The backend kernel (`ops.optimizer_kernel`) that computes this class's rule in fewer
    #: passes (`update_plans.KernelPlan`), or None. A class naming one gives it slots and
    #: numbers in `_kernel_arguments`.
    _kernel_name = None

    #: While a step updates its variables: what `_prepare_step` computed for it (None outside).
    _prepared = None

    def __init__(
        self,
        learning_rate,
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
        if kwargs:
            raise ValueError(f"Argument(s) not recognized: {kwargs}")
        _check_options(
            weight_decay,
            clipnorm,
            clipvalue,
            global_clipnorm,
            use_ema,
            ema_momentum,
            ema_overwrite_frequency,
            loss_scale_factor,
            gradient_accumulation_steps,
        )
        self.name = name or naming.unique_name(naming.to_snake_case(type(self).__name__))
        self.weight_decay = weight_decay
        self.clipnorm = clipnorm
        self.clipvalue = clipvalue
        self.global_clipnorm = global_clipnorm
        self.use_ema = use_ema
        self.ema_momentum = ema_momentum
        self.ema_overwrite_frequency = ema_overwrite_frequency
        self.loss_scale_factor = loss_scale_factor
        self.gradient_accumulation_steps = gradient_accumulation_steps
        self.built = False
        self._variables = []
        self._trainable_variables = []
        self._index = {}
        self._excluded_ids = set()
        self._excluded_names = []
        self._slot_lists = []
        self._plan = None  # the update plan (`update_plans`), chosen by `_choose_plan`
        self._iterations = self._add_state(0, "iteration", "int64")
        self._learning_rate = self._rate_state(learning_rate)

    # -- state -----------------------------------------------------------------------------------
    def _add_state(self, initializer, name, dtype, shape=None):
        """A new non-trainable variable `<optimizer name>/<name>`, appended to `variables`."""
        variable = ops.Variable(
            initializer,
            shape=shape,
            dtype=dtype,
            trainable=False,
            autocast=False,
            name=name,
            path=f"{self.name}/{name}",
        )
        self._variables.append(variable)
        return variable

    def _rate_state(self, learning_rate):
        """What `learning_rate` is kept as: a schedule or function as given, a number in a variable."""
        if _is_rate_function(learning_rate):
            return learning_rate
        try:
            value = float(np.asarray(learning_rate))
        except (TypeError, ValueError):
            raise ValueError(
                "Argument `learning_rate` should be float, or an instance of LearningRateSchedule, "
                f"or a callable returning the learning rate. Received {learning_rate!r}"
            ) from None
        return self._add_state(value, "learning_rate", "float32")

    def add_variable(self, shape, initializer="zeros", dtype=None, aggregation="none", name=None):
        """A new optimizer variable of `shape` (float32 unless `dtype`), listed in `variables`."""
        del aggregation  # one device: nothing to aggregate
        name = name or f"variable_{len(self._variables)}"
        return self._add_state(_initial(initializer), name, dtype or "float32", tuple(shape))

    def add_variable_from_reference(self, reference_variable, name=None, initializer="zeros"):
        """A new variable shaped and typed like `reference_variable`, named after its path."""
        base = reference_variable.path.replace("/", "_")
        return self.add_variable(
            reference_variable.shape,
            initializer,
            reference_variable.dtype,
            name=f"{base}_{name}" if name else base,
        )

    def add_optimizer_variables(self, trainable_variables, name, initializer="zeros"):
        """One new variable per trainable variable (a list). With a list of names (and optionally
        of initializers), one list per name, created variable by variable (`m0, v0, m1, v1, ...`:
        Keras 3's checkpoint order)."""
        single = isinstance(name, str)
        names = [name] if single else list(name)
        starts = (
            initializer if isinstance(initializer, (list, tuple)) else [initializer] * len(names)
        )
        slots = [[] for _ in names]
        for variable in trainable_variables:
            for slot_list, slot_name, start in zip(slots, names, starts):
                slot_list.append(
                    self.add_variable_from_reference(variable, slot_name, _initial(start))
                )
        self._slot_lists.extend(slots)
        return slots[0] if single else tuple(slots)

    def build(self, variables):
        """Create the state for `variables`: here the EMA averages and gradient accumulators;
        each optimizer's slots in its override, which calls this first."""
        variables = list(variables)
        self._trainable_variables = variables
        self._index = {id(v): i for i, v in enumerate(variables)}
        if len(self._index) != len(variables):
            raise ValueError(f"Optimizer {self.name!r}: build() received the same variable twice.")
        if self.use_ema:
            self._averages = [
                self.add_variable_from_reference(v, "average", v.numpy()) for v in variables
            ]
        if self.gradient_accumulation_steps:
            self._accumulators = self.add_optimizer_variables(variables, "gradient_accumulator")
        self._constraints = [getattr(v, "constraint", None) for v in variables]
        self._overwrites = [bool(getattr(v, "overwrite_with_gradient", False)) for v in variables]
        self._any_overwrite = any(self._overwrites)
        self._any_constraint = any(c is not None for c in self._constraints)
        self._resolve_weight_decay()
        self.built = True

    @property
    def variables(self):
        """Every variable of the optimizer, in checkpoint order."""
        return list(self._variables)

    def slot_references(self):
        """{id(slot): the trainable variable it holds state for}, over every per-variable slot
        (moments, accumulators, averages): a distribution lays a slot out like its variable."""
        per_variable = self._slot_lists + ([self._averages] if self.use_ema and self.built else [])
        return {
            id(slot): v
            for slots in per_variable
            for slot, v in zip(slots, self._trainable_variables)
        }

    @property
    def iterations(self):
        """The number of updates applied so far (with gradient accumulation: of full updates)."""
        if self.gradient_accumulation_steps:
            return ops.floor_divide(self._iterations.value, self.gradient_accumulation_steps)
        return self._iterations

    @property
    def learning_rate(self):
        """The learning rate now: its variable, or the schedule at `iterations`, or the function's value."""
        rate = self._learning_rate
        if isinstance(rate, schedules.LearningRateSchedule):
            return rate(self.iterations)
        return rate if isinstance(rate, Variable) else rate()

    @learning_rate.setter
    def learning_rate(self, value):
        current = self._learning_rate
        if isinstance(current, schedules.LearningRateSchedule):
            raise TypeError(
                f"Optimizer {self.name!r} was created with a LearningRateSchedule, so its learning rate "
                "cannot be set; create it with a float `learning_rate` to change the rate later."
            )
        if _is_rate_function(value):
            if isinstance(current, Variable):
                self._variables = [v for v in self._variables if v is not current]
            self._learning_rate = value
        elif isinstance(current, Variable):
            current.assign(value)
        else:
            self._learning_rate = self._rate_state(value)
            self._variables.insert(1, self._variables.pop())

    def _get_variable_index(self, variable):
        """The position of `variable` among those the optimizer was built with."""
        try:
            return self._index[id(variable)]
        except KeyError:
            raise ValueError(
                f"Optimizer {self.name!r} was not built with variable {getattr(variable, 'path', variable)!r}; "
                "build it with every variable it will update."
            ) from None

    # -- weight decay ----------------------------------------------------------------------------
    def exclude_from_weight_decay(self, var_list=None, var_names=None):
        """Exempt from weight decay the variables in `var_list` and those whose name matches a
        regular expression in `var_names`."""
        self._excluded_ids.update(id(v) for v in var_list or ())
        self._excluded_names.extend(var_names or ())
        if self.built:
            self._resolve_weight_decay()

    def _use_weight_decay(self, variable):
        if id(variable) in self._excluded_ids:
            return False
        return not any(re.search(pattern, variable.name) for pattern in self._excluded_names)

    def _resolve_weight_decay(self):
        """Decide once, at build, which variables decay (and whether all decide alike)."""
        self._decays = [self._use_weight_decay(v) for v in self._trainable_variables]
        self._uniform_decay = not self.weight_decay or len(set(self._decays)) <= 1

    # -- the update ------------------------------------------------------------------------------
    def apply_gradients(self, grads_and_vars):
        """`apply` on (gradient, variable) pairs; returns `iterations`."""
        pairs = list(grads_and_vars)
        self.apply([g for g, _ in pairs], [v for _, v in pairs])
        return self.iterations

    def apply(self, grads, trainable_variables=None):
        """One optimizer step: update `trainable_variables` (default: the variables the optimizer
        was built with, building it on first use) from their `grads` (None entries are skipped)."""
        with ops.no_grad():  # an update is never differentiated: torch records no graph for it
            update_pipeline.apply_step(self, grads, trainable_variables)

    def _pairs(self, grads, trainable_variables):
        """(gradients, variables) to update, without the variables that have no gradient."""
        grads = list(grads)
        if trainable_variables is None:
            if not self.built:
                raise ValueError(
                    f"Optimizer {self.name!r} is not built: pass `trainable_variables` to apply(), or call build()."
                )
            variables = self._trainable_variables
        else:
            variables = list(trainable_variables)
            if not self.built:
                self.build(variables)
        if len(grads) != len(variables):
            raise ValueError(
                f"Optimizer {self.name!r}: received {len(grads)} gradients for {len(variables)} variables."
            )
        if any(g is None for g in grads):
            return update_pipeline.without_missing(self, grads, variables)
        return grads, variables

    def _kernel_arguments(self, learning_rate):
        """For the kernel `_kernel_name`: (the slot lists it updates, in its order — an empty
        list for a slot this configuration lacks —, its numbers as Python scalars computed as
        the rule computes them), or None when the kernel cannot compute this configuration."""
        raise NotImplementedError(
            f"{type(self).__name__} names a kernel but gives it no arguments."
        )

    def _apply_weight_decay(self, variables, indices, learning_rate):
        """Decoupled weight decay: shrink each decaying variable by `learning_rate * weight_decay`."""
        if self.weight_decay:
            keep = ops.subtract(1.0, ops.multiply(learning_rate, self.weight_decay))
            for variable, index in zip(variables, indices):
                if self._decays[index]:
                    variable.assign(ops.multiply(variable, keep))

    def _choose_plan(self):
        """Choose the update plan (once), fusing the variables where it can: the trainer calls
        this right after building, eagerly, so that a compiled step never makes the flat
        variables while tracing, nor traces again after (else the first update chooses)."""
        if self._plan is None:
            self._plan = update_plans.choose_plan(self)

    def _next_step(self):
        """The number of this update, counting from 1, as float32 (for bias corrections)."""
        return ops.cast(ops.add(self.iterations, 1), "float32")

    def update_step(self, gradient, variable, learning_rate):
        """Update `variable` from `gradient`: the optimizer's rule for one variable, written
        with `tripod.ops` and `variable.assign` / `assign_add` / `assign_sub`. The method a
        custom optimizer overrides; `learning_rate` is this step's rate (a float32 tensor).
        Unscaling, clipping, weight decay, accumulation and the EMA happen around it."""
        raise NotImplementedError(
            f"{type(self).__name__} must implement update_step(gradient, variable, learning_rate)."
        )

    def _prepare_step(self, learning_rate):
        """What the updates of every variable share this step (bias corrections, a warmup
        factor), computed once before `update_step` runs for each variable; None when nothing
        is shared. It runs once per step, so it may also advance per-step state."""

    def _prepared_for(self, learning_rate):
        """The values `_prepare_step` computed for the step in progress; computed now when
        `update_step` is called outside `apply` (e.g. by a user's own loop)."""
        prepared = self._prepared
        return self._prepare_step(learning_rate) if prepared is None else prepared

    def scale_loss(self, loss):
        """The loss multiplied by `loss_scale_factor` (gradients are divided by it in `apply`).

        `fit` takes its gradients of this scaled loss; a custom step written with
        `tripod.value_and_grad` must do so too when the optimizer scales (as in Keras)."""
        return (
            loss if self.loss_scale_factor is None else ops.multiply(loss, self.loss_scale_factor)
        )

    def finalize_variable_values(self, var_list):
        """At the end of training: with `use_ema`, give the variables their moving averages."""
        if self.use_ema:
            for variable in var_list:
                variable.assign(self._averages[self._get_variable_index(variable)].value)

    def stateless_apply(self, optimizer_variables, grads, trainable_variables):
        """`apply` as a pure function: from the values of `variables` and of the trainable
        variables, the new values of both (trainable first); no variable changes."""
        if not self.built:
            raise ValueError(f"Optimizer {self.name!r} must be built before stateless_apply().")
        variables = self.variables
        if len(optimizer_variables) != len(variables) or len(trainable_variables) != len(
            self._trainable_variables
        ):
            raise ValueError(
                f"Optimizer {self.name!r}: stateless_apply() expects {len(variables)} optimizer values and "
                f"{len(self._trainable_variables)} trainable values; received {len(optimizer_variables)} and "
                f"{len(trainable_variables)}."
            )
        mapping = [
            (v, ops.convert_to_tensor(value, v.dtype))
            for v, value in zip(
                self._trainable_variables + variables,
                list(trainable_variables) + list(optimizer_variables),
            )
        ]
        with stateless.StatelessScope(state_mapping=mapping) as scope:
            self.apply(grads)
        return (
            [scope.get_current_value(v) for v in self._trainable_variables],
            [scope.get_current_value(v) for v in variables],
        )

    # -- saving ----------------------------------------------------------------------------------
    def save_own_variables(self, store):
        """Write every variable's value into `store` under "0", "1", ... (checkpoint order)."""
        for i, variable in enumerate(self.variables):
            store[str(i)] = variable.numpy()

    def load_own_variables(self, store):
        """Read the values `save_own_variables` wrote; the count and every shape must match."""
        variables = self.variables
        if len(store) != len(variables):
            hint = (
                ""
                if self.built
                else " It is not built yet: build it with the model's trainable variables first."
            )
            raise ValueError(
                f"Optimizer {self.name!r} has {len(variables)} variables but the saved state holds "
                f"{len(store)}.{hint}"
            )
        values = []
        for i, variable in enumerate(variables):
            if str(i) not in store:
                raise ValueError(
                    f"Optimizer {self.name!r}: the saved state has no entry {str(i)!r}."
                )
            value = np.asarray(store[str(i)])
            if value.shape != variable.shape:
                raise ValueError(
                    f"Optimizer {self.name!r}: saved variable {i} has shape {value.shape}, but "
                    f"{variable.path!r} has shape {variable.shape}."
                )
            values.append(value)
        for variable, value in zip(variables, values):
            variable.assign(value)

    # -- config ----------------------------------------------------------------------------------
    def get_config(self):
        rate = self._learning_rate
        if isinstance(rate, Variable):
            rate = float(rate.numpy())
        else:
            rate = serialization.serialize_keras_object(rate)
        return {
            "name": self.name,
            "learning_rate": rate,
            "weight_decay": self.weight_decay,
            "clipnorm": self.clipnorm,
            "global_clipnorm": self.global_clipnorm,
            "clipvalue": self.clipvalue,
            "use_ema": self.use_ema,
            "ema_momentum": self.ema_momentum,
            "ema_overwrite_frequency": self.ema_overwrite_frequency,
            "loss_scale_factor": self.loss_scale_factor,
            "gradient_accumulation_steps": self.gradient_accumulation_steps,
        }

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        if isinstance(config.get("learning_rate"), dict):
            config["learning_rate"] = serialization.deserialize_keras_object(
                config["learning_rate"], custom_objects
            )
        return cls(**config)

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}>"


def _initial(initializer):
    """What a new variable starts from: an initializer named, configured or callable, resolved;
    a number as a Constant initializer; an array as it is."""
    if isinstance(initializer, (str, dict)) or callable(initializer):
        return initializers.get(initializer)
    if _is_number(initializer):
        return initializers.Constant(initializer)
    return initializer


def _complement(decay):
    """`1 - decay`, computed in Python when decay is a number (no tensor for a constant)."""
    return 1.0 - decay if isinstance(decay, (int, float)) else ops.subtract(1.0, decay)


def moving_average(average, value, decay):
    """`decay * average + (1 - decay) * value`: the running means optimizers keep."""
    return ops.add(average, ops.multiply(ops.subtract(value, average), _complement(decay)))


def update_average(variable, value, decay):
    """Move `variable` to `moving_average(variable, value, decay)` in place; its new value."""
    return ops.update_average(variable, value, _complement(decay))
