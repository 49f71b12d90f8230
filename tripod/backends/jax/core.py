"""The jax backend: core ops (tensors, conversion, shape, control flow, state-free updates)."""

import builtins
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from tripod.backends import dtypes
from tripod.backends.common import dtype_rules, errors, variables
from tripod.backends.jax import symbolic
from tripod.backends.jax.distribution import gathered, put

__all__ = [
    "associative_scan",
    "cast",
    "cond",
    "convert_to_numpy",
    "convert_to_tensor",
    "custom_gradient",
    "dtype",
    "fori_loop",
    "is_tensor",
    "map",
    "saturate_cast",
    "scan",
    "scatter",
    "scatter_update",
    "shape",
    "slice",
    "slice_update",
    "stop_gradient",
    "switch",
    "vectorized_map",
    "while_loop",
]


class Variable(variables.Variable):
    """A variable holding a JAX array (replaced, never mutated, on assignment).

    While a jitted training step holds the model state (`hooks.TrainStep`), the step is the
    variable's owner: reading first syncs the step's state back, writing goes into its state too.
    Under a distribution the variable is placed (`_place`): its value keeps that sharding through
    every write, and `numpy()` gathers it from every process.
    """

    _backend_name = "jax"
    _owner = None
    _sharding = None

    @staticmethod
    def _stored_dtype(name):
        return dtypes.standardize_dtype(np_dtype(name))

    def _initial_native(self, value):
        # Created inside a trace (a layer built during jax.eval_shape): keep the value concrete.
        with jax.ensure_compile_time_eval():
            return self._to_native(value)

    def _to_native(self, value):
        if isinstance(value, np.ndarray):
            value = value.copy()  # on CPU jax may alias host memory: a variable owns its value
        return convert_to_tensor(value, dtype=self._dtype)

    def _store(self, native):
        self._array = native

    def _read(self):
        owner = self._owner
        if owner is not None and owner.dirty:
            owner.sync()
        return self._array

    def _write(self, native):
        if isinstance(native, jax.core.Tracer):
            raise TypeError(
                f"Variable {self.path!r}: assign() received a value traced by a JAX transformation "
                "(jax.jit, jax.grad, lax.scan, ...); the variable would keep a tracer after the "
                "trace ends. Inside your own jax.jit, work on values instead "
                "(`layer.stateless_call(...)`, `optimizer.stateless_apply(...)` or a "
                "`tripod.StatelessScope`), return the new values and assign them outside; or let "
                "`fit` / `tripod.value_and_grad` run the step."
            )
        if self._sharding is not None:
            native = put(native, self._sharding)
        self._array = native
        if self._owner is not None:
            self._owner.write(self, native)

    def assign(self, value):
        owner = self._owner
        if (
            owner is not None
            and self._sharding is None  # a placed value is never a NumPy one in the state
            and self._exact_host_array(value)
            and owner.write_host(self, value)
        ):
            return value  # a NumPy value the training step takes as it is (a metric reset)
        return super().assign(value)

    def numpy(self):
        """The whole current value as a NumPy array, gathered from every process's devices when
        it is sharded over them (every process calls this in the same order)."""
        return gathered(self.value)

    def _claim(self, owner):
        """Make `owner` (a training step holding this variable's state) or None its owner."""
        self._owner = owner

    def _place(self, sharding, value):
        """Hold `value` (host or device, the same in every process) laid out as `sharding`, a
        distribution's placement, which every later write keeps."""
        self._sharding = sharding
        self._write(value)  # which lays it out

    def __jax_array__(self):
        """The current value, for `jnp.asarray(variable)` and operators with jax arrays."""
        return self.value


# A variable passed to a jax transformation (`jax.jit(step)(model.trainable_variables, ...)`, as
# Keras's guides write custom loops) goes in as its current value; the function sees an array.
jax.tree_util.register_pytree_node(
    Variable, lambda variable: ((variable.value,), None), lambda _, children: children[0]
)


def np_dtype(dtype):
    """The dtype jax stores tripod dtype `dtype` (None means floatx) in: a 64-bit type becomes
    its 32-bit counterpart unless JAX's 64-bit mode (`jax_enable_x64`) is on, as in Keras."""
    if dtype is None:  # floatx may change between calls
        return jax.dtypes.canonicalize_dtype(dtypes.to_numpy(dtype))
    return _stored(dtype, jax.config.jax_enable_x64)


@functools.cache
def _stored(dtype, x64):
    """`np_dtype` of a named dtype, per state of the 64-bit switch (ops ask it on every call)."""
    del x64  # a key only: canonicalize_dtype reads the switch itself
    return jax.dtypes.canonicalize_dtype(dtypes.to_numpy(dtype))


