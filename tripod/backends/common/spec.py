"""Output specs of a function on symbolic inputs, by running it on stand-in tensors.

Backends whose abstract evaluation needs concrete sizes (numpy, torch, jax's eval_shape) run the
function twice, with two different sizes standing in for unknown (None) dims; an output dim that
changes between the runs is unknown too.
"""

from tripod.backends import dtypes
from tripod.backends.common import tree
from tripod.backends.common.keras_tensor import KerasTensor
from tripod.backends.common.symbolic_scope import SymbolicScope

# Two stand-in sizes for unknown dims: distinct, and not sizes layers commonly have; then two
# small ones, for code that only runs at small sizes (a position embedding of 8 entries gathers
# `arange(length)`: 13 is out of its range).
STAND_IN_SIZES = ((7, 13), (2, 3))


def split_symbolic(args, kwargs):
    """(the KerasTensors in `args`/`kwargs`, a function rebuilding args/kwargs from tensors)."""
    structure = (args, kwargs)
    leaves = tree.flatten(structure)
    positions = [i for i, x in enumerate(leaves) if isinstance(x, KerasTensor)]

    def rebuild(tensors):
        filled = list(leaves)
        for i, t in zip(positions, tensors):
            filled[i] = t
        return tree.pack_sequence_as(structure, filled)

    return [leaves[i] for i in positions], rebuild


def output_spec_by_running(fn, args, kwargs, make_tensor, run=None):
    """KerasTensors describing `fn(*args, **kwargs)`'s outputs.

    `make_tensor(shape, dtype)` makes a stand-in input; `run(call, tensors)` (default: a plain
    call) runs `call` on them, e.g. under `jax.eval_shape` or `torch.no_grad`. Outputs only
    need `shape` and `dtype`.
    """
    run = run or (lambda call, tensors: call(tensors))
    symbolic, rebuild = split_symbolic(args, kwargs)

    def call(tensors):
        a, k = rebuild(tensors)
        with SymbolicScope():  # code asking `in_symbolic_scope()` knows only specs are wanted
            return fn(*a, **k)

    def trace(size):
        tensors = [
            make_tensor(tuple(size if d is None else d for d in x.shape), x.dtype) for x in symbolic
        ]
        return tree.map_structure(_describe, run(call, tensors), none_is_leaf=False)

    unknown = any(None in x.shape for x in symbolic)
    failure = None
    for sizes in STAND_IN_SIZES if unknown else STAND_IN_SIZES[:1]:
        try:
            first = trace(sizes[0])
            return tree.map_structure(_merge, first, trace(sizes[1])) if unknown else first
        except Exception as error:  # noqa: BLE001 (any refusal of these sizes: try the next)
            failure = failure or error
    raise failure


def _describe(y):
    """The KerasTensor of an output: a tensor's shape and dtype, or a scalar for a Python number
    (an op like `ndim` or `size` computes one where the backend knows it)."""
    if isinstance(y, (bool, int, float)):
        return KerasTensor((), {bool: "bool", int: "int32", float: "float32"}[type(y)])
    return KerasTensor(tuple(y.shape), dtypes.standardize_dtype(y.dtype))


def _merge(a, b):
    """`a` with the dims that differ from `b`'s made unknown."""
    if a is None or b is None:
        return a
    return KerasTensor(tuple(x if x == y else None for x, y in zip(a.shape, b.shape)), a.dtype)
