"""The tensorflow backend: core ops (tensors, conversion, shape, control flow).

The `_`-prefixed helpers here (`tf_dtype`, `dtype_name`, `promote`, `to_float`, ...) are
shared by the other tensorflow kind modules.
"""

import builtins
import contextlib
import functools

import numpy as np
import tensorflow as tf
from tensorflow.compiler.tf2xla.python import xla
from tensorflow.python.framework.ops import EagerTensor as _EagerTensor
from tensorflow.python.ops import resource_variable_ops

from tripod.backends import dtypes
from tripod.backends.common import errors, variables
from tripod.backends.tensorflow.tensors import (
    TENSOR_TYPES,
    as_tensors,
    cast,
    convert_to_tensor,
    dtype_name,
    promote,
    tf_dtype,
)

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
    """A variable holding a `tf.Variable`; usable directly wherever TensorFlow takes a tensor."""

    _backend_name = "tensorflow"
    #: TensorFlow treats an object with this attribute as a resource variable: a
    #: `tf.GradientTape` differentiates it (through `handle`) as it would the `tf.Variable`.
    _should_act_as_resource_variable = True

    def _to_native(self, value):
        return convert_to_tensor(value, dtype=self._dtype)

    def _initial_native(self, value):
        # First made inside a trace (a tf.data map calling a preprocessing layer): host data
        # becomes an eager tensor outside it, so the tf.Variable can live beyond the trace.
        if tf.is_tensor(value) and not isinstance(value, _EagerTensor):
            return self._to_native(value)
        with tf.init_scope():
            return self._to_native(value)

    def _store(self, native):
        scope = tf.init_scope() if isinstance(native, _EagerTensor) else contextlib.nullcontext()
        with scope:
            if tf.distribute.has_strategy():  # made in `Distribution.scope()`
                distribute_variable(self, tf.distribute.get_strategy(), native)
            else:
                self._variable = tf.Variable(native, trainable=self._trainable)

    def _read(self):
        return self._variable.value()

    def _write(self, native):
        # The op itself: `tf.Variable.assign` spends as long again on checks done already.
        tf.raw_ops.AssignVariableOp(resource=self._variable.handle, value=native)

    def assign(self, value):
        if self._exact_host_array(value) and tf.executing_eagerly():
            # A host array that needs no cast (a metric reset): the op takes it as it is, far
            # cheaper than a conversion first. It may keep the very buffer it is given, so it
            # gets a copy of its own.
            value = value.copy()
            tf.raw_ops.AssignVariableOp(resource=self._variable.handle, value=value)
            return value
        return super().assign(value)

    def _update_in_place(self, kind, value):
        # One op in a traced step, not a read, an add and a write.
        update = self._variable.assign_add if kind == "add" else self._variable.assign_sub
        update(self._to_native(value), read_value=False)
        return self._read()

    @property
    def native(self):
        """The `tf.Variable` holding the value (what a `tf.GradientTape` differentiates)."""
        return self._variable

    @property
    def handle(self):
        """The resource handle of the `tf.Variable`: what `tape.gradient(loss, variables)`
        differentiates with respect to."""
        return self._variable.handle


# -- variables a tf.distribute strategy holds ----------------------------------------------------
class MirroredVariable(Variable):
    """A Variable whose `tf.Variable` a `tf.distribute` strategy mirrors, one copy per device.

    Outside the strategy's steps a write reaches every copy. Inside a step each replica writes its
    own copy: every replica computes the same value (weights and optimizer slots after the
    all-reduced gradients, seed states), so the copies stay equal without a collective per write,
    and a counter advances once per global step.
    """

    def assign(self, value):
        return variables.Variable.assign(self, value)  # no host-array shortcut: it writes one copy

    def _write(self, native):
        if self._in_replica():
            self._write_in_replica(native)
        else:
            self._variable.assign(native, read_value=False)

    def _update_in_place(self, kind, value):
        if self._in_replica():
            return self._update_in_replica(kind, self._to_native(value))
        return super()._update_in_place(kind, value)

    def _in_replica(self):
        """Whether one replica of the variable's strategy runs this (inside `strategy.run`)."""
        context = tf.distribute.get_replica_context()
        return context is not None and context.strategy is self._variable.distribute_strategy

    def _write_in_replica(self, native):
        super()._write(native)  # the replica's own copy: its handle

    def _update_in_replica(self, kind, native):
        op = tf.raw_ops.AssignAddVariableOp if kind == "add" else tf.raw_ops.AssignSubVariableOp
        op(resource=self._variable.handle, value=native)
        return self._read()


