"""Core ops: tensors, conversion, shape, control flow, state-free updates."""


def associative_scan(f, elems, reverse=False, axis=0):
    """Inclusive scan of `elems` along `axis` with the associative binary function `f`."""


def cast(x, dtype):
    """`x` converted to `dtype` (values wrap or truncate as the framework's cast does).

    Floats cast to integers are truncated towards zero; any non-zero value cast to bool is
    True. A value outside the range of `dtype` (300.0 to uint8, say) gives what the framework
    gives, which differs between backends (jax clips, the others wrap around); `saturate_cast`
    clips on every backend.

    Args:
        x: tensor (or array-like) to convert.
        dtype: the target dtype, a name such as "float32", "int32", "bool" or "bfloat16".

    Returns:
        A tensor of `x`'s shape and of `dtype`.

    Examples:
        >>> x = np.array([1.7, -1.7, 0.0], "float32")
        >>> tripod.ops.convert_to_numpy(tripod.ops.cast(x, "int32"))
        array([ 1, -1,  0], dtype=int32)
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.cast(x, "bool")))
        [ True  True False]
    """


def cond(pred, true_fn, false_fn):
    """The result of `true_fn()` if the scalar `pred` is true, else of `false_fn()`.

    Eagerly, only the chosen function runs. Inside a compiled function (`jax.jit`,
    `tf.function`) where `pred` is not known until run time, both may be traced, so both must
    return the same structure of tensors with the same shapes and dtypes.

    Args:
        pred: a Python bool, or a scalar (0-d) tensor read as a bool (non-zero is true).
        true_fn: a function of no arguments, called when `pred` is true.
        false_fn: a function of no arguments, called when `pred` is false.

    Returns:
        What the chosen function returns: a tensor or a nested structure of tensors.

    Examples:
        >>> x = tripod.ops.convert_to_tensor(3.0)
        >>> float(tripod.ops.cond(x > 0, lambda: x * 2, lambda: -x))
        6.0
        >>> float(tripod.ops.cond(x > 5, lambda: x * 2, lambda: -x))
        -3.0
    """


def convert_to_numpy(x):
    """`x` (a tensor, Variable or array-like) as a NumPy array on the host.

    The way to read a result the same on every backend: it copies a device tensor to host
    memory. It cannot be used inside a compiled function, where values are not known yet.

    Args:
        x: a tensor of any backend's kind, a `tripod.Variable` (its value), a NumPy array, a
            Python scalar or a nested list (Python floats give floatx, ints int32, as in
            `convert_to_tensor`).

    Returns:
        A `numpy.ndarray` of `x`'s shape and dtype.

    Examples:
        >>> y = tripod.ops.add(np.array([1, 2], "int32"), 1)
        >>> tripod.ops.convert_to_numpy(y)
        array([2, 3], dtype=int32)
        >>> tripod.ops.convert_to_numpy([1.0, 2.5])
        array([1. , 2.5], dtype=float32)
    """


def convert_to_tensor(x, dtype=None, sparse=None, ragged=None):
    """`x` as this backend's tensor; Python floats become floatx, ints int32.

    Every op converts its inputs this way itself; call it to fix a dtype, or to hold a native
    tensor (a `jax.Array`, `torch.Tensor`, `tf.Tensor` or NumPy array) of the active backend.

    Args:
        x: a tensor, a `tripod.Variable` (its value is taken), a NumPy array, a Python scalar or
            a nested list of them.
        dtype: the dtype of the result, e.g. "float16"; default None infers it: Python floats
            give floatx (float32 unless changed), Python ints int32, bools bool, and tensors and
            NumPy arrays keep theirs (on jax, without JAX's 64-bit mode, 64-bit arrays become
            their 32-bit kind).
        sparse: None, True or False. Only the tensorflow backend has sparse tensors: there
            False densifies a `tf.SparseTensor` and None or True keep it. True raises a
            ValueError on the other backends.
        ragged: None, True or False: the same for ragged tensors (`tf.RaggedTensor`, tensorflow
            only).

    Returns:
        A tensor of the active backend holding `x`'s values.

    Examples:
        >>> tripod.ops.dtype(tripod.ops.convert_to_tensor([1, 2]))
        'int32'
        >>> tripod.ops.dtype(tripod.ops.convert_to_tensor(1.5))
        'float32'
        >>> t = tripod.ops.convert_to_tensor([1, 2], dtype="float16")
        >>> tripod.ops.convert_to_numpy(t)
        array([1., 2.], dtype=float16)
    """


