"""The JAX backend: hooks for layers and training."""

import jax

from tripod.backends.common import spec, stateless
from tripod.backends.common.steps import batch_converter
from tripod.backends.jax.core import convert_to_tensor


def compute_output_spec(fn, *args, **kwargs):
    return spec.output_spec_by_running(
        fn, args, kwargs, jax.ShapeDtypeStruct, lambda call, tensors: jax.eval_shape(call, tensors)
    )


def value_and_grad(fn, variables, has_aux=False):
    variables = list(variables)
    differentiated = {id(v) for v in variables}

    def pure(values, args, kwargs):
        with stateless.StatelessScope(state_mapping=zip(variables, values)) as scope:
            out = fn(*args, **kwargs)
        others = [(v, value) for v, value in scope.updates if id(v) not in differentiated]
        return (out[0] if has_aux else out), (out, others)

    grad_fn = jax.value_and_grad(pure, has_aux=True)

    def run(*args, **kwargs):
        (_, (out, updates)), grads = grad_fn([v.value for v in variables], args, kwargs)
        # Assignments to other variables (moving statistics, seeds) made during fn still apply.
        for variable, value in updates:
            variable.assign(value)
        return out, grads

    return run


def _pure(fn, variables, updates_only=False):
    """fn(batch) as a pure function of (variable values, batch) -> (outputs, new values): every
    value, or with `updates_only` a dict {index: new value} of the variables fn assigned."""
    index = {id(v): i for i, v in enumerate(variables)}

    def pure(state, batch):
        with stateless.StatelessScope(state_mapping=zip(variables, state), collect_losses=True) as scope:
            outputs = fn(batch)
        if updates_only:
            return outputs, {index[id(v)]: value for v, value in scope.updates if id(v) in index}
        return outputs, [scope.get_current_value(v) for v in variables]

    return pure


def _runner(pure, jit_compile, **jit_args):
    """The jitted `pure(state, batch)` (NumPy batches go straight in: jit transfers them faster
    than a separate conversion), or an eager one that converts the batch first."""
    if jit_compile:
        return jax.jit(pure, **jit_args)
    to_tensors = batch_converter(convert_to_tensor)
    return lambda state, batch: pure(state, to_tensors(batch))


class TrainStep:
    """A jitted training step that keeps the model's state on the device between steps.

    The state is donated to each call, so XLA updates it in place. The variables are written
    back lazily: a variable read outside the step (a callback, the user) syncs first, and a
    write from outside (a metric reset, `set_weights`) goes into the held state as well.
    """

    def __init__(self, fn, variables, jit_compile):
        self.variables = list(variables)
        self._index = {id(v): i for i, v in enumerate(self.variables)}
        self._run = _runner(_pure(fn, self.variables), jit_compile, donate_argnums=0)
        self._state = None
        self.dirty = False

    def __call__(self, batch):
        if self._state is None:
            self._state = [v.value for v in self.variables]
            for v in self.variables:
                v._claim(self)
        outputs, self._state = self._run(self._state, batch)
        self.dirty = True
        return outputs

    def sync(self):
        """Write the step's current state into the variables."""
        if self.dirty:
            self.dirty = False
            for v, value in zip(self.variables, self._state):
                v._array = value if isinstance(value, jax.Array) else convert_to_tensor(value)

    def write(self, variable, value):
        """A write from outside the step (the user, `set_weights`): the state takes it too."""
        if self._state is not None:
            self._state[self._index[id(variable)]] = value

    def write_host(self, variable, value):
        """Take a copy of NumPy `value` of the variable's exact shape and dtype into the state
        (the next call transfers it: far cheaper than converting it here, which matters for
        metric resets every epoch). False before the step holds any state."""
        if self._state is None:
            return False
        self._state[self._index[id(variable)]] = value.copy()  # the caller may change `value`
        self.dirty = True  # a read converts it (sync)
        return True


class StatelessStep:
    """A jitted evaluation or prediction step: reads the variables, writes back what changed."""

    def __init__(self, fn, variables, jit_compile):
        self.variables = list(variables)
        self._run = _runner(_pure(fn, self.variables, updates_only=True), jit_compile)

    def __call__(self, batch):
        # The held values, read directly (no stateless scope or autocast applies out here).
        outputs, updates = self._run([v._read() for v in self.variables], batch)
        for i, value in updates.items():
            self.variables[i].assign(value)
        return outputs

    def sync(self):
        """Nothing held: every call already wrote its updates."""


def compile_step(fn, state_variables, mode, jit_compile, run_eagerly):
    jit = not run_eagerly and jit_compile is not False
    if mode == "train":
        return TrainStep(fn, state_variables, jit)
    return StatelessStep(fn, state_variables, jit)