class AggregatedVariable(MirroredVariable):
    """Mirrored, and written by the replicas together inside a step: the strategy combines their
    values as the variable's aggregation says (the mean: BatchNormalization's moving statistics)."""

    def _write_in_replica(self, native):
        self._variable.assign(native, read_value=False)

    def _update_in_replica(self, kind, native):
        update = self._variable.assign_add if kind == "add" else self._variable.assign_sub
        update(native, read_value=False)
        return self._read()


class SummedVariable(MirroredVariable):
    """Synchronized on read: inside a step each replica adds into its own copy; a read outside the
    steps sums the copies of every process (metric totals and counts). Written outside the steps,
    one copy (process 0's first) holds the value and the others zeros, so the sum is the value."""

    def _write(self, native):
        if self._in_replica():
            self._write_in_replica(native)
            return
        holder = _first_copy_holder(self._variable.distribute_strategy)
        zeros = tf.zeros_like(native)
        for index, copy in enumerate(self._variable.values):
            copy.assign(native if holder and index == 0 else zeros, read_value=False)

    def _update_in_place(self, kind, value):
        if self._in_replica():
            return self._update_in_replica(kind, self._to_native(value))
        if _first_copy_holder(self._variable.distribute_strategy):
            first = self._variable.values[0]
            update = first.assign_add if kind == "add" else first.assign_sub
            update(self._to_native(value), read_value=False)
        return self._read()


def _first_copy_holder(strategy):
    """Whether this process holds the copy of a summed variable that keeps its whole value."""
    resolver = strategy.cluster_resolver
    return resolver is None or not resolver.task_id


def _distributed_form(variable):
    """(class, synchronization, aggregation) of `variable` under a strategy: metric states
    (aggregation "sum") summed on read; "only_first_replica" ones and other non-trainable floats
    aggregated on write; the rest (weights, integer states) written by each replica alike."""
    sync, agg = tf.VariableSynchronization, tf.VariableAggregation
    if variable.aggregation == "sum" and not variable.trainable:
        return SummedVariable, sync.ON_READ, agg.SUM
    if variable.aggregation == "only_first_replica":
        return AggregatedVariable, sync.ON_WRITE, agg.ONLY_FIRST_REPLICA
    if variable.dtype not in dtypes.FLOATS:  # TensorFlow averages floats only
        return MirroredVariable, sync.ON_WRITE, agg.NONE
    kind = MirroredVariable if variable.trainable else AggregatedVariable
    return kind, sync.ON_WRITE, agg.MEAN


def distribute_variable(variable, strategy, value=None):
    """Make `variable` held by `strategy` (a copy per device), keeping its value (`value` when
    given; process 0's in a multi-worker run); nothing is re-created when it is held already."""
    kind, synchronization, aggregation = _distributed_form(variable)
    native = getattr(variable, "_variable", None)
    held = (
        getattr(native, "distribute_strategy", None) is strategy
        and native.synchronization == synchronization
        and native.aggregation == aggregation
    )
    if not held and variable.dtype in _UNSIGNED and _several_workers(strategy):
        _hold_process_zeros_unsigned(variable, strategy, value)
        return
    if not held:
        value = variable._read() if value is None else value
        with strategy.scope():
            variable._variable = tf.Variable(
                value,
                trainable=variable._trainable,
                synchronization=synchronization,
                aggregation=aggregation,
            )
    variable.__class__ = kind
    if not held and kind is SummedVariable:
        variable._write(variable._variable.values[0].value())  # one copy holds the value


