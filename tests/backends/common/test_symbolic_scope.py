"""`tripod.SymbolicScope` / `in_symbolic_scope`: open while output specs are inferred."""

import numpy as np

import tripod
from tripod.api import keras_src
from tripod.backends.common import symbolic_scope
from tripod.backends.common.symbolic_scope import SymbolicScope, in_symbolic_scope

SEEN = []


class Probe(tripod.layers.Layer):
    """Passes its input through, noting whether it runs inside a symbolic scope."""

    def call(self, x):
        SEEN.append(in_symbolic_scope())
        return x


def test_the_scope_is_open_inside_the_block_only_and_nests():
    assert not in_symbolic_scope() and symbolic_scope.get_symbolic_scope() is None
    with SymbolicScope() as outer:
        assert in_symbolic_scope() and symbolic_scope.get_symbolic_scope() is outer
        with SymbolicScope() as inner:
            assert symbolic_scope.get_symbolic_scope() is inner
        assert symbolic_scope.get_symbolic_scope() is outer
    assert not in_symbolic_scope()


def test_output_spec_inference_runs_inside_the_scope_and_real_calls_outside():
    SEEN.clear()
    probe = Probe()
    outputs = probe(tripod.Input((3,)))
    assert tuple(outputs.shape) == (None, 3) and SEEN and all(SEEN)
    SEEN.clear()
    probe(np.ones((2, 3), "float32"))
    assert SEEN == [False]


def test_it_is_keras_public_name_and_private_paths():
    assert tripod.SymbolicScope is SymbolicScope
    private = keras_src.module("keras.src.backend.common.symbolic_scope")
    assert private.in_symbolic_scope is in_symbolic_scope
    assert keras_src.module("keras.src.backend").in_symbolic_scope is in_symbolic_scope
