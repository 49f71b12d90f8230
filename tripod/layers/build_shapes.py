"""`Layer`'s build shapes: from call arguments or Keras 2 `input_shape`; `build` in its scope."""

import functools

from tripod.backends.common import tree

_LEGACY_INPUT_ARGS = ("input_shape", "input_dim", "batch_input_shape", "batch_size", "input_length")
#: the keyword arguments `Layer.__init__` accepts besides its own
ALLOWED_KWARGS = frozenset(_LEGACY_INPUT_ARGS + ("weights",))


def _shape_of(x):
    return tuple(x.shape) if hasattr(x, "shape") else None


def shapes_of(structure):
    return tree.map_structure(_shape_of, structure)


def in_name_scope(build):
    """`build` run in the layer's name scope, as Keras 3 runs it: the variables it creates, and
    those of the sub-layers it builds, get paths below the layer's (`outer/inner/kernel`)."""

    @functools.wraps(build)
    def scoped(self, *args, **kwargs):
        with self._name_scope():
            self._settle_path()
            return build(self, *args, **kwargs)

    return scoped


def legacy_input_shape(kwargs):
    """The batch input shape given through Keras 2-style `input_shape`/`input_dim`, or None."""
    if "batch_input_shape" in kwargs:
        return tuple(kwargs["batch_input_shape"])
    if "input_shape" in kwargs:
        return (kwargs.get("batch_size"),) + tuple(kwargs["input_shape"])
    if "input_dim" in kwargs:
        length = kwargs.get("input_length")
        extra = (length,) if length is not None else ()
        return (kwargs.get("batch_size"),) + extra + (kwargs["input_dim"],)
    return None