_UNSIGNED = ("uint8", "uint16", "uint32", "uint64")


def _several_workers(strategy):
    return (
        isinstance(strategy, tf.distribute.MultiWorkerMirroredStrategy)
        and strategy.extended._num_workers > 1
    )


def _hold_process_zeros_unsigned(variable, strategy, value):
    """An unsigned integer state (a seed generator's) in a multi-worker run, whose collectives
    carry no unsigned types: process 0's value arrives as int64 (the same bits for uint64) through
    a mirrored variable's initial broadcast, and each process holds it in a plain variable of its
    own (one replica per worker writes it, as it would its copy)."""
    value = variable._read() if value is None else value
    unsigned = variable.dtype == "uint64"
    wire = tf.bitcast(value, tf.int64) if unsigned else tf.cast(value, tf.int64)
    with strategy.scope():
        sent = tf.Variable(wire, trainable=False)
    received = sent.values[0].value()
    native = (
        tf.bitcast(received, tf.uint64)
        if unsigned
        else tf.cast(received, tf.as_dtype(variable.dtype))
    )
    # The class itself, not `tf.Variable`: the strategy's variable creator (whose scope may be
    # active) would mirror it, broadcasting the unsigned value again.
    variable._variable = resource_variable_ops.ResourceVariable(native, trainable=False)
    variable.__class__ = Variable


def write_per_replica(variable):
    """Have a placed variable written by each replica on its own copy (optimizer state, which
    every replica updates alike from the all-reduced gradients)."""
    if type(variable) is AggregatedVariable:
        variable.__class__ = MirroredVariable


def _variable_to_tensor(value, dtype=None, name=None, as_ref=False):
    """Read a tripod `Variable` through `.value`, so an active stateless scope applies."""
    return tf.convert_to_tensor(value.value, dtype=dtype, name=name)


tf.register_tensor_conversion_function(Variable, _variable_to_tensor)


def _limits(dtype):
    """The lowest and highest finite values of a real `tf.DType`, as Python numbers."""
    kind = int if dtype.is_integer else float
    return kind(dtype.min), kind(dtype.max)


def saturate_cast(x, dtype):
    dtype = tf_dtype(dtype)
    x = convert_to_tensor(x)
    if x.dtype == tf.bool or dtype == tf.bool or dtype.is_complex:
        return cast(x, dtype)
    low, high = _limits(dtype)
    if x.dtype.is_integer:
        source_low, source_high = _limits(x.dtype)
        low, high = max(low, source_low), min(high, source_high)
        return tf.cast(tf.clip_by_value(x, tf.cast(low, x.dtype), tf.cast(high, x.dtype)), dtype)
    wide = tf.cast(tf.math.real(x) if x.dtype.is_complex else x, tf.float64)
    clipped = tf.clip_by_value(wide, float(low), float(high))
    if dtype.is_integer:
        clipped = tf.where(tf.math.is_nan(clipped), tf.zeros_like(clipped), clipped)
    return tf.cast(clipped, dtype)


def convert_to_numpy(x):
    if isinstance(x, variables.Variable):
        x = x.value
    if isinstance(x, tf.SparseTensor):
        x = tf.sparse.to_dense(x)
    if isinstance(x, tf.RaggedTensor):
        x = x.to_tensor()
    return convert_to_tensor(x).numpy()


def is_tensor(x):
    # NumPy first: tf.is_tensor checks a typing protocol, ~10 us for anything not a tensor.
    return not isinstance(x, (np.ndarray, np.generic)) and tf.is_tensor(x)


def dtype(x):
    return dtype_name(x)


def shape(x):
    if isinstance(x, variables.Variable):
        return x.shape
    if not isinstance(x, TENSOR_TYPES):
        return tuple(np.shape(x))
    if x.shape.rank is None:
        return tf.shape(x)
    static = x.shape.as_list()
    if None not in static:
        return tuple(static)
    dynamic = tf.shape(x)
    return tuple(dynamic[i] if d is None else d for i, d in enumerate(static))