def convert_to_tensor(x, dtype=None, sparse=None, ragged=None):
    errors.check_dense("jax", sparse, ragged)
    if isinstance(x, variables.Variable):
        x = x.value
    if isinstance(x, jax.Array) and (dtype is None or _holds(x, np_dtype(dtype))):
        return x  # what jnp.asarray would return, without its per-call cost (eager ops)
    if dtype is not None:
        return jnp.asarray(x, dtype=np_dtype(dtype))
    if isinstance(x, (jax.Array, np.ndarray, np.generic)):
        return jnp.asarray(x)
    kind = dtypes.dtype_of_python_scalar(x)
    if kind is not None:
        return jnp.asarray(x, dtype=np_dtype(dtypes.result_type(kind)))
    return _from_sequence(x)


def _holds(x, dtype):
    """Whether jax array or tracer `x` already is a strongly typed `dtype` array."""
    return x.dtype == dtype and not x.weak_type


def _from_sequence(x):
    """A (nested) list or tuple as an array; its Python floats give floatx, its ints int32."""
    array = jnp.asarray(x)
    return array.astype(dtype_rules.sequence_dtype(array.dtype))


def convert_to_numpy(x):
    if isinstance(x, jax.Array):
        return np.asarray(x)
    if isinstance(x, variables.Variable):
        return x.numpy()  # gathered when distributed
    return np.asarray(convert_to_tensor(x))


def is_tensor(x):
    return isinstance(x, jax.Array)


def shape(x):
    return tuple(convert_to_tensor(x).shape)


def dtype(x):
    return dtypes.standardize_dtype(convert_to_tensor(x).dtype)


def cast(x, dtype):
    return convert_to_tensor(x).astype(np_dtype(dtype))


def saturate_cast(x, dtype):
    x = convert_to_tensor(x)
    target = dtypes.standardize_dtype(dtype)
    source = dtypes.standardize_dtype(x.dtype)
    bounds = _saturation_bounds(source, target)
    if bounds is not None:
        x = jnp.clip(x, *(jnp.asarray(b, x.dtype) for b in bounds))
    return x.astype(np_dtype(target))


def _saturation_bounds(source, target):
    """(low, high) of `target`'s range, representable in `source`; None if no clip is needed."""
    if target == "bool" or source == "bool" or dtypes.is_complex(source):
        return None
    info = _info(target)
    own = _info(source)
    low, high = builtins.max(info.min, own.min), builtins.min(info.max, own.max)
    if (low, high) == (own.min, own.max):
        return None
    np_source = np_dtype(source)
    low_in, high_in = np.asarray(low).astype(np_source), np.asarray(high).astype(np_source)
    if dtypes.is_float(source):
        if float(high_in) > high:
            high_in = np.nextafter(high_in, np.zeros_like(high_in))
        if float(low_in) < low:
            low_in = np.nextafter(low_in, np.zeros_like(low_in))
    return low_in, high_in


def _info(name):
    stored = np_dtype(name)
    return np.iinfo(stored) if dtypes.is_int(name) else jnp.finfo(stored)


# -- control flow -----------------------------------------------------------------------------


def _tensors(structure):
    """Every leaf of a pytree converted to a tensor (Python numbers get tripod's dtypes)."""
    return jax.tree.map(convert_to_tensor, structure)


def _like(new, old):
    """Pytree `new` with each leaf cast to the dtype of the matching leaf of `old`."""
    return jax.tree.map(lambda n, o: jnp.asarray(n, dtype=o.dtype), new, old)


def cond(pred, true_fn, false_fn):
    # Eagerly only the chosen branch runs: `lax.cond` would compile both branches on every call
    # (each call brings new closures), as the other backends' `if` never does.
    if not isinstance(pred, jax.core.Tracer):
        return true_fn() if bool(pred) else false_fn()
    return lax.cond(pred, true_fn, false_fn)


def switch(index, branches, *operands):
    if not isinstance(index, jax.core.Tracer):  # eagerly: the chosen branch alone, as in `cond`
        return branches[builtins.min(builtins.max(int(index), 0), len(branches) - 1)](*operands)
    return lax.switch(index, branches, *_tensors(operands))


