"""`tripod.name_scope`, `tripod.device`, `tripod.remat` / `RematScope` and `tripod.Function`."""

import numpy as np
import pytest

import tripod
from tests.api import keras_api
from tripod import ops
from tripod.backends import config
from tripod.layers import remat as remat_module

TRAINS = config.backend() != "numpy"
needs_training = pytest.mark.skipif(not TRAINS, reason="the numpy backend is inference-only")
X = np.random.RandomState(0).randn(4, 3).astype("float32")


@pytest.mark.skipif(not keras_api.available(), reason="../shared/keras3_api.txt not found")
def test_every_keras_top_level_name_exists():
    assert not [
        n
        for n in keras_api.section("keras (top level)")
        if not hasattr(tripod, n) and n != "Quantizer"
    ]


# -- name_scope ------------------------------------------------------------------------------
def test_name_scope_prefixes_variable_and_layer_weight_paths():
    with tripod.name_scope("outer"):
        variable = tripod.Variable(np.zeros(2, "float32"), name="v")
        with tripod.name_scope("inner"):
            inner = tripod.Variable(np.zeros(2, "float32"), name="w")
        dense = tripod.layers.Dense(2, name="proj")
        dense.build((None, 3))
    assert (variable.path, variable.name, inner.path) == ("outer/v", "v", "outer/inner/w")
    assert [w.path for w in dense.weights] == ["outer/proj/kernel", "outer/proj/bias"]
    assert tripod.Variable(np.zeros(2, "float32"), name="u").path == "u"


def test_name_scope_deduplicates_a_callers_reentry_and_can_override_the_parent():
    owner = object()
    with tripod.name_scope("a", caller=owner), tripod.name_scope("a", caller=owner):
        assert tripod.Variable(np.zeros(1, "float32"), name="v").path == "a/v"
    with tripod.name_scope("a"), tripod.name_scope("b", override_parent="root"):
        assert tripod.Variable(np.zeros(1, "float32"), name="v").path == "root/b/v"


def test_name_scope_rejects_bad_names():
    with pytest.raises(ValueError, match="without '/'"):
        tripod.name_scope("a/b")
    with pytest.raises(TypeError, match="unexpected arguments"):
        tripod.name_scope("a", colour="red")


# -- device ----------------------------------------------------------------------------------
def test_device_scope_places_tensors_on_the_cpu():
    with tripod.device("cpu:0"):
        x = ops.add(ops.ones((2,)), ops.convert_to_tensor(np.ones(2, "float32")))
    np.testing.assert_allclose(ops.convert_to_numpy(x), [2.0, 2.0])
    if config.backend() != "numpy":
        assert "cpu" in str(getattr(x, "device", None) or x.devices()).lower()


def test_device_scope_rejects_unreadable_names():
    with pytest.raises(ValueError, match="device"):
        tripod.device("gpu:x")


# -- remat -----------------------------------------------------------------------------------
def _loss_and_grads(mode):
    """The loss of two Dense layers created inside `RematScope(mode)`, and its gradients."""
    tripod.utils.set_random_seed(3)
    with tripod.RematScope(mode, output_size_threshold=10, layer_names=["second"]):
        first = tripod.layers.Dense(5, activation="tanh", name="first")
        second = tripod.layers.Dense(2, name="second")

    def loss():
        return ops.sum(ops.square(second(first(ops.convert_to_tensor(X)))))

    loss()  # build
    value, grads = tripod.value_and_grad(
        loss, first.trainable_variables + second.trainable_variables
    )()
    return float(value), [ops.convert_to_numpy(g) for g in grads]


@pytest.fixture
def remat_calls(monkeypatch):
    """The functions that went through the backend's rematerialization."""
    calls = []
    backend_remat = remat_module.ops.remat

    def counting(f):
        calls.append(f)
        return backend_remat(f)

    monkeypatch.setattr(remat_module.ops, "remat", counting)
    return calls


@needs_training
@pytest.mark.parametrize("mode", ["full", "list_of_layers", "larger_than", "activations"])
def test_remat_scope_gives_the_plain_values_and_gradients(mode, remat_calls):
    plain_value, plain_grads = _loss_and_grads(None)
    assert not remat_calls
    value, grads = _loss_and_grads(mode)
    np.testing.assert_allclose(value, plain_value, rtol=1e-6)
    for got, want in zip(grads, plain_grads):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    # Two calls each (build, then the differentiated one). full: both layers; list_of_layers:
    # "second"; larger_than 10: first's (4, 5) output only; activations: both layers' activation.
    assert (
        len(remat_calls)
        == {"full": 4, "list_of_layers": 2, "larger_than": 2, "activations": 4}[mode]
    )


