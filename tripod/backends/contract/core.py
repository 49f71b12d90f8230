"""Core ops: tensors, conversion, shape, control flow, state-free updates."""


def associative_scan(f, elems, reverse=False, axis=0):
    """Inclusive scan of `elems` along `axis` with the associative binary function `f`."""


def cast(x, dtype):
    """`x` converted to `dtype` (values wrap or truncate as the framework's cast does)."""


def cond(pred, true_fn, false_fn):
    """The result of `true_fn()` if the scalar `pred` is true, else of `false_fn()`."""


def convert_to_numpy(x):
    """`x` (a tensor, Variable or array-like) as a NumPy array on the host."""


def convert_to_tensor(x, dtype=None, sparse=None, ragged=None):
    """`x` as this backend's tensor; Python floats become floatx, ints int32."""


def custom_gradient(f):
    """Decorate `f` returning `(y, grad_fn)` so `grad_fn` gives its gradient."""


def dtype(x):
    """The standardized dtype name (e.g. `"float32"`) of tensor `x`."""


def fori_loop(lower, upper, body_fun, init_val):
    """Run `val = body_fun(i, val)` for i in [lower, upper); return the final `val`."""


def is_tensor(x):
    """Whether `x` is a native tensor of this backend."""


def map(f, xs):
    """Stack the results of `f` applied to each slice of `xs` along its leading axis."""


def saturate_cast(x, dtype):
    """`x` cast to `dtype`, first clipping values to the range `dtype` can hold."""


def scan(f, init, xs=None, length=None, reverse=False, unroll=1):
    """Loop `(carry, y) = f(carry, x)` over the leading axis of `xs`; return (carry, stacked ys)."""


def scatter(indices, values, shape):
    """A zero tensor of `shape` with `values` added at the index tuples `indices`."""


def scatter_update(inputs, indices, updates, reduction=None):
    """`inputs` with `updates` written (or reduced) at the index tuples `indices`."""


def shape(x):
    """The static shape of `x` as a tuple (None for unknown dimensions)."""


def slice(inputs, start_indices, shape):
    """The block of `inputs` starting at `start_indices` with size `shape`."""


def slice_update(inputs, start_indices, updates):
    """`inputs` with the block starting at `start_indices` replaced by `updates`."""


def stop_gradient(variable):
    """`variable` unchanged, but treated as a constant by differentiation."""


def switch(index, branches, *operands):
    """The result of `branches[index](*operands)`, with `index` clamped to the valid range."""


def unstack(x, num=None, axis=0):
    """The list of slices of `x` along `axis` (that axis removed)."""


def vectorized_map(function, elements):
    """`function` applied to each slice of `elements` along axis 0, results stacked."""


def while_loop(cond, body, loop_vars, maximum_iterations=None):
    """Apply `body` to `loop_vars` while `cond(*loop_vars)` holds; return the final vars."""