def stop_gradient(variable):
    return tf.stop_gradient(convert_to_tensor(variable))


# -- indexing updates ------------------------------------------------------------------------------
def scatter(indices, values, shape):
    return tf.scatter_nd(convert_to_tensor(indices), convert_to_tensor(values), shape)


_SCATTER = {
    None: tf.tensor_scatter_nd_update,
    "add": tf.tensor_scatter_nd_add,
    "max": tf.tensor_scatter_nd_max,
    "min": tf.tensor_scatter_nd_min,
}


def scatter_update(inputs, indices, updates, reduction=None):
    inputs = convert_to_tensor(inputs)
    indices = convert_to_tensor(indices)
    updates = cast(updates, inputs.dtype)
    if reduction == "mul":
        return inputs * _scatter_product(tf.shape(inputs), indices, updates)
    if reduction not in _SCATTER:
        raise ValueError(
            f"reduction must be None, 'add', 'max', 'min' or 'mul', received {reduction!r}."
        )
    return _SCATTER[reduction](inputs, indices, updates)


def _scatter_product(full_shape, indices, updates):
    """A tensor of `full_shape`: the product of the updates landing on each slot, else 1."""
    depth = indices.shape[-1]
    slots = full_shape[:depth]
    strides = tf.math.cumprod(slots, reverse=True, exclusive=True)
    flat = tf.reduce_sum(tf.cast(indices, strides.dtype) * strides, axis=-1)
    product = tf.math.unsorted_segment_prod(updates, flat, tf.reduce_prod(slots))
    return tf.reshape(product, full_shape)


def slice(inputs, start_indices, shape):
    return tf.slice(convert_to_tensor(inputs), start_indices, shape)


def slice_update(inputs, start_indices, updates):
    inputs = convert_to_tensor(inputs)
    updates = cast(updates, inputs.dtype)
    start = tf.cast(convert_to_tensor(start_indices), tf.int32)
    # XLA's dynamic update: the result keeps the static shape of `inputs` and compiles under
    # jit_compile with a start known only at run time (a KV cache's position), as a padded
    # mask of dynamic size could not.
    return xla.dynamic_update_slice(inputs, updates, start)


# -- control flow --------------------------------------------------------------------------------
def _like(new, old):
    """`new` in the structure of `old`, each leaf cast to the dtype of `old`'s leaf."""
    leaves = tf.nest.flatten(new)
    return tf.nest.pack_sequence_as(
        old, [cast(n, o.dtype) for n, o in zip(leaves, tf.nest.flatten(old), strict=True)]
    )


def cond(pred, true_fn, false_fn):
    pred = convert_to_tensor(pred)
    if pred.dtype != tf.bool:
        pred = tf.not_equal(pred, tf.zeros((), pred.dtype))
    return tf.cond(pred, true_fn, false_fn)


def switch(index, branches, *operands):
    index = tf.clip_by_value(cast(index, "int32"), 0, len(branches) - 1)
    return tf.switch_case(index, [functools.partial(branch, *operands) for branch in branches])


def while_loop(cond, body, loop_vars, maximum_iterations=None):
    is_tuple = isinstance(loop_vars, (tuple, list))
    loop_vars = as_tensors(tuple(loop_vars) if is_tuple else (loop_vars,))

    def step(*args):
        outputs = body(*args)
        return _like(tuple(outputs) if is_tuple else (outputs,), loop_vars)

    outputs = tf.while_loop(cond, step, loop_vars, maximum_iterations=maximum_iterations)
    return tuple(outputs) if is_tuple else outputs[0]


def fori_loop(lower, upper, body_fun, init_val):
    init_val = as_tensors(init_val)
    lower, upper = promote(lower, upper)

    def step(i, value):
        return i + 1, _like(body_fun(i, value), init_val)

    return tf.while_loop(lambda i, _: i < upper, step, (lower, init_val))[1]


def _leading(x):
    """The static length of `x`'s first axis where known, else its dynamic length."""
    return x.shape[0] if x.shape[0] is not None else tf.shape(x)[0]


