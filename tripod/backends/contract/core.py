"""Core ops: tensors, conversion, shape, control flow, state-free updates."""

# ruff: noqa: A001, A002


def associative_scan(f, elems, reverse=False, axis=0):
    """DOC"""


def cast(x, dtype):
    """DOC"""


def cond(pred, true_fn, false_fn):
    """DOC"""


def convert_to_numpy(x):
    """DOC"""


def convert_to_tensor(x, dtype=None, sparse=None, ragged=None):
    """DOC"""


def custom_gradient(f):
    """DOC"""


def dtype(x):
    """DOC"""


def fori_loop(lower, upper, body_fun, init_val):
    """DOC"""


def is_tensor(x):
    """DOC"""


def map(f, xs):
    """DOC"""


def saturate_cast(x, dtype):
    """DOC"""


def scan(f, init, xs=None, length=None, reverse=False, unroll=1):
    """DOC"""


def scatter(indices, values, shape):
    """DOC"""


def scatter_update(inputs, indices, updates, reduction=None):
    """DOC"""


def shape(x):
    """DOC"""


def slice(inputs, start_indices, shape):
    """DOC"""


def slice_update(inputs, start_indices, updates):
    """DOC"""


def stop_gradient(variable):
    """DOC"""


def switch(index, branches, *operands):
    """DOC"""


def unstack(x, num=None, axis=0):
    """DOC"""


def vectorized_map(function, elements):
    """DOC"""


def while_loop(cond, body, loop_vars, maximum_iterations=None):
    """DOC"""
