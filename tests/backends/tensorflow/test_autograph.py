"""A user's `tf.function` (autograph on, its default) runs tripod ops as any other Python code."""

import logging

import numpy as np
import pytest

import tripod
from tripod import ops
from tripod.backends import config

pytestmark = pytest.mark.skipif(config.backend() != "tensorflow", reason="tensorflow's autograph")


def test_autograph_converts_ops_and_layers_without_a_warning(caplog):
    tf = pytest.importorskip("tensorflow")
    dense = tripod.layers.Dense(2, kernel_initializer="ones")

    @tf.function
    def step(x):
        return ops.add(ops.sum(ops.add(dense(x), 1.0), axis=0), ops.max(x))  # max: its defaults

    with caplog.at_level(logging.WARNING):
        out = step(tf.ones((2, 3)))
    np.testing.assert_array_equal(out.numpy(), [9.0, 9.0])
    assert not [r.getMessage() for r in caplog.records if "AutoGraph" in r.getMessage()]
