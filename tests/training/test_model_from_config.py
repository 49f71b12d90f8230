"""`Model.from_config(config, custom_objects=...)` for functional, Sequential and subclassed models."""

import numpy as np
import pytest

import tripod as keras
from tripod import layers, ops

X = np.array([[1.0, 2.0, 3.0]], "float32")


class Scale(layers.Layer):
    """A custom layer no registry knows: only `custom_objects` can name it."""

    def __init__(self, factor=2.0, **kwargs):
        super().__init__(**kwargs)
        self.factor = factor

    def call(self, x):
        return ops.multiply(x, self.factor)

    def get_config(self):
        return {**super().get_config(), "factor": self.factor}


class Wrapper(keras.Model):
    """A subclassed model whose config holds a serialized custom layer."""

    def __init__(self, inner, **kwargs):
        super().__init__(**kwargs)
        self.inner = (
            inner
            if isinstance(inner, layers.Layer)
            else keras.saving.deserialize_keras_object(inner)
        )

    def call(self, x):
        return self.inner(x)

    def get_config(self):
        return {**super().get_config(), "inner": keras.saving.serialize_keras_object(self.inner)}


class PassThrough(keras.Model):
    """A subclass whose constructor hands everything to Model (it becomes functional)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)


def functional_model(cls=keras.Model):
    inputs = keras.Input((3,), name="x")
    return cls(inputs, Scale(3.0, name="scale")(inputs), name="scaled")


def test_model_from_config_rebuilds_a_functional_model_with_custom_objects():
    model = functional_model()
    clone = keras.Model.from_config(model.get_config(), custom_objects={"Scale": Scale})
    assert clone.name == "scaled"
    assert isinstance(clone.get_layer("scale"), Scale)
    np.testing.assert_allclose(clone.predict(X, verbose=0), 3.0 * X)


def test_functional_from_config_takes_custom_objects():
    model = functional_model()
    clone = type(model).from_config(model.get_config(), custom_objects={"Scale": Scale})
    np.testing.assert_allclose(clone.predict(X, verbose=0), 3.0 * X)


def test_unknown_custom_layer_without_custom_objects_is_an_error():
    with pytest.raises((ValueError, TypeError), match="Scale"):
        keras.Model.from_config(functional_model().get_config())


def test_sequential_from_config_takes_custom_objects():
    model = keras.Sequential([keras.Input((3,)), Scale(0.5)])
    clone = keras.Sequential.from_config(model.get_config(), custom_objects={"Scale": Scale})
    np.testing.assert_allclose(clone.predict(X, verbose=0), 0.5 * X)


def test_subclassed_model_from_config_sees_custom_objects_in_its_constructor():
    model = Wrapper(Scale(4.0), name="wrapper")
    clone = Wrapper.from_config(model.get_config(), custom_objects={"Scale": Scale})
    assert clone.name == "wrapper"
    assert isinstance(clone.inner, Scale) and clone.inner.factor == 4.0
    np.testing.assert_allclose(np.asarray(ops.convert_to_numpy(clone(X))), 4.0 * X)


def test_subclass_passing_inputs_and_outputs_is_revived_as_itself():
    model = functional_model(PassThrough)
    clone = PassThrough.from_config(model.get_config(), custom_objects={"Scale": Scale})
    assert isinstance(clone, PassThrough)
    np.testing.assert_allclose(clone.predict(X, verbose=0), 3.0 * X)