def custom_gradient(f):
    """Decorate `f` returning `(y, grad_fn)` so `grad_fn` gives its gradient."""


def dtype(x):
    """The standardized dtype name (e.g. `"float32"`) of tensor `x`."""


def fori_loop(lower, upper, body_fun, init_val):
    """Run `val = body_fun(i, val)` for i in [lower, upper); return the final `val`.

    The loop form of `for i in range(lower, upper)`, which compiles on jax and tensorflow.

    Args:
        lower: int (or scalar int tensor), the first value of `i`.
        upper: int (or scalar int tensor), the value of `i` at which the loop stops (not run).
        body_fun: a function `(i, val) -> new val`. `i` is a Python int on numpy and torch and
            a scalar int32 tensor on jax and tensorflow; the new value must have `val`'s
            structure, shapes and dtypes.
        init_val: the initial value: a tensor, a Python number or a nested structure of them.

    Returns:
        The value after the last step, of `init_val`'s structure (the value of `init_val`
        when `upper <= lower`).

    Examples:
        >>> total = tripod.ops.fori_loop(0, 5, lambda i, acc: acc + i, 0)  # 0 + 1 + 2 + 3 + 4
        >>> int(total)
        10
        >>> x = tripod.ops.fori_loop(0, 3, lambda i, x: x * 2.0, np.ones(2, "float32"))
        >>> print(tripod.ops.convert_to_numpy(x))
        [8. 8.]
    """


def is_tensor(x):
    """Whether `x` is a native tensor of this backend."""


def map(f, xs):
    """Stack the results of `f` applied to each slice of `xs` along its leading axis."""


def saturate_cast(x, dtype):
    """`x` cast to `dtype`, first clipping values to the range `dtype` can hold."""


def scan(f, init, xs=None, length=None, reverse=False, unroll=1):
    """Loop `(carry, y) = f(carry, x)` over the leading axis of `xs`; return (carry, stacked ys).

    A loop that threads a state (`carry`) from step to step and collects one output per step;
    it compiles on jax and tensorflow. Running sums, recurrent cells and sampling loops are
    scans.

    Args:
        f: a function `(carry, x) -> (new carry, y)`. The new carry must have `init`'s structure,
            shapes and dtypes; `y` may be any structure of tensors (or None) that is the same at
            every step.
        init: the initial carry: a tensor, a Python number or a nested structure of them.
        xs: a tensor, or a nested structure of tensors sharing their leading size `n`; step `i`
            gets `x = xs[i]` (the structure of the `i`-th slices). Default None: `f` gets
            `x=None` at every step, for `length` steps.
        length: int, the number of steps; required when `xs` is None, otherwise it must equal
            the leading size of `xs`. Default None.
        reverse: bool, default False. True runs from the last step to the first; the outputs
            are still stacked in the order of `xs`.
        unroll: int, the number of steps a compiled loop runs per iteration; default 1. Only
            jax uses it, and it never changes the results.

    Returns:
        A tuple `(carry, ys)`: the carry after the last step, and the `y`s stacked along a new
        leading axis of size `n` (a structure like `y`'s when `y` is one).

    Examples:
        >>> def running_sum(total, x):
        ...     total = total + x
        ...     return total, total
        >>> xs = np.array([1.0, 2.0, 3.0], "float32")
        >>> carry, ys = tripod.ops.scan(running_sum, 0.0, xs)
        >>> float(carry), tripod.ops.convert_to_numpy(ys).tolist()
        (6.0, [1.0, 3.0, 6.0])
        >>> _, ys = tripod.ops.scan(running_sum, 0.0, xs, reverse=True)  # sums from the end
        >>> tripod.ops.convert_to_numpy(ys).tolist()
        [6.0, 5.0, 3.0]
    """


def scatter(indices, values, shape):
    """A zero tensor of `shape` with `values` added at the index tuples `indices`."""


def scatter_update(inputs, indices, updates, reduction=None):
    """`inputs` with `updates` written (or reduced) at the index tuples `indices`."""


