"""Functional, Sequential and subclassed models: building, calling, configs, summary, cloning."""

import weakref

import numpy as np
import pytest

import tripod as keras
from tripod import layers, ops

X = np.random.default_rng(0).standard_normal((4, 3)).astype("float32")


def numpy_of(x):
    return np.asarray(ops.convert_to_numpy(x))


def dense_reference(layer, x):
    kernel, bias = (w.numpy() for w in layer.weights)
    return x @ kernel + bias


def test_functional_matches_a_numpy_forward_pass():
    inputs = keras.Input((3,))
    hidden = layers.Dense(5)(inputs)
    model = keras.Model(inputs, layers.Dense(2)(hidden))
    d1, d2 = model.layers[1:]
    np.testing.assert_allclose(
        numpy_of(model(X)), dense_reference(d2, dense_reference(d1, X)), rtol=1e-5, atol=1e-6
    )


_REFS = {}


class _Remembered(layers.Layer):
    """Outputs a fresh copy of its input and keeps only a weak reference to it."""

    def call(self, x):
        y = x * 2.0
        _REFS["kept"] = weakref.ref(y)
        return y


class _SeesKept(layers.Layer):
    """Records whether `_Remembered`'s last output is still alive when this layer runs."""

    def call(self, x):
        _REFS["alive"] = _REFS["kept"]() is not None
        return x + 1.0


@pytest.mark.parametrize("residual", [False, True])
def test_functional_drops_an_intermediate_after_its_last_reader(residual):
    inputs = keras.Input((3,))
    kept = _Remembered()(inputs)
    out = _SeesKept()(layers.Activation("relu")(kept))
    model = keras.Model(inputs, layers.Add()([out, kept]) if residual else out)
    got = numpy_of(model(X))
    assert _REFS["alive"] is residual  # freed once read, unless a later layer still reads it
    expected = np.maximum(2 * X, 0) + 1 + (2 * X if residual else 0)
    np.testing.assert_allclose(got, expected, rtol=1e-6)


def test_functional_multi_io_dicts_and_shared_layers():
    a, b = keras.Input((3,), name="a"), keras.Input((3,), name="b")
    shared = layers.Dense(4, name="shared")
    merged = layers.Dense(2, name="head")(shared(a))
    model = keras.Model({"a": a, "b": b}, {"out": merged, "other": shared(b)})
    out = model({"a": X, "b": 2 * X})
    assert sorted(out) == ["other", "out"]
    np.testing.assert_allclose(
        numpy_of(out["other"]), dense_reference(shared, 2 * X), rtol=1e-5, atol=1e-6
    )
    assert len(model.weights) == 4  # the shared layer counts once


def test_nested_models_and_layer_lookup():
    inner = keras.Sequential([keras.Input((3,)), layers.Dense(4, name="inner_dense")], name="inner")
    inputs = keras.Input((3,))
    outer = keras.Model(inputs, layers.Dense(1, name="top")(inner(inputs)))
    assert outer.get_layer("inner") is inner
    assert outer.get_layer(index=-1).name == "top"
    with pytest.raises(ValueError, match="No such layer"):
        outer.get_layer("missing")
    assert numpy_of(outer(X)).shape == (4, 1)


def test_sequential_add_pop_and_deferred_build():
    model = keras.Sequential()
    model.add(layers.Dense(4))
    model.add(layers.Dense(2))
    assert not model.built
    assert numpy_of(model(X)).shape == (4, 2)
    assert model.built and len(model.weights) == 4
    model.pop()
    assert len(model.layers) == 1


def test_sequential_with_legacy_input_shape():
    model = keras.Sequential([layers.Dense(2, input_shape=(3,))])
    assert model.built and model.input_shape == (None, 3)


def test_subclassed_model_tracks_layers():
    class TwoLayers(keras.Model):
        def __init__(self):
            super().__init__()
            self.first = layers.Dense(4)
            self.second = layers.Dense(1)

        def call(self, x):
            return self.second(self.first(x))

    model = TwoLayers()
    assert numpy_of(model(X)).shape == (4, 1)
    assert len(model.trainable_weights) == 4
    assert model.count_params() == 3 * 4 + 4 + 4 + 1


def test_a_model_refuses_unknown_keywords_as_keras_does():
    """Keras 3's ValueError for unknown keywords (naming the class and each argument with its
    value); a stray positional argument stays a TypeError."""
    with pytest.raises(ValueError, match=r"^Unrecognized keyword arguments passed to Model: "):
        keras.Model(foo=1)
    with pytest.raises(TypeError, match="unexpected positional arguments"):
        keras.Model(3)


def test_functional_subclass_with_inputs_and_outputs():
    class Wrapped(keras.Model):
        def __init__(self):
            inputs = keras.Input((3,))
            super().__init__(inputs=inputs, outputs=layers.Dense(2)(inputs), name="wrapped")

    model = Wrapped()
    assert isinstance(model, Wrapped) and model.name == "wrapped"
    assert numpy_of(model(X)).shape == (4, 2)


def test_weights_follow_keras_order_layer_by_layer():
    """Keras 3's order, which `get_weights` / `set_weights` follow: each layer's own weights
    (trainable first), then its sub-layers'; before, every trainable weight of the model came
    first, so a Keras `get_weights()` list did not fit."""
    model = keras.Sequential(
        [
            keras.Input((3,)),
            layers.Dense(4, name="first"),
            layers.BatchNormalization(name="norm"),
            layers.Dense(2, name="last"),
        ]
    )
    assert [w.path.split("/", 1)[1] for w in model.weights] == [
        "first/kernel",
        "first/bias",
        "norm/gamma",
        "norm/beta",
        "norm/moving_mean",
        "norm/moving_variance",
        "last/kernel",
        "last/bias",
    ]
    assert [w.shape for w in model.get_weights()] == [tuple(w.shape) for w in model.weights]


