"""`Layer`'s build shapes: from call arguments or Keras 2 `input_shape`; `build` in its scope."""

import functools
import inspect
import threading

from tripod.backends.common import tree

#: The layers whose `build` runs on this thread (a `super().build()` inside one is not the end).
_building = threading.local()

_LEGACY_INPUT_ARGS = ("input_shape", "input_dim", "batch_input_shape", "batch_size", "input_length")
#: the keyword arguments `Layer.__init__` accepts besides its own
ALLOWED_KWARGS = frozenset(_LEGACY_INPUT_ARGS + ("weights",))


def _shape_of(x):
    return tuple(x.shape) if hasattr(x, "shape") else None


def shapes_of(structure):
    return tree.map_structure(_shape_of, structure)


def build_parameters(build):
    """The names of `build`'s shape parameters: its named ones after `self`."""
    return [
        p.name
        for p in inspect.signature(build).parameters.values()
        if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
    ][1:]


def keras_build(build):
    """`build` run as Keras 3 runs it, however it is called: in the layer's name scope (the
    variables it creates, and those of the sub-layers it builds, get paths below the layer's:
    `outer/inner/kernel`), then, when the layer's outermost `build` returns (not a
    `super().build()` inside it), the layer is built with its build shapes recorded."""
    params = build_parameters(build)

    @functools.wraps(build)
    def scoped(self, *args, **kwargs):
        running = _building.__dict__.setdefault("layers", set())
        outermost = id(self) not in running
        running.add(id(self))
        try:
            with self._name_scope():
                self._settle_path()
                result = build(self, *args, **kwargs)
        finally:
            if outermost:
                running.discard(id(self))
        if outermost:
            shapes = {**dict(zip(params, args)), **{k: v for k, v in kwargs.items() if k in params}}
            self._mark_built(
                {"input_shape": next(iter(shapes.values()))} if len(shapes) == 1 else shapes
            )
        return result

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
