"""`DataLayer`: calls routed to the backend of their inputs' framework, per-backend seed streams,
constants and variables read on the backend that computes."""

import importlib.util

import numpy as np
import pytest

import tripod.backends
from tripod.backends import config
from tripod.backends.common.keras_tensor import KerasTensor
from tripod.layers.preprocessing import random_draws
from tripod.layers.preprocessing.data_layer import Constant, DataLayer

ACTIVE = config.backend()
FRAMEWORKS = [name for name in ("jax", "torch", "tensorflow") if importlib.util.find_spec(name)]
OTHERS = [name for name in FRAMEWORKS if name != ACTIVE]


def as_numpy(x):
    return np.asarray(x.numpy() if hasattr(x, "numpy") and not isinstance(x, np.ndarray) else x)


def on(name, value, dtype=None):
    """`value` as a tensor of framework `name` (through that tripod backend)."""
    return tripod.backends.load(name).convert_to_tensor(value, dtype=dtype)


class AddOne(DataLayer):
    """Adds one, remembering which backend computed and the shape it was built for."""

    def build(self, input_shape):
        self.built_shape = input_shape
        self.built = True

    def call(self, inputs):
        self.seen = self.backend.name
        return self.backend.add(inputs, 1)


class Noise(DataLayer):
    """Uniform noise of the input's shape drawn from the layer's seed stream."""

    random = True

    def call(self, inputs, training=True):
        self.training_seen = training
        ops = self.backend
        return ops.add(inputs, random_draws.uniform(ops, self.random_key(), tuple(inputs.shape)))


class Outer(DataLayer):
    """Calls an inner data layer inside its own call."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.inner = AddOne()

    def call(self, inputs):
        self.seen = self.backend.name
        return self.backend.multiply(self.inner(inputs), 2)


X = np.arange(6, dtype="float32").reshape(2, 3)


def test_active_backend_inputs_use_the_active_backend():
    layer = AddOne()
    np.testing.assert_allclose(as_numpy(layer(X)), X + 1)
    assert layer.seen == ACTIVE and layer.built_shape == (2, 3)


@pytest.mark.parametrize("name", OTHERS)
def test_another_frameworks_tensors_compute_with_its_backend(name):
    layer = AddOne()
    out = layer(on(name, X))
    assert layer.seen == name
    assert type(out).__module__.split(".")[0] == type(on(name, X)).__module__.split(".")[0]
    np.testing.assert_allclose(as_numpy(out), X + 1)
    assert layer.built_shape == (2, 3)
    # the same layer still computes with the active backend on the active backend's inputs
    layer(X)
    assert layer.seen == ACTIVE


@pytest.mark.parametrize("name", OTHERS)
def test_nested_calls_and_structures_route_to_the_pipeline_backend(name):
    outer = Outer()
    out = outer(on(name, X))
    assert outer.seen == outer.inner.seen == name
    np.testing.assert_allclose(as_numpy(out), (X + 1) * 2)
    assert AddOne().backend.name == ACTIVE  # nothing left overridden after the calls
    layer = DictLayer()
    out = layer({"a": np.ones(2, "float32"), "b": on(name, X)})
    assert layer.seen == name and layer.built_shape == {"a": (2,), "b": (2, 3)}
    np.testing.assert_allclose(as_numpy(out), X + 1)


class DictLayer(AddOne):
    """Adds one to entry "b" of a dict input."""

    def call(self, inputs):
        return super().call(inputs["b"])


@pytest.mark.parametrize("name", OTHERS)
def test_pipeline_floats_are_cast_to_the_compute_dtype(name):
    out = AddOne()(on(name, X, "float64"))
    assert tripod.backends.load(name).dtype(out) == "float32"
    ints = AddOne()(on(name, X.astype("int32")))
    assert tripod.backends.load(name).dtype(ints) == "int32"


@pytest.mark.parametrize("name", OTHERS)
def test_pipeline_training_argument(name):
    layer = Noise(seed=1)
    layer(on(name, X))
    assert layer.training_seen is True
    layer(on(name, X), training=False)
    assert layer.training_seen is False
    AddOne()(on(name, X), training=True)  # dropped: AddOne.call takes no training argument


def test_symbolic_inputs_take_the_layer_path():
    out = AddOne()(KerasTensor((None, 3), "float32"))
    assert isinstance(out, KerasTensor) and out.shape == (None, 3)


def keys(layer, n):
    return [as_numpy(layer.random_key()).tolist() for _ in range(n)]


def test_random_key_stream_starts_from_the_seed():
    assert keys(Noise(seed=5), 3) == [[5, 0], [5, 1], [5, 2]]


@pytest.mark.parametrize("name", OTHERS)
def test_each_backend_has_its_own_key_stream(name):
    layer = Noise(seed=5)
    layer(X)
    # a pipeline stream starts from the seed, whatever the active one did
    noise = layer(on(name, X))
    np.testing.assert_allclose(as_numpy(noise), as_numpy(Noise(seed=5)(X)), rtol=1e-6)
    layer(on(name, X))
    assert keys(layer, 1) == [[5, 1]]  # the active stream moved on by its own call only


@pytest.mark.parametrize("name", FRAMEWORKS)
def test_the_same_seed_gives_the_same_draws_on_every_backend(name):
    expected = as_numpy(Noise(seed=9)(X))
    first, second = Noise(seed=9), Noise(seed=9)
    a = as_numpy(first(on(name, X)))
    np.testing.assert_allclose(a, expected, rtol=1e-6)
    np.testing.assert_allclose(as_numpy(second(on(name, X))), a)
    again = as_numpy(first(on(name, X)))
    assert not np.allclose(again, a)  # the stream moves on


@pytest.mark.parametrize("name", FRAMEWORKS)
def test_constant_on_each_backend(name):
    backend = tripod.backends.load(name)
    constant = Constant([1.5, 2.5], "float32")
    value = constant.on(backend)
    assert backend.dtype(value) == "float32"
    np.testing.assert_allclose(as_numpy(value), [1.5, 2.5])
    np.testing.assert_allclose(as_numpy(constant.on(backend)), [1.5, 2.5])
    assert list(constant._held) == [name]  # made once for this backend, then reused


def test_constant_first_made_in_a_tf_function_outlives_it():
    tf = pytest.importorskip("tensorflow")
    backend = tripod.backends.load("tensorflow")
    constant = Constant([1, 2, 3], "int64")
    traced = tf.function(lambda: constant.on(backend) * 2)()
    np.testing.assert_array_equal(traced.numpy(), [2, 4, 6])
    np.testing.assert_array_equal(constant.on(backend).numpy(), [1, 2, 3])  # eager, after the trace


@pytest.mark.parametrize("name", OTHERS)
def test_value_of_reads_a_variable_on_the_computing_backend(name):
    class Scale(DataLayer):
        def build(self, input_shape):
            self.factor = self.add_weight(shape=(3,), initializer="ones", trainable=False)

        def call(self, inputs):
            return self.backend.multiply(inputs, self.value_of(self.factor))

    layer = Scale()
    layer(X)
    layer.factor.assign(np.array([1.0, 2.0, 3.0], "float32"))
    np.testing.assert_allclose(as_numpy(layer(on(name, X))), X * [1, 2, 3])
    np.testing.assert_allclose(as_numpy(layer(X)), X * [1, 2, 3])
