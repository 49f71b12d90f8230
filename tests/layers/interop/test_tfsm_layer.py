"""`TFSMLayer`: a SavedModel endpoint inside a tripod model predicts like the exported model,
fine-tunes the SavedModel's own variables, saves and loads (outside safe mode only)."""

import numpy as np
import pytest

import tripod
from tests.export.models import MODELS
from tripod.backends import active, config
from tripod.export import ExportArchive
from tripod.layers.interop.tfsm_layer import TFSMLayer

ops = active()
ON_TENSORFLOW = config.backend() == "tensorflow"
needs_tensorflow = pytest.mark.skipif(not ON_TENSORFLOW, reason="SavedModels run on tensorflow")


def _exported(tmp_path, name="sequential"):
    model, inputs = MODELS[name]()
    path = tmp_path / f"{name}_sm"
    model.export(path, format="tf_saved_model", verbose=False)
    return model, inputs, path


def _wrapped(path, **kwargs):
    """A new functional model around a TFSMLayer of the sequential model's SavedModel."""
    x = tripod.Input((4,), name="x")
    return tripod.Model(x, TFSMLayer(path, **kwargs)(x))


@needs_tensorflow
@pytest.mark.parametrize("name", ["sequential", "functional_list", "functional_dict"])
def test_a_wrapped_saved_model_predicts_like_the_exported_model(tmp_path, name):
    model, inputs, path = _exported(tmp_path, name)
    symbolic = tripod.tree.map_structure(
        lambda x: tripod.Input(x.shape[1:], dtype=str(x.dtype)), inputs
    )
    wrapper = tripod.Model(symbolic, TFSMLayer(path)(symbolic))
    got, want = wrapper.predict(inputs, verbose=0), model.predict(inputs, verbose=0)
    for g, w in zip(tripod.tree.flatten(got), tripod.tree.flatten(want)):
        np.testing.assert_allclose(g, w, atol=1e-6)
    assert len(wrapper.weights) == len(model.weights)


@needs_tensorflow
def test_a_signature_endpoint_takes_named_inputs_and_returns_named_outputs(tmp_path):
    model, inputs, path = _exported(tmp_path, "functional_list")
    layer = TFSMLayer(path, call_endpoint="serving_default")
    out = layer(inputs)
    assert sorted(out) == ["first", "second"]
    want = model.predict(inputs, verbose=0)
    np.testing.assert_allclose(np.asarray(out["second"]), want[1], atol=1e-6)


@needs_tensorflow
def test_fitting_changes_the_saved_models_variables(tmp_path):
    _, x, path = _exported(tmp_path)
    wrapper = _wrapped(path)
    layer = wrapper.layers[-1]
    assert len(wrapper.trainable_weights) == 4
    before = [np.asarray(v).copy() for v in layer.weights]
    wrapper.compile(optimizer="sgd", loss="mse")
    wrapper.fit(x, np.ones((len(x), 3), "float32"), epochs=2, verbose=0)
    assert all(np.abs(np.asarray(v) - b).max() > 0 for v, b in zip(layer.weights, before))
    # the SavedModel's function reads the same (updated) storage
    np.testing.assert_allclose(
        np.asarray(layer._call_fn(x)), wrapper.predict(x, verbose=0), atol=1e-6
    )


@needs_tensorflow
def test_a_frozen_layer_keeps_its_variables(tmp_path):
    _, x, path = _exported(tmp_path)
    wrapper = _wrapped(path, trainable=False)
    layer = wrapper.layers[-1]
    assert wrapper.trainable_weights == [] and len(wrapper.non_trainable_weights) == 4
    before = [np.asarray(v).copy() for v in layer.weights]
    wrapper.compile(optimizer="sgd", loss="mse")
    wrapper.fit(x, np.ones((len(x), 3), "float32"), epochs=1, verbose=0)
    for v, b in zip(layer.weights, before):
        np.testing.assert_array_equal(np.asarray(v), b)


@needs_tensorflow
def test_training_calls_the_training_endpoint(tmp_path):
    model, x = MODELS["sequential"]()
    spec = [tripod.InputSpec(shape=(None, 4), dtype="float32")]
    archive = ExportArchive()
    archive.track(model)
    archive.add_endpoint("serve", lambda v: model(v, training=False), spec)
    archive.add_endpoint("train", lambda v: 2.0 * model(v, training=False), spec)
    archive.write_out(tmp_path / "sm", verbose=False)
    layer = TFSMLayer(tmp_path / "sm", call_training_endpoint="train")
    want = model.predict(x, verbose=0)
    np.testing.assert_allclose(np.asarray(layer(x)), want, atol=1e-6)
    np.testing.assert_allclose(np.asarray(layer(x, training=True)), 2 * want, atol=1e-6)


@needs_tensorflow
def test_a_missing_endpoint_lists_those_there_are(tmp_path):
    _, _, path = _exported(tmp_path)
    with pytest.raises(ValueError, match=r"TFSMLayer 'nope_layer'.*no endpoint 'call'.*'serve'"):
        TFSMLayer(path, call_endpoint="call", name="nope_layer")


@needs_tensorflow
def test_weights_and_the_model_save_and_load_outside_safe_mode(tmp_path):
    _, x, path = _exported(tmp_path)
    wrapper = _wrapped(path, name="wrapped")
    want = wrapper.predict(x, verbose=0)
    wrapper.save_weights(tmp_path / "w.weights.h5")
    wrapper.save(tmp_path / "m.keras")
    layer = wrapper.get_layer("wrapped")
    for v in layer.weights:
        v.assign(np.zeros(v.shape, "float32"))
    wrapper.load_weights(tmp_path / "w.weights.h5")
    np.testing.assert_allclose(wrapper.predict(x, verbose=0), want, atol=1e-6)
    config_ = layer.get_config()
    assert (config_["filepath"], config_["call_endpoint"]) == (str(path), "serve")
    with pytest.raises(ValueError, match="TFSMLayer 'wrapped'.*safe mode refuses"):
        tripod.saving.load_model(tmp_path / "m.keras")
    loaded = tripod.saving.load_model(tmp_path / "m.keras", safe_mode=False)
    np.testing.assert_allclose(loaded.predict(x, verbose=0), want, atol=1e-6)


@pytest.mark.skipif(ON_TENSORFLOW, reason="the error of the other backends")
def test_other_backends_refuse_at_construction(tmp_path):
    with pytest.raises(NotImplementedError, match="needs the tensorflow backend"):
        TFSMLayer(tmp_path)
