"""`layer_check`: the shared `run_layer_test` plus a symbolic-vs-eager shape check that also
handles single outputs (used by the normalization, regularization and attention tests)."""

from tests.layers.harness import random_input, run_layer_test, to_numpy
from tripod.backends import config
from tripod.backends.common import tree
from tripod.layers import Input

TRAINS = config.backend() != "numpy"


def _leaves(shapes):
    leaves = []
    tree.map_shape_structure(lambda s: leaves.append(tuple(s)), shapes)
    return leaves


def layer_check(
    layer_cls, init_kwargs=None, input_shape=(2, 3), input_data=None, call_kwargs=None, **kwargs
):
    """`run_layer_test`; then the layer called on `Input`s must give the eager output shapes."""
    init_kwargs, call_kwargs = init_kwargs or {}, call_kwargs or {}
    data = (
        input_data
        if input_data is not None
        else tree.map_shape_structure(random_input, input_shape)
    )
    output = run_layer_test(
        layer_cls, init_kwargs, input_data=data, call_kwargs=call_kwargs, run_symbolic_check=False, **kwargs
    )  # fmt: skip
    symbolic_in = tree.map_shape_structure(
        lambda s: Input(batch_shape=(None,) + tuple(s[1:])), tree.map_structure(lambda a: tuple(a.shape), data)
    )  # fmt: skip
    symbolic = layer_cls(**init_kwargs)(symbolic_in, **call_kwargs)
    sym = _leaves(tree.map_structure(lambda t: tuple(t.shape), symbolic))
    real = _leaves(tree.map_structure(lambda t: tuple(t.shape), output))
    assert len(sym) == len(real), f"symbolic {sym} vs eager {real}"
    for s, r in zip(sym, real):
        assert len(s) == len(r) and all(a is None or a == b for a, b in zip(s, r)), (
            f"symbolic {sym} vs eager {real}"
        )
    return output


__all__ = ["TRAINS", "layer_check", "random_input", "to_numpy"]
