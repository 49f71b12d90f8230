"""Shape dims as jax takes them: ints, with symbolic dims kept as they are (the unknown sizes of
a shape-polymorphic trace, as `jax.export`, jax2onnx and jax2tf make when exporting)."""

import jax


def dim(d):
    """`d` as an int, or unchanged when it is a symbolic dim."""
    return d if jax.export.is_symbolic_dim(d) else int(d)


def dims(shape):
    """Each dim of `shape` through `dim`, as a tuple."""
    return tuple(dim(d) for d in shape)


def has_symbolic_dims(shape):
    """Whether `shape` holds a symbolic dim (only an export traces those)."""
    return any(jax.export.is_symbolic_dim(d) for d in shape)


def reshape_target(shape):
    """`dims(shape)` with its one symbolic dim, if it has exactly one and no -1, written -1:
    the same reshape, which exporters can write without relating the dim to the input's."""
    shape = dims(shape)
    unknown = [i for i, d in enumerate(shape) if jax.export.is_symbolic_dim(d)]
    sized = [d for d in shape if not jax.export.is_symbolic_dim(d)]
    if len(unknown) != 1 or -1 in sized:
        return shape
    return shape[: unknown[0]] + (-1,) + shape[unknown[0] + 1 :]