def test_a_functional_subclass_orders_its_weights_by_assignment_as_keras_does():
    """Layers a subclass assigns before building its graph come first, in assignment order,
    then the graph's (KerasHub's backbones are built so): here the second layer assigned runs
    first in the graph."""

    class TwoBranch(keras.Model):
        def __init__(self):
            self.late = layers.Dense(2, name="late")
            self.early = layers.Dense(3, name="early")
            inputs = keras.Input((4,))
            hidden = self.early(inputs)
            outputs = self.late(layers.Dense(5, name="unassigned")(hidden))
            super().__init__(inputs=inputs, outputs=outputs)

    model = TwoBranch()
    assert [layer.name for layer in model.layers][1:] == ["early", "unassigned", "late"]
    assert [w.path.split("/")[-2] for w in model.weights] == [
        "late",
        "late",
        "early",
        "early",
        "unassigned",
        "unassigned",
    ]


@keras.saving.register_keras_serializable(package="tests_models")
class Backbone(keras.Model):
    """A model built from its inputs and outputs with its own config, as KerasHub's are."""

    def __init__(self, width, **kwargs):
        inputs = keras.Input((3,))
        super().__init__(inputs=inputs, outputs=layers.Dense(width)(inputs), **kwargs)
        self.width = width

    def get_config(self):
        return {"width": self.width, "name": self.name}


def test_a_functional_subclass_keeps_its_class_through_save_and_load(tmp_path):
    """Every instance is of the user's class (registered name and all), and its `.keras` file
    loads back to that class; before, each instance got a class of its own and loading failed."""
    first, second = Backbone(2), Backbone(4)
    assert type(first) is type(second) is Backbone
    assert keras.saving.get_registered_name(type(first)) == "tests_models>Backbone"
    path = str(tmp_path / "backbone.keras")
    second.save(path)
    loaded = keras.saving.load_model(path)
    assert type(loaded) is Backbone and loaded.width == 4
    np.testing.assert_allclose(numpy_of(loaded(X)), numpy_of(second(X)), rtol=1e-6)


def test_ops_on_symbolic_tensors_inside_a_functional_model():
    inputs = keras.Input((3,))
    outputs = ops.multiply(
        layers.Dense(3, kernel_initializer="identity", bias_initializer="zeros")(inputs), 2.0
    )
    model = keras.Model(inputs, outputs)
    np.testing.assert_allclose(numpy_of(model(X)), 2 * X, rtol=1e-6)


def test_functional_config_round_trip_rebuilds_the_same_graph():
    a, b = keras.Input((3,), name="a"), keras.Input((2,), name="b")
    merged = layers.Dense(4, name="d")(a)
    model = keras.Model([a, b], [merged, layers.Dense(1, name="e")(b)])
    clone = type(model).from_config(model.get_config())
    assert [l.name for l in clone.layers] == [l.name for l in model.layers]
    clone.set_weights(model.get_weights())
    for got, want in zip(clone([X, X[:, :2]]), model([X, X[:, :2]])):
        np.testing.assert_allclose(numpy_of(got), numpy_of(want))


def test_summary_lists_layers_shapes_and_totals():
    model = keras.Sequential(
        [keras.Input((3,)), layers.Dense(4, name="d1"), layers.Dense(1, name="d2")], name="mlp"
    )
    lines = []
    model.summary(print_fn=lines.append)
    text = "\n".join(lines)
    assert 'Model: "mlp"' in text
    assert "d1 (Dense)" in text and "(None, 4)" in text and "16" in text
    assert (
        "Total params: 21" in text
        and "Trainable params: 21" in text
        and "Non-trainable params: 0" in text
    )


def test_clone_model_has_new_weights_and_same_architecture():
    inputs = keras.Input((3,))
    model = keras.Model(inputs, layers.Dense(2)(layers.Dense(4)(inputs)))
    clone = keras.models.clone_model(model)
    assert [type(l) for l in clone.layers] == [type(l) for l in model.layers]
    assert clone.layers[1] is not model.layers[1]
    clone.set_weights(model.get_weights())
    np.testing.assert_allclose(numpy_of(clone(X)), numpy_of(model(X)))


def test_model_input_count_mismatch_is_a_clear_error():
    a, b = keras.Input((3,)), keras.Input((3,))
    model = keras.Model([a, b], layers.Dense(1)(a))
    with pytest.raises(ValueError, match="expects 2 input"):
        model(X)


def test_a_compiled_models_clone_is_compiled_alike():
    """As in Keras 3: `clone_model` of a compiled model compiles the clone from the same config,
    with an optimizer of its own (KerasTuner and the scikit-learn wrappers clone and fit)."""
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    model.compile(optimizer=keras.optimizers.SGD(0.05), loss="mae", metrics=["mse"])
    clone = keras.models.clone_model(model)
    assert clone.compiled and clone.optimizer is not model.optimizer
    assert clone.optimizer.get_config() == model.optimizer.get_config()
    clone.set_weights(model.get_weights())
    x, y = np.ones((4, 2), "float32"), np.zeros((4, 1), "float32")
    expected = model.evaluate(x, y, verbose=0, return_dict=True)
    assert clone.evaluate(x, y, verbose=0, return_dict=True) == pytest.approx(expected)
    plain = keras.models.clone_model(keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)]))
    assert not plain.compiled