def test_layers_inside_a_rematerialized_model_call_plainly(remat_calls):
    with tripod.RematScope("full"):
        model = tripod.Sequential(
            [tripod.Input((3,)), tripod.layers.Dense(5), tripod.layers.Dense(2)]
        )
    remat_calls.clear()
    model(ops.convert_to_tensor(X))
    assert len(remat_calls) == 1  # the model's call; its Dense layers run inside that recomputation


@needs_training
def test_fit_inside_remat_scope_matches_plain_fit():
    y = np.random.RandomState(1).randn(4, 2).astype("float32")
    losses = []
    for mode in (None, "full"):
        tripod.utils.set_random_seed(1)
        with tripod.RematScope(mode):
            model = tripod.Sequential(
                [
                    tripod.Input((3,)),
                    tripod.layers.Dense(5, activation="tanh"),
                    tripod.layers.Dense(2),
                ]
            )
        model.compile(tripod.optimizers.SGD(0.1), "mse")
        losses.append(
            model.fit(X, y, batch_size=2, epochs=2, shuffle=False, verbose=0).history["loss"]
        )
    np.testing.assert_allclose(losses[1], losses[0], rtol=1e-5)


@needs_training
def test_remat_function_keeps_values_and_gradients():
    variable = tripod.Variable(np.array([0.5, -1.0, 2.0], "float32"))

    def f(x, scale, training=None):
        return ops.sin(x * variable) * scale if training else x

    rematerialized = tripod.remat(f)
    plain = tripod.value_and_grad(
        lambda: ops.sum(f(ops.convert_to_tensor(X), 2.0, training=True)), [variable]
    )()
    got = tripod.value_and_grad(
        lambda: ops.sum(rematerialized(ops.convert_to_tensor(X), 2.0, training=True)), [variable]
    )()
    np.testing.assert_allclose(float(got[0]), float(plain[0]), rtol=1e-6)
    np.testing.assert_allclose(
        ops.convert_to_numpy(got[1][0]), ops.convert_to_numpy(plain[1][0]), rtol=1e-5
    )


def test_remat_scope_rejects_unknown_modes():
    with pytest.raises(ValueError, match="RematScope: mode must be one of"):
        tripod.RematScope("some")


# -- Function --------------------------------------------------------------------------------
def test_function_replays_ops_from_bare_keras_tensors():
    a, b = tripod.KerasTensor((None, 3)), tripod.KerasTensor((None, 3))
    fn = tripod.Function([a, b], ops.sigmoid(a + b), name="f")
    x, y = np.ones((2, 3), "float32"), np.full((2, 3), -0.5, "float32")
    np.testing.assert_allclose(
        ops.convert_to_numpy(fn([x, y])), 1 / (1 + np.exp(-0.5)) * np.ones((2, 3)), rtol=1e-6
    )
    assert fn.compute_output_shape([(None, 3), (None, 3)]) == (None, 3)
    assert [type(op).__name__ for op in fn.operations] == ["Operation", "Operation"]


def test_function_runs_layers_and_stops_at_intermediate_inputs():
    inputs = tripod.Input((3,))
    hidden = tripod.layers.Dense(2, kernel_initializer="ones", name="h")(inputs)
    outputs = {"double": hidden * 2.0, "hidden": hidden}
    fn = tripod.Function(hidden, outputs)
    got = fn(np.array([[1.0, 2.0]], "float32"))
    np.testing.assert_allclose(ops.convert_to_numpy(got["double"]), [[2.0, 4.0]])
    whole = tripod.Function(inputs, outputs)
    np.testing.assert_allclose(
        ops.convert_to_numpy(whole(X)["hidden"]),
        X.sum(1, keepdims=True) * np.ones((1, 2)),
        rtol=1e-5,
    )


def test_function_errors_name_the_problem():
    a, b = tripod.KerasTensor((None, 3)), tripod.KerasTensor((None, 3))
    with pytest.raises(ValueError, match="neither among its inputs"):
        tripod.Function([a], a + b)
    fn = tripod.Function([a, b], a + b, name="pair")
    with pytest.raises(ValueError, match="Function 'pair' expects 2 input"):
        fn([X])