def while_loop(cond, body, loop_vars, maximum_iterations=None):
    is_sequence = isinstance(loop_vars, (list, tuple))
    state = _tensors(tuple(loop_vars) if is_sequence else (loop_vars,))

    def as_tuple(out):
        return tuple(out) if is_sequence else (out,)

    if maximum_iterations is None:
        result = lax.while_loop(lambda s: cond(*s), lambda s: _like(as_tuple(body(*s)), s), state)
    else:
        limit = jnp.asarray(maximum_iterations, jnp.int32)
        _, result = lax.while_loop(
            lambda c: jnp.logical_and(c[0] < limit, cond(*c[1])),
            lambda c: (c[0] + 1, _like(as_tuple(body(*c[1])), c[1])),
            (jnp.zeros((), jnp.int32), state),
        )
    if is_sequence:
        return type(loop_vars)(result) if isinstance(loop_vars, list) else result
    return result[0]


def fori_loop(lower, upper, body_fun, init_val):
    init = _tensors(init_val)

    def body(i, value):
        return _like(body_fun(jnp.asarray(i, jnp.int32), value), value)

    if _is_static_int(lower) and _is_static_int(upper):
        return lax.fori_loop(int(lower), int(upper), body, init)
    return lax.fori_loop(jnp.asarray(lower, jnp.int32), jnp.asarray(upper, jnp.int32), body, init)


def _is_static_int(value):
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def scan(f, init, xs=None, length=None, reverse=False, unroll=1):
    init = _tensors(init)
    if xs is not None:
        xs = _tensors(xs)

    def step(carry, x):
        new_carry, y = f(carry, x)
        return _like(new_carry, carry), y

    return lax.scan(step, init, xs, length=length, reverse=reverse, unroll=unroll)


def associative_scan(f, elems, reverse=False, axis=0):
    return lax.associative_scan(f, _tensors(elems), reverse=reverse, axis=axis)


def map(f, xs):
    return lax.map(f, _tensors(xs))


def vectorized_map(function, elements):
    return jax.vmap(function)(_tensors(elements))


def custom_gradient(f):
    return jax.custom_gradient(f)


def stop_gradient(variable):
    return lax.stop_gradient(convert_to_tensor(variable))


# -- scattering and slicing ------------------------------------------------------------------


def _index_tuple(indices, rank):
    """`indices` of shape (N, k), k <= rank, as a tuple of k index columns."""
    indices = convert_to_tensor(indices)
    if indices.ndim != 2 or indices.shape[-1] > rank:
        raise ValueError(
            f"indices must have shape (num_updates, k) with k <= {rank}, got {indices.shape}."
        )
    return tuple(indices[:, i] for i in range(indices.shape[-1]))


def scatter(indices, values, shape):
    values = convert_to_tensor(values)
    shape = tuple(int(d) for d in shape)
    zeros = jnp.zeros(shape, values.dtype)
    return zeros.at[_index_tuple(indices, len(shape))].add(values)


_REDUCTIONS = {None: "set", "add": "add", "max": "max", "min": "min", "mul": "multiply"}


def scatter_update(inputs, indices, updates, reduction=None):
    inputs = convert_to_tensor(inputs)
    if reduction not in _REDUCTIONS:
        raise ValueError(
            f"reduction must be one of {sorted(k for k in _REDUCTIONS if k)} or None, "
            f"received {reduction!r}."
        )
    updates = convert_to_tensor(updates, inputs.dtype)
    at = inputs.at[_index_tuple(indices, inputs.ndim)]
    return getattr(at, _REDUCTIONS[reduction])(updates)


def _start_indices(start_indices, shape, sizes):
    """`start_indices` as int32 scalars; a ValueError when static ones put the block outside."""
    if isinstance(start_indices, (list, tuple)):
        starts = list(start_indices)
    else:
        starts = list(convert_to_tensor(start_indices).astype(jnp.int32))
    if len(starts) != len(shape) or len(sizes) != len(shape):
        raise ValueError(
            f"expected {len(shape)} start indices and sizes, "
            f"received {len(starts)} and {len(sizes)}."
        )
    if not builtins.any(isinstance(s, jax.core.Tracer) for s in starts):
        for start, size, dim in zip(starts, sizes, shape):
            if int(start) < 0 or size < 0 or int(start) + size > dim:
                raise ValueError(
                    f"the block at {[int(s) for s in starts]} of size {list(sizes)} lies "
                    f"outside the shape {shape}."
                )
    return [jnp.asarray(s, jnp.int32) for s in starts]


def slice(inputs, start_indices, shape):
    inputs = convert_to_tensor(inputs)
    sizes = symbolic.dims(shape)
    return lax.dynamic_slice(inputs, _start_indices(start_indices, inputs.shape, sizes), sizes)


def slice_update(inputs, start_indices, updates):
    inputs = convert_to_tensor(inputs)
    updates = convert_to_tensor(updates, inputs.dtype)
    starts = _start_indices(start_indices, inputs.shape, updates.shape)
    return lax.dynamic_update_slice(inputs, updates, starts)
