"""Bad input fails the same way on every backend: ValueError/TypeError naming `ops.<name>`.

A wrong shape, an out-of-range axis or an unknown dtype must raise, never broadcast silently or
wrap an axis around, and the message must say which op failed and why.
"""

import re

import numpy as np
import pytest

import tripod.backends

ops = tripod.backends.load(tripod.backends.config.backend())

X = np.ones((2, 3), "float32")
IMAGES = np.ones((1, 5, 5, 3), "float32")

SHAPE = re.compile(
    r"shape|size|dimension|broadcast|incompatible|mismatch|match|channel", re.IGNORECASE
)
AXIS = re.compile(r"axis|axes|dim|out of (bounds|range)|rank", re.IGNORECASE)

# (op, args, kwargs, what the message must mention)
CASES = [
    ("matmul", (X, np.ones((4, 5), "float32")), {}, SHAPE),
    ("matmul", (np.ones((2, 2, 3), "float32"), np.ones((3, 3, 2), "float32")), {}, SHAPE),
    ("reshape", (X, (4,)), {}, SHAPE),
    ("reshape", (X, (-1, 4)), {}, SHAPE),
    ("add", (X, np.ones((4,), "float32")), {}, SHAPE),
    ("add", (X, np.ones((3, 2), "float32")), {}, SHAPE),
    ("multiply", (np.ones((2, 3), "int32"), np.ones((2,), "int32")), {}, SHAPE),
    ("conv", (IMAGES, np.ones((3, 3, 4, 2), "float32")), {}, SHAPE),
    ("conv", (IMAGES, np.ones((3, 3, 2, 2), "float32")), {}, SHAPE),
    ("concatenate", ([X, np.ones((2, 4), "float32")],), {"axis": 0}, SHAPE),
    ("sum", (X,), {"axis": 2}, AXIS),
    ("sum", (X,), {"axis": -3}, AXIS),
    ("sum", (X,), {"axis": (0, 5)}, AXIS),
    ("concatenate", ([X, X],), {"axis": 2}, AXIS),
    ("concatenate", ([X, X],), {"axis": -3}, AXIS),
    ("expand_dims", (X, 4), {}, AXIS),
    ("expand_dims", (X, -4), {}, AXIS),
    ("softmax", (X,), {"axis": 5}, AXIS),
    ("softmax", (X,), {"axis": -3}, AXIS),
    ("mean", (X,), {"axis": 3}, AXIS),
    ("argmax", (X,), {"axis": 2}, AXIS),
    ("cast", (X, "float31"), {}, re.compile("float31")),
    ("cast", (X, "not_a_dtype"), {}, re.compile("not_a_dtype")),
    ("zeros", ((2, 3), "int33"), {}, re.compile("int33")),
    ("ones", ((2,),), {"dtype": "floaty"}, re.compile("floaty")),
    ("convert_to_tensor", ([1.0, 2.0],), {"dtype": "float31"}, re.compile("float31")),
    ("convert_to_tensor", (X,), {"dtype": "strings"}, re.compile("strings")),
    ("full", ((2,), 1.0), {"dtype": "complex7"}, re.compile("complex7")),
]


@pytest.mark.parametrize(
    "op, args, kwargs, problem", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)]
)
def test_bad_input_raises_a_clear_error(op, args, kwargs, problem):
    with pytest.raises((ValueError, TypeError)) as info:
        getattr(ops, op)(*args, **kwargs)
    message = str(info.value)
    assert message.startswith(f"ops.{op}:"), message
    assert problem.search(message), f"the message does not say what is wrong: {message}"


def test_native_tensors_get_the_same_errors():
    a = ops.convert_to_tensor(X)
    with pytest.raises((ValueError, TypeError), match=r"^ops\.matmul:"):
        ops.matmul(a, ops.convert_to_tensor(np.ones((4, 5), "float32")))
    with pytest.raises((ValueError, TypeError), match=r"^ops\.sum:"):
        ops.sum(a, axis=2)


def test_good_input_still_works_after_an_error():
    with pytest.raises((ValueError, TypeError)):
        ops.add(X, np.ones((4,), "float32"))
    np.testing.assert_array_equal(ops.convert_to_numpy(ops.add(X, X)), 2 * X)


def test_a_kernel_missing_on_the_device_names_the_op():
    """XLA on a TPU has no `eig`: jax says so in a NotImplementedError about a primitive; the
    error reaching the user names the op too, and keeps the framework's words (the device)."""
    from tripod.backends.common import errors

    def missing(x):
        raise NotImplementedError("MLIR translation rule for primitive 'eig' not found for tpu")

    with pytest.raises(NotImplementedError, match=r"^ops\.eig: not available .*not found for tpu$"):
        errors.translating("eig", missing)(X)
