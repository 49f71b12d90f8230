"""Rematerialization (gradient checkpointing): `remat(f)` and `RematScope`, Keras's switch that
makes the layers created inside it recompute their activations in the backward pass."""

import functools
import math
import threading

from tripod.backends import active
from tripod.backends.common import stateless, tree
from tripod.backends.common.keras_tensor import KerasTensor

ops = active()

_MODES = ("full", "activations", "larger_than", "list_of_layers", None)


class _Stack(threading.local):
    """Each thread's open scopes, innermost last."""

    def __init__(self):
        self.scopes = []
        self.depth = 0  # how many rematerialized calls are running


_stack = _Stack()


def remat(f):
    """`f` rematerialized: the backward pass recomputes its intermediate values instead of
    keeping them (less memory, more compute), with the backend's own checkpointing."""
    return ops.remat(f)


class RematScope:
    """A context manager making the layers created inside it rematerialize their calls.

    `mode`: "full" (every layer), "activations" (the `activation` of layers that have one),
    "larger_than" (layers whose outputs hold more than `output_size_threshold` values),
    "list_of_layers" (the layers named in `layer_names`) or None (none: switches an outer scope
    off).
    """

    def __init__(self, mode="full", output_size_threshold=1024, layer_names=None):
        if mode not in _MODES:
            raise ValueError(f"RematScope: mode must be one of {_MODES}, received {mode!r}.")
        self.mode = mode
        self.output_size_threshold = output_size_threshold
        self.layer_names = list(layer_names or ())

    def __enter__(self):
        _stack.scopes.append(self)
        return self

    def __exit__(self, *exc):
        _stack.scopes.remove(self)
        return False


def current_scope():
    """The innermost open `RematScope` whose mode is not None, or None."""
    scopes = _stack.scopes
    return scopes[-1] if scopes and scopes[-1].mode is not None else None


def rematerialized_call(layer, scope, args, kwargs):
    """`layer.call`, rematerialized as `scope` asks for this layer and these arguments.

    Inside a call that is rematerialized already (a model's, a block's) layers call plainly: the
    outer recomputation covers them, and nested checkpoints would recompute them twice (and on
    TensorFlow, nested `recompute_grad`s can give wrong gradients).
    """
    if _stack.depth:
        return layer.call
    if scope.mode == "full":
        return _remat_call(layer.call)
    if scope.mode == "list_of_layers":
        return _remat_call(layer.call) if layer.name in scope.layer_names else layer.call
    if scope.mode == "larger_than":
        return (
            _remat_call(layer.call)
            if _output_size(layer, args, kwargs) > scope.output_size_threshold
            else layer.call
        )
    if getattr(layer, "activation", None) is None:  # "activations"
        return layer.call
    return functools.partial(_with_remat_activation, layer)


def _remat_call(call):
    """`call` rematerialized, with the layers it calls marked as inside it."""
    return remat(functools.partial(_inside_remat, call))


def _inside_remat(call, *args, **kwargs):
    _stack.depth += 1
    try:
        return call(*args, **kwargs)
    finally:
        _stack.depth -= 1


def _with_remat_activation(layer, *args, **kwargs):
    """`layer.call` with its activation rematerialized."""
    activation = layer.activation
    layer.activation = remat(activation)
    try:
        return layer.call(*args, **kwargs)
    finally:
        layer.activation = activation


def _output_size(layer, args, kwargs):
    """How many values the layer's outputs hold for these arguments (from their specs)."""

    def spec(x):
        return KerasTensor(ops.shape(x), ops.dtype(x)) if ops.is_tensor(x) else x

    with stateless.StatelessScope():
        outputs = layer.compute_output_spec(
            *tree.map_structure(spec, args), **tree.map_structure(spec, kwargs)
        )
    return sum(math.prod(d or 1 for d in x.shape) for x in tree.flatten(outputs) if x is not None)
