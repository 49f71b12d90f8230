"""The tensorflow backend's writers: the SavedModel's endpoints, signatures, variables and
collections; the ONNX graph's names, dynamic dims and converter options (tf2onnx); and
`tf.Variable`s shared as tripod Variables."""

import numpy as np
import pytest

import tripod
from tests.export.models import MODELS
from tripod import layers
from tripod.backends import active, config
from tripod.backends.common import tree
from tripod.export import ExportArchive
from tripod.export.model_export import serving_function

if config.backend() != "tensorflow":
    pytest.skip("the tensorflow backend's exporters", allow_module_level=True)

import tensorflow as tf

ops = active()
OPTIONS = {"opset": 18, "verbose": False, "variable_collections": {}, "converter_kwargs": {}}


def _rows(inputs, batch, seed=0):
    """`inputs` (a structure of example arrays) with `batch` rows drawn from them."""
    rows = np.random.default_rng(seed).integers(0, len(tree.flatten(inputs)[0]), batch)
    return tree.map_structure(lambda x: x[rows], inputs)


def _max_diff(got, want):
    return max(float(np.abs(np.asarray(g) - w).max()) for g, w in zip(got, want))


def test_formats():
    assert ops.export_formats() == ("onnx", "tf_saved_model")


@pytest.mark.parametrize("name", ["functional_list", "functional_dict", "recurrent"])
def test_saved_model_keeps_the_model_structure_and_serves_named_signatures(tmp_path, name):
    model, inputs = MODELS[name]()
    model.export(tmp_path / "sm", format="tf_saved_model", verbose=False)
    loaded = tf.saved_model.load(str(tmp_path / "sm"))
    endpoint = serving_function(model)
    assert set(loaded.signatures) == {"serve", "serving_default"}
    for batch in (1, 5):
        x = _rows(inputs, batch)
        want = model.predict(x, verbose=0)
        got = loaded.serve(x)
        tree.assert_same_structure(tree.map_structure(np.asarray, got), want)
        assert _max_diff(tree.flatten(got), tree.flatten(want)) <= 1e-5
        named = dict(zip([s.name for s in endpoint.specs], tree.flatten(x)))
        for signature in ("serve", "serving_default"):
            out = loaded.signatures[signature](**named)
            assert sorted(out) == sorted(endpoint.output_names)
            got = [out[n] for n in endpoint.output_names]
            assert _max_diff(got, tree.flatten(want)) <= 1e-5


def test_saved_model_saves_variables_not_constants(tmp_path):
    model, x = MODELS["convnet"]()  # BatchNormalization: non-trainable moving statistics
    model.export(tmp_path / "sm", format="tf_saved_model", verbose=False)
    loaded = tf.saved_model.load(str(tmp_path / "sm"))
    assert len(loaded.variables) == len(model.variables)
    assert [v.shape for v in loaded.trainable_variables] == [
        tuple(v.shape) for v in model.variables if v.trainable
    ]
    frozen = [v for v in model.variables if not v.trainable]
    assert len(loaded.non_trainable_variables) == len(frozen)
    for saved, own in zip(loaded.variables, model.variables):
        np.testing.assert_array_equal(saved.numpy(), np.asarray(own))
    dense_kernel = loaded.trainable_variables[-2]
    dense_kernel.assign(np.zeros(dense_kernel.shape, "float32"))
    bias = np.asarray(model.layers[-1].bias)
    np.testing.assert_allclose(loaded.serve(x).numpy(), np.tile(bias, (len(x), 1)), atol=1e-6)


def test_several_endpoints_with_their_own_arguments_and_collections(tmp_path):
    model, x = MODELS["sequential"]()
    spec = tripod.InputSpec(shape=(None, 4), dtype="float32")
    archive = ExportArchive()
    archive.track(model)
    archive.add_endpoint("mix", lambda a, b: model(a) - model(b), input_signature=[spec, spec])
    archive.add_endpoint("serve", lambda a: model(a, training=False), input_signature=[spec])
    archive.add_variable_collection("kernels", [layer.kernel for layer in model.layers])
    archive.write_out(tmp_path / "sm", verbose=False)
    loaded = tf.saved_model.load(str(tmp_path / "sm"))
    want = model.predict(x, verbose=0)
    y = x[::-1].copy()
    np.testing.assert_allclose(loaded.mix(x, y), want - model.predict(y, verbose=0), atol=1e-6)
    np.testing.assert_allclose(loaded.serve(x), want, atol=1e-6)
    default = loaded.signatures["serving_default"]  # the first endpoint: "mix"
    assert len(default.function_type.parameters) == 2
    assert [v.shape for v in loaded.kernels] == [layer.kernel.shape for layer in model.layers]
    np.testing.assert_array_equal(loaded.kernels[1].numpy(), np.asarray(model.layers[1].kernel))


