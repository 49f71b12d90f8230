"""Keras patterns tripod does not support raise an error naming the pattern and the fix."""

import copy
import importlib

import numpy as np
import pytest

import tripod
from tripod import layers, ops
from tripod.backends import config

X = np.ones((2, 3), "float32")


class _ForgetsSuperInit(layers.Layer):
    def __init__(self, units):
        self.units = units  # no super().__init__()

    def call(self, x):
        return x


class _WeightInCall(layers.Layer):
    def call(self, x):
        return x * self.add_weight(shape=(3,), initializer="ones")


class _WeightInBuild(layers.Layer):
    def build(self, input_shape):
        self.scale = self.add_weight(shape=(input_shape[-1],), initializer="ones")

    def call(self, x):
        return x * self.scale


# -- a layer subclass that skips super().__init__() --------------------------------------------
def test_calling_a_layer_that_skipped_super_init_says_so():
    layer = _ForgetsSuperInit(3)
    expected = r"_ForgetsSuperInit.__init__\(\) did not call `super\(\).__init__"
    with pytest.raises(AttributeError, match=expected):
        layer(X)
    assert not hasattr(layer, "anything")


def test_a_missing_attribute_of_a_proper_layer_keeps_the_plain_error():
    layer = layers.Dense(2)
    with pytest.raises(AttributeError, match="'Dense' object has no attribute 'no_such_thing'"):
        layer.no_such_thing  # noqa: B018
    copied = copy.deepcopy(layer)  # copying probes dunders such as __setstate__ on a bare instance
    assert copied.units == 2


# -- add_weight after the layer is built --------------------------------------------------------
def test_add_weight_in_call_raises_instead_of_adding_weights_every_call():
    layer = _WeightInCall()
    expected = r"add_weight\(\) was called after the layer was built .*build\(\)"
    with pytest.raises(ValueError, match=expected):
        layer(X)
    assert layer.weights == []


def test_add_weight_after_a_call_built_the_layer_raises():
    layer = _WeightInBuild()
    np.testing.assert_allclose(ops.convert_to_numpy(layer(X)), X)
    with pytest.raises(ValueError, match="_WeightInBuild"):
        layer.add_weight(shape=(2,))
    assert len(layer.weights) == 1


def test_add_weight_after_an_explicit_build_raises_as_in_keras():
    layer = _WeightInBuild()
    layer.build((None, 3))
    assert layer.built
    with pytest.raises(ValueError, match="after the layer was built"):
        layer.add_weight(shape=(2,), initializer="zeros")
    loaded = _WeightInBuild()
    loaded.build_from_config({"input_shape": (None, 3)})
    with pytest.raises(ValueError, match="after the layer was built"):
        loaded.add_weight(shape=(2,))
    assert [tuple(w.shape) for w in layer.weights + loaded.weights] == [(3,), (3,)]


# -- jax: assigning a traced value to a variable -------------------------------------------------
@pytest.mark.skipif(config.backend() != "jax", reason="jax transformations only")
def test_jax_assign_inside_a_users_jit_raises_instead_of_leaking_a_tracer():
    jax = pytest.importorskip("jax")
    variable = tripod.Variable(np.ones(3, "float32"), name="counter")

    @jax.jit
    def step(x):
        variable.assign(variable.value + x)
        return x

    expected = r"Variable 'counter': assign\(\) received a value traced by a JAX"
    with pytest.raises(TypeError, match=expected):
        step(np.ones(3, "float32"))
    np.testing.assert_allclose(variable.numpy(), np.ones(3))  # still holds its concrete value


@pytest.mark.skipif(config.backend() != "jax", reason="jax transformations only")
def test_jax_stateless_call_inside_jit_is_the_supported_way():
    jax = pytest.importorskip("jax")
    norm = layers.BatchNormalization()
    norm(X)

    @jax.jit
    def step(trainable, non_trainable, x):
        return norm.stateless_call(trainable, non_trainable, x, training=True)

    trainable = [v.value for v in norm.trainable_variables]
    non_trainable = [v.value for v in norm.non_trainable_variables]
    outputs, updated = step(trainable, non_trainable, X)
    assert np.asarray(outputs).shape == X.shape and len(updated) == len(non_trainable)


# -- Keras import paths of nested namespaces ----------------------------------------------------
def test_importing_schedules_by_its_keras_path_gives_the_loaded_module():
    # what `from tripod.optimizers.schedules import ExponentialDecay` imports
    module = importlib.import_module("tripod.optimizers.schedules")
    assert module is tripod.optimizers.schedules
    assert module.ExponentialDecay is tripod.training.optimizers.schedules.ExponentialDecay
    schedule = module.ExponentialDecay(0.1, decay_steps=10, decay_rate=0.5)
    optimizer = tripod.optimizers.SGD(schedule)
    assert isinstance(schedule, tripod.optimizers.schedules.LearningRateSchedule)
    assert float(ops.convert_to_numpy(optimizer.learning_rate)) == pytest.approx(0.1)
