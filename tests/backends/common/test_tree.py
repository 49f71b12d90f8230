import gc
import weakref

import numpy as np
import pytest

import tripod
from tripod import layers
from tripod.backends import config
from tripod.backends.common import tree


class _Leaf:
    """A leaf a weak reference can watch."""


def test_pack_sequence_as_rebuilds_nested_structures_in_order():
    structure = {"b": [1, (2, 3)], "a": 4}
    flat = tree.flatten(structure)
    assert tree.pack_sequence_as(structure, [10 * v for v in flat]) == {
        "b": [10, (20, 30)],
        "a": 40,
    }


def test_pack_sequence_as_names_both_counts_on_a_mismatch():
    with pytest.raises(ValueError, match="3 leaves, received 2"):
        tree.pack_sequence_as([1, [2, 3]], [1, 2])


def test_pack_sequence_as_keeps_no_reference_cycle_to_its_leaves():
    gc.collect()
    gc.disable()
    try:
        leaf = _Leaf()
        watch = weakref.ref(leaf)
        packed = tree.pack_sequence_as([0, (0,)], [leaf, 1])
        del leaf, packed
        assert watch() is None  # freed by reference counting, not left for the collector
    finally:
        gc.enable()


def _functional_model():
    inputs = tripod.Input((8,))
    left, right = layers.Dense(4)(inputs), layers.Dense(4)(inputs)
    return tripod.Model(inputs, layers.Add()([left, right]))


def test_a_functional_forward_and_predict_leave_no_garbage_cycles():
    model, x = _functional_model(), np.ones((2, 8), "float32")
    model(x), model.predict(x, verbose=0)  # build and trace first
    gc.collect()
    gc.disable()
    try:
        model(x)
        model.predict(x, verbose=0)
        assert gc.collect() == 0
    finally:
        gc.enable()


@pytest.mark.skipif(config.backend() == "numpy", reason="the numpy backend does not train")
def test_fit_and_train_on_batch_leave_no_garbage_cycles():
    model, x = _functional_model(), np.ones((4, 8), "float32")
    model.compile("adam", "mse")
    model.fit(x, x[:, :4], batch_size=2, verbose=0)
    gc.collect()
    gc.disable()
    try:
        model.fit(x, x[:, :4], batch_size=2, epochs=2, verbose=0)
        model.train_on_batch(x, x[:, :4])
        assert gc.collect() == 0
    finally:
        gc.enable()