def test_onnx_names_every_unknown_dim_and_runs_at_other_sizes(tmp_path):
    onnx = pytest.importorskip("onnx")
    ort = pytest.importorskip("onnxruntime")
    x = tripod.Input((None, 4), name="steps")
    model = tripod.Model(x, layers.Dense(3, name="per_step")(x))
    model.export(tmp_path / "m.onnx", format="onnx", verbose=False)
    graph = onnx.load(tmp_path / "m.onnx").graph

    def dims(value):
        return [d.dim_param or d.dim_value for d in value.type.tensor_type.shape.dim]

    assert [(i.name, dims(i)) for i in graph.input] == [("steps", ["batch", "steps_1", 4])]
    assert [(o.name, dims(o)) for o in graph.output] == [("per_step", ["batch", "per_step_1", 3])]
    session = ort.InferenceSession(str(tmp_path / "m.onnx"))
    for shape in ((1, 2, 4), (5, 7, 4)):
        data = np.random.default_rng(0).normal(size=shape).astype("float32")
        got = session.run(None, {"steps": data})[0]
        np.testing.assert_allclose(got, model.predict(data, verbose=0), atol=1e-5)


def test_onnx_outputs_keep_the_models_order_when_names_are_unsorted(tmp_path):
    ort = pytest.importorskip("onnxruntime")
    x = tripod.Input((4,), name="x")
    zeta, alpha = layers.Dense(3, name="zeta")(x), layers.Dense(1, name="alpha")(x)
    model = tripod.Model(x, [zeta, alpha])
    model.export(tmp_path / "m.onnx", format="onnx", verbose=False)
    session = ort.InferenceSession(str(tmp_path / "m.onnx"))
    assert [o.name for o in session.get_outputs()] == ["zeta", "alpha"]
    data = np.random.default_rng(0).normal(size=(5, 4)).astype("float32")
    got = session.run(["zeta", "alpha"], {"x": data})
    assert _max_diff(got, model.predict(data, verbose=0)) <= 1e-5


def test_converter_keyword_arguments_reach_tf2onnx(tmp_path):
    onnx = pytest.importorskip("onnx")
    model, _ = MODELS["sequential"]()
    extra = onnx.helper.make_opsetid("ai.onnx.contrib", 1)
    model.export(tmp_path / "m.onnx", format="onnx", verbose=False, extra_opset=[extra])
    opsets = {o.domain: o.version for o in onnx.load(tmp_path / "m.onnx").opset_import}
    assert opsets["ai.onnx.contrib"] == 1 and opsets[""] == 18


def test_the_writer_refuses_unknown_formats_and_several_onnx_endpoints(tmp_path):
    model, _ = MODELS["sequential"]()
    endpoint = serving_function(model)
    with pytest.raises(ValueError, match="exports the formats.*received format='torch'"):
        ops.export_artifact("torch", [endpoint], tmp_path / "m.pt2", OPTIONS)
    with pytest.raises(ValueError, match="exactly one endpoint; received 2"):
        ops.export_artifact("onnx", [endpoint, endpoint], tmp_path / "m.onnx", OPTIONS)
    clash = {**OPTIONS, "variable_collections": {"variables": model.variables}}
    with pytest.raises(ValueError, match=r"not one of .*received \['variables'\]"):
        ops.export_artifact("tf_saved_model", [endpoint], tmp_path / "sm", clash)


def test_an_adopted_variable_shares_the_tf_variable():
    native = tf.Variable(np.arange(6, dtype="float32").reshape(2, 3))
    variable = ops.adopt_variable(native, "shared", trainable=False)
    assert (variable.name, variable.shape, variable.dtype) == ("shared", (2, 3), "float32")
    assert variable.native is native and not variable.trainable
    variable.assign(np.ones((2, 3), "float32"))
    np.testing.assert_array_equal(native.numpy(), np.ones((2, 3)))
    native.assign_add(tf.ones((2, 3)))
    np.testing.assert_array_equal(variable.numpy(), np.full((2, 3), 2.0))


def test_only_tf_variables_are_adopted():
    with pytest.raises(TypeError, match="'w'.*tf.Variable.*received ndarray"):
        ops.adopt_variable(np.zeros(3), "w", trainable=True)


def test_loading_a_folder_without_a_saved_model_names_it(tmp_path):
    with pytest.raises(ValueError, match=f"No TensorFlow SavedModel at '{tmp_path}'"):
        ops.load_saved_model(tmp_path)