def _spec(x):
    return tf.TensorSpec(x.shape, x.dtype)


def scan(f, init, xs=None, length=None, reverse=False, unroll=1):
    carry = as_tensors(init)
    x_leaves = [convert_to_tensor(x) for x in tf.nest.flatten(xs)] if xs is not None else []
    n = length if length is not None else _leading(x_leaves[0])

    # Steps read from TensorArrays: the gradient of `x[i]` inside the loop would add a zero
    # tensor the size of all of `x` per step.
    x_arrays = [
        tf.TensorArray(x.dtype, size=n, element_shape=x.shape[1:]).unstack(x) for x in x_leaves
    ]

    def item(i):
        if xs is None:
            return None
        return tf.nest.pack_sequence_as(xs, [a.read(i) for a in x_arrays])

    def call(carry, x):
        new, y = f(carry, x)
        return _like(new, carry), (None if y is None else as_tensors(y))

    item_spec = None
    if xs is not None:
        item_spec = tf.nest.pack_sequence_as(
            xs, [tf.TensorSpec(x.shape[1:], x.dtype) for x in x_leaves]
        )
    y_spec = (
        tf.function(call, autograph=False)
        .get_concrete_function(tf.nest.map_structure(_spec, carry), item_spec)
        .structured_outputs[1]
    )
    y_leaves = [] if y_spec is None else tf.nest.flatten(y_spec)
    arrays = [tf.TensorArray(y.dtype, size=n, element_shape=y.shape) for y in y_leaves]

    def step(i, carry, arrays):
        index = n - 1 - i if reverse else i
        carry, y = call(carry, item(index))
        y = [] if y is None else tf.nest.flatten(y)
        return i + 1, carry, [a.write(index, v) for a, v in zip(arrays, y, strict=True)]

    # A static bound lets XLA (jit_compile=True) size the loop's tensor lists.
    bound = n if isinstance(n, int) else None
    _, carry, arrays = tf.while_loop(
        lambda i, *_: i < n, step, (0, carry, arrays), maximum_iterations=bound
    )
    ys = None if y_spec is None else tf.nest.pack_sequence_as(y_spec, [a.stack() for a in arrays])
    return carry, ys


def map(f, xs):
    return scan(lambda carry, x: (carry, f(x)), (), xs)[1]


def associative_scan(f, elems, reverse=False, axis=0):
    leaves = [convert_to_tensor(x) for x in tf.nest.flatten(elems)]
    axis = errors.check_axis("associative_scan", axis, leaves[0].shape.rank)
    if reverse:
        leaves = [tf.reverse(x, [axis]) for x in leaves]
    n = leaves[0].shape[axis]
    if n is None:
        raise ValueError("associative_scan needs the length of the scanned axis to be static.")

    def part(x, start, stop):
        return x[(builtins.slice(None),) * axis + (builtins.slice(start, stop),)]

    def combine(a, b):
        out = f(tf.nest.pack_sequence_as(elems, a), tf.nest.pack_sequence_as(elems, b))
        return [convert_to_tensor(v) for v in tf.nest.flatten(out)]

    # Hillis-Steele: after the step with `offset`, each slot combines the 2 * offset slots up to it.
    offset = 1
    while offset < n:
        later = combine(
            [part(x, 0, n - offset) for x in leaves], [part(x, offset, n) for x in leaves]
        )
        leaves = [
            tf.concat([part(x, 0, offset), y], axis) for x, y in zip(leaves, later, strict=True)
        ]
        offset *= 2
    if reverse:
        leaves = [tf.reverse(x, [axis]) for x in leaves]
    return tf.nest.pack_sequence_as(elems, leaves)


def vectorized_map(function, elements):
    return tf.vectorized_map(function, as_tensors(elements))


def custom_gradient(f):
    def forward(*args, **kwargs):  # a plain function: tf.custom_gradient needs a __name__
        return f(*args, **kwargs)

    return tf.custom_gradient(forward)
