"""`JaxLayer` and `FlaxLayer`: a JAX function or Flax module with its params and state as tripod
variables; they train, match the function called directly, and save and load their weights."""

import numpy as np
import pytest

import tripod
from tripod import layers
from tripod.backends import config
from tripod.layers.interop.jax_layer import FlaxLayer, JaxLayer

ON_JAX = config.backend() == "jax"
jax_only = pytest.mark.skipif(not ON_JAX, reason="JaxLayer and FlaxLayer run on the jax backend")


@pytest.mark.skipif(ON_JAX, reason="the error is for the other backends")
@pytest.mark.parametrize(
    "make",
    [
        lambda: JaxLayer(lambda inputs: inputs, params={}),
        lambda: FlaxLayer(object()),
    ],
)
def test_other_backends_refuse_at_construction(make):
    with pytest.raises(RuntimeError, match="Layer needs the jax backend"):
        make()


def _data(seed=0, rows=64):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(rows, 4)).astype("float32")
    return x, (x @ rng.normal(size=(4, 2))).astype("float32")


def _fit(model, layer, epochs=15):
    """Fit on a small regression; the losses and `layer`'s trainable weights before and after."""
    x, y = _data()
    model.compile(optimizer=tripod.optimizers.Adam(0.02), loss="mse")
    before = [np.array(v) for v in layer.trainable_variables]
    losses = model.fit(x, y, epochs=epochs, batch_size=16, verbose=0).history["loss"]
    return losses, before, [np.array(v) for v in layer.trainable_variables]


def _assert_trained(losses, before, after):
    """The loss went down and every trainable weight moved."""
    assert losses[-1] < 0.8 * losses[0], losses
    assert before and all(not np.allclose(b, a) for b, a in zip(before, after))


# --- JaxLayer ----------------------------------------------------------------------------------


def _dense_fns():
    jax = pytest.importorskip("jax")

    def init_fn(rng, inputs):
        return {"w": jax.random.normal(rng, (inputs.shape[-1], 2)) * 0.1, "b": jax.numpy.zeros(2)}

    def call_fn(params, inputs):
        return inputs @ params["w"] + params["b"]

    return init_fn, call_fn


@jax_only
def test_jax_layer_dense_trains_and_matches_the_function():
    init_fn, call_fn = _dense_fns()
    layer = JaxLayer(call_fn, init_fn=init_fn, seed=1)
    model = tripod.Sequential([tripod.Input((4,)), layer])
    assert sorted(v.name for v in layer.trainable_variables) == ["params.b", "params.w"]
    _assert_trained(*_fit(model, layer))
    params = {v.name.split(".")[1]: np.asarray(v) for v in layer.trainable_variables}
    x, _ = _data(seed=1, rows=5)
    np.testing.assert_allclose(model.predict(x, verbose=0), call_fn(params, x), atol=1e-6)


@jax_only
def test_jax_layer_state_rng_and_training_reach_the_function():
    jax = pytest.importorskip("jax")
    init_fn, dense = _dense_fns()

    def call_fn(params, state, rng, inputs, training):
        outputs = dense(params, inputs)
        if training:
            outputs = outputs + 0.01 * jax.random.normal(rng, outputs.shape)
        return outputs, {"calls": state["calls"] + (1 if training else 0)}

    params = init_fn(jax.random.PRNGKey(0), np.zeros((1, 4), "float32"))
    layer = JaxLayer(call_fn, params=params, state={"calls": np.zeros((), "int32")})
    model = tripod.Sequential([tripod.Input((4,)), layer])
    assert [v.name for v in layer.non_trainable_variables if v.dtype == "int32"] == ["state.calls"]
    _assert_trained(*_fit(model, layer, epochs=3))
    calls = next(v for v in layer.non_trainable_variables if v.name == "state.calls")
    assert int(np.asarray(calls)) == 3 * 4  # 3 epochs of 4 batches, each a training call
    x, _ = _data(seed=2, rows=3)
    first, second = model.predict(x, verbose=0), model.predict(x, verbose=0)
    np.testing.assert_array_equal(first, second)  # no noise at inference
    assert int(np.asarray(calls)) == 12


@jax_only
def test_jax_layer_needs_init_fn_or_params_and_known_argument_names():
    with pytest.raises(ValueError, match="pass init_fn, or the params"):
        JaxLayer(lambda params, inputs: inputs)
    with pytest.raises(ValueError, match=r"call_fn must take arguments named .*received \['x'\]"):
        JaxLayer(lambda x: x, params={})


# --- FlaxLayer ---------------------------------------------------------------------------------


def _flax_modules():
    nn = pytest.importorskip("flax.linen")

    class MLP(nn.Module):
        @nn.compact
        def __call__(self, x):
            return nn.Dense(2)(nn.relu(nn.Dense(8)(x)))

    class Normalized(nn.Module):
        @nn.compact
        def __call__(self, x, training):
            x = nn.BatchNorm(use_running_average=not training, momentum=0.5)(nn.Dense(8)(x))
            x = nn.Dropout(0.2, deterministic=not training)(nn.relu(x))
            return nn.Dense(2)(x)

    return MLP, Normalized