def shape(x):
    """The shape of `x` as a tuple of ints, one per axis.

    Args:
        x: a tensor, a `tripod.Variable`, a NumPy array or an array-like.

    Returns:
        A tuple of ints (`()` for a scalar). On tensorflow, inside a `tf.function` traced
        with a dimension unknown until run time, that entry is a scalar int32 tensor holding
        the run-time size. (A symbolic `KerasTensor` gives None for its unknown dimensions
        through its own `.shape`.)

    Examples:
        >>> tripod.ops.shape(np.zeros((2, 3)))
        (2, 3)
        >>> tripod.ops.shape(tripod.ops.convert_to_tensor(1.0))
        ()
    """


def slice(inputs, start_indices, shape):
    """The block of `inputs` starting at `start_indices` with size `shape`.

    `slice(x, (i, j), (h, w))` is `x[i:i + h, j:j + w]`, with starts that may be tensors
    computed at run time (the sizes stay fixed).

    Args:
        inputs: tensor to take the block from.
        start_indices: the first index of the block along each axis: a list or tuple of ints
            (or scalar int tensors), or a 1-D int tensor, one entry per axis of `inputs`.
        shape: the size of the block along each axis: a list or tuple of ints, one per axis.

    Returns:
        A tensor of `inputs`' dtype and of shape `shape`.

    Raises:
        ValueError: not one start and one size per axis, or a block that does not lie inside
            `inputs` (where the starts are known before run time).

    Examples:
        >>> x = np.arange(12, dtype="int32").reshape(3, 4)
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.slice(x, (1, 1), (2, 2))))
        [[ 5  6]
         [ 9 10]]
    """


def slice_update(inputs, start_indices, updates):
    """`inputs` with the block starting at `start_indices` replaced by `updates`.

    A new tensor is returned; `inputs` is left unchanged (the tensors of jax and tensorflow
    cannot be written to in place).

    Args:
        inputs: tensor to update.
        start_indices: where the block starts along each axis: a list or tuple of ints (or
            scalar int tensors), or a 1-D int tensor, one entry per axis of `inputs`.
        updates: tensor of `inputs`' rank, the new values of the block, whose size it gives;
            it is cast to `inputs`' dtype.

    Returns:
        A tensor of `inputs`' shape and dtype.

    Raises:
        ValueError: not one start per axis, or a block that does not lie inside `inputs`
            (where the starts are known before run time).

    Examples:
        >>> x = np.zeros((3, 3), "int32")
        >>> y = tripod.ops.slice_update(x, (1, 1), np.ones((2, 2), "int32"))
        >>> print(tripod.ops.convert_to_numpy(y))
        [[0 0 0]
         [0 1 1]
         [0 1 1]]
    """


def stop_gradient(variable):
    """`variable` unchanged, but treated as a constant by differentiation.

    Its value passes through, but no gradient flows back through it: use it for targets that
    must not be trained towards (a target network, a moving average) or for parts of a loss
    that should only be read. On the numpy backend, which computes no gradients, it only
    converts its input to a tensor.

    Args:
        variable: a tensor or a `tripod.Variable` (its value is taken).

    Returns:
        A tensor with `variable`'s values, shape and dtype.

    Examples:
        >>> w = tripod.Variable(np.array([2.0, 3.0], "float32"))
        >>> def loss():  # w times a constant copy of w: the gradient is w, not 2 * w
        ...     return tripod.ops.sum(w * tripod.ops.stop_gradient(w))
        >>> value, grads = tripod.value_and_grad(loss, [w])()
        >>> float(value), tripod.ops.convert_to_numpy(grads[0]).tolist()
        (13.0, [2.0, 3.0])
    """


def switch(index, branches, *operands):
    """The result of `branches[index](*operands)`, with `index` clamped to the valid range."""


def unstack(x, num=None, axis=0):
    """The list of slices of `x` along `axis` (that axis removed)."""


def vectorized_map(function, elements):
    """`function` applied to each slice of `elements` along axis 0, results stacked."""


def while_loop(cond, body, loop_vars, maximum_iterations=None):
    """Apply `body` to `loop_vars` while `cond(*loop_vars)` holds; return the final vars."""
