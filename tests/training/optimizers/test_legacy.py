"""`tripod.optimizers.legacy`: Keras 2's optimizer names, refused at construction as Keras 3
refuses them, each naming the optimizer to use instead."""

import pytest

import tripod


@pytest.mark.parametrize("name", ["Adagrad", "Adam", "Ftrl", "Optimizer", "RMSprop", "SGD"])
def test_a_legacy_optimizer_names_its_keras_3_replacement(name):
    from tripod.optimizers.legacy import SGD  # the import itself works, as in Keras 3

    assert SGD is tripod.optimizers.legacy.SGD
    with pytest.raises(ImportError, match=rf"use `tripod.optimizers.{name}`"):
        getattr(tripod.optimizers.legacy, name)(learning_rate=0.1)
    assert hasattr(tripod.optimizers, name)  # the named replacement exists