def _flax_variables(layer):
    """The layer's variables as the dict `module.apply` takes."""
    return {"params": layer._tree(layer._params), **layer._tree(layer._state)}


@jax_only
def test_flax_mlp_trains_and_matches_apply():
    mlp, _ = _flax_modules()
    layer = FlaxLayer(mlp(), seed=2)
    model = tripod.Sequential([tripod.Input((4,)), layer])
    _assert_trained(*_fit(model, layer))
    assert layer.non_trainable_variables == [layer.seed_generator.state]
    x, _ = _data(seed=3, rows=5)
    direct = mlp().apply(_flax_variables(layer), x)
    np.testing.assert_allclose(model.predict(x, verbose=0), direct, atol=1e-6)


@jax_only
def test_flax_batch_norm_and_dropout_update_state_and_follow_training():
    _, normalized = _flax_modules()
    layer = FlaxLayer(normalized(), seed=4)
    model = tripod.Sequential([tripod.Input((4,)), layer])
    stats = [v for v in layer.non_trainable_variables if "batch_stats" in v.name]
    assert sorted(v.name.rsplit(".", 1)[1] for v in stats) == ["mean", "var"]
    initial = [np.array(v) for v in stats]
    _assert_trained(*_fit(model, layer, epochs=25))
    assert all(not np.allclose(a, np.asarray(v)) for a, v in zip(initial, stats))
    x, _ = _data(seed=4, rows=5)
    direct = normalized().apply(_flax_variables(layer), x, training=False)
    np.testing.assert_allclose(model.predict(x, verbose=0), direct, atol=1e-5)


@jax_only
def test_flax_layer_takes_given_variables_and_refuses_other_objects():
    mlp, _ = _flax_modules()
    import jax

    x, _ = _data(seed=5, rows=3)
    variables = mlp().init(jax.random.PRNGKey(7), x)
    layer = FlaxLayer(mlp(), variables=variables)
    np.testing.assert_allclose(layer(x), mlp().apply(variables, x), atol=1e-6)
    with pytest.raises(TypeError, match="must be a flax.linen.Module; received int"):
        FlaxLayer(3)


@jax_only
def test_flax_deterministic_argument_is_training_inverted():
    nn = pytest.importorskip("flax.linen")

    class Dropped(nn.Module):
        @nn.compact
        def __call__(self, x, deterministic):
            return nn.Dropout(0.5, deterministic=deterministic)(nn.Dense(16)(x))

    layer = FlaxLayer(Dropped(), seed=8)
    x, _ = _data(seed=8, rows=4)
    inference = np.asarray(layer(x))
    np.testing.assert_allclose(
        inference, Dropped().apply(_flax_variables(layer), x, deterministic=True), atol=1e-6
    )
    dropped = np.asarray(layer(x, training=True))
    assert np.mean(dropped == 0) > 0.2 and np.mean(inference == 0) == 0


# --- saving ------------------------------------------------------------------------------------


@jax_only
def test_weights_round_trip_into_a_layer_rebuilt_in_code(tmp_path):
    _, normalized = _flax_modules()

    def build():
        return tripod.Sequential([tripod.Input((4,)), FlaxLayer(normalized(), seed=5)])

    model = build()
    _fit(model, model, epochs=2)
    model.save_weights(tmp_path / "m.weights.h5")
    rebuilt = build()
    x, _ = _data(seed=6, rows=5)
    assert not np.allclose(rebuilt.predict(x, verbose=0), model.predict(x, verbose=0))
    rebuilt.load_weights(tmp_path / "m.weights.h5")
    np.testing.assert_array_equal(rebuilt.predict(x, verbose=0), model.predict(x, verbose=0))


@jax_only
def test_config_alone_cannot_rebuild_the_function(tmp_path):
    init_fn, call_fn = _dense_fns()
    model = tripod.Sequential([tripod.Input((4,)), JaxLayer(call_fn, init_fn=init_fn)])
    model.save(tmp_path / "m.keras")
    with pytest.raises(Exception, match="JaxLayer .* Create the JaxLayer again in code and call"):
        tripod.saving.load_model(tmp_path / "m.keras")


@jax_only
def test_a_registered_layer_building_the_flax_layer_round_trips_through_keras_files(tmp_path):
    _, normalized = _flax_modules()

    @tripod.saving.register_keras_serializable(package="test_jax_layer")
    class NormalizedBlock(layers.Layer):
        """Builds its FlaxLayer in __init__, so its config rebuilds it in code."""

        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.flax = FlaxLayer(normalized(), seed=6)

        def call(self, inputs, training=False):
            return self.flax(inputs, training=training)

    model = tripod.Sequential([tripod.Input((4,)), NormalizedBlock()])
    _fit(model, model, epochs=2)
    model.save(tmp_path / "m.keras")
    loaded = tripod.saving.load_model(tmp_path / "m.keras")
    x, _ = _data(seed=7, rows=5)
    np.testing.assert_array_equal(loaded.predict(x, verbose=0), model.predict(x, verbose=0))
