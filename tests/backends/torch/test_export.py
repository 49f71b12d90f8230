"""The torch backend's exporters: ONNX through `torch.onnx.export(dynamo=True)` and `.pt2` through
`torch.export`, traced with a dynamic batch from one module whose weights are the variables'."""

import os
import subprocess
import sys

import numpy as np
import pytest

import tripod
from tripod import layers
from tripod.backends import active, config
from tripod.export.errors import ExportError
from tripod.export.model_export import serving_function

if config.backend() != "torch":
    pytest.skip("the torch backend's exporters", allow_module_level=True)

import torch  # only once the torch backend is known to be active

from tripod.backends.torch import export

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")


def _mlp():
    return tripod.Sequential(
        [
            tripod.Input((4,), name="features"),
            layers.Dense(6, activation="relu"),
            layers.Dense(3, name="head"),
        ]
    )


def _recurrent():
    return tripod.Sequential(
        [
            tripod.Input((5, 3), name="sequence"),
            layers.LSTM(4, return_sequences=True),
            layers.GRU(2),
        ]
    )


def _rows(batch, *shape, seed=0):
    return np.random.default_rng(seed).normal(size=(batch,) + shape).astype("float32")


def _run_onnx(path, feeds):
    return ort.InferenceSession(str(path)).run(None, feeds)


def _run_program(path, *inputs):
    program = torch.export.load(str(path)).module()
    return [y.numpy() for y in program(*[torch.from_numpy(x) for x in inputs])]


def test_formats():
    assert active().export_formats() == ("onnx", "torch")


def test_serving_module_holds_the_variables_storage_under_their_paths():
    model = tripod.Sequential([tripod.Input((4,)), layers.Dense(3), layers.BatchNormalization()])
    buffers = dict(export.ServingModule(serving_function(model)).named_buffers())
    dense, norm = model.layers
    assert len(buffers) == len(model.variables)
    kernel, mean = (buffers[v.path.replace("/", ".")] for v in (dense.kernel, norm.moving_mean))
    assert kernel.data_ptr() == dense.kernel.value.data_ptr()  # shared, not copied
    assert mean.data_ptr() == norm.moving_mean.value.data_ptr()
    assert not kernel.requires_grad


def test_onnx_is_one_clean_file_with_named_weights_and_a_dynamic_batch(tmp_path):
    model = _mlp()
    path = tmp_path / "m.onnx"
    model.export(path, format="onnx", verbose=False)
    assert os.listdir(tmp_path) == ["m.onnx"]  # weights inside, no .data file beside
    graph_model = onnx.load(path)
    onnx.checker.check_model(graph_model, full_check=True)
    graph = graph_model.graph
    weights = {v.path.replace("/", ".") for v in model.weights}  # e.g. sequential.head.kernel
    assert weights <= {i.name for i in graph.initializer}
    assert [i.name for i in graph.input] == ["features"]
    assert graph.input[0].type.tensor_type.shape.dim[0].dim_param == "batch"
    assert graph.output[0].type.tensor_type.shape.dim[0].dim_param == "batch"
    for batch in (1, 5):
        x = _rows(batch, 4, seed=batch)
        (got,) = _run_onnx(path, {"features": x})
        np.testing.assert_allclose(got, model.predict(x, verbose=0), atol=1e-5)


def test_onnx_output_named_like_the_node_computing_it(tmp_path):
    # torch names the Conv node's result "conv2d", as the graph output (the layer) is named
    model = tripod.Sequential(
        [
            tripod.Input((6, 6, 3), name="image"),
            layers.BatchNormalization(),
            layers.Dropout(0.5),
            layers.MaxPooling2D(),
            layers.Conv2D(2, 3, padding="same", name="conv2d"),
        ]
    )
    path = tmp_path / "m.onnx"
    model.export(path, format="onnx", verbose=False)
    onnx.checker.check_model(onnx.load(path), full_check=True)
    for batch in (1, 5):
        x = _rows(batch, 6, 6, 3)
        (got,) = _run_onnx(path, {"image": x})
        np.testing.assert_allclose(got, model.predict(x, verbose=0), atol=1e-5)


def test_onnx_other_unknown_dims_keep_their_readable_names(tmp_path):
    # torch names a dim after a Python identifier: "token-ids_1" is given back to the graph
    tokens = tripod.Input((None,), dtype="int32", name="token-ids")
    pooled = layers.GlobalAveragePooling1D()(layers.Embedding(10, 3)(tokens))
    model = tripod.Model(tokens, layers.Dense(2)(pooled))
    path = tmp_path / "m.onnx"
    model.export(path, format="onnx", verbose=False)
    dims = onnx.load(path).graph.input[0].type.tensor_type.shape.dim
    assert [d.dim_param for d in dims] == ["batch", "token-ids_1"]
    x = np.random.default_rng(0).integers(0, 10, (5, 7)).astype("int32")
    (got,) = _run_onnx(path, {"token-ids": x})
    np.testing.assert_allclose(got, model.predict(x, verbose=0), atol=1e-5)


def test_program_runs_at_other_batch_sizes(tmp_path):
    model = _mlp()
    path = tmp_path / "m.pt2"
    model.export(path, format="torch", verbose=False)
    for batch in (1, 5):
        x = _rows(batch, 4)
        (got,) = _run_program(path, x)
        np.testing.assert_allclose(got, model.predict(x, verbose=0), atol=1e-5)


def _two_inputs():
    a, b = tripod.Input((4,), name="a"), tripod.Input((2,), name="b")
    return tripod.Model([a, b], layers.Dense(3)(layers.Concatenate()([a, b])))


def test_users_dynamic_shapes_as_keras_passes_them(tmp_path):
    """{axis: Dim} for one input, a list of them, or a dict of them by input name: the program
    then runs at other sizes of the dims named dynamic."""
    batch = torch.export.Dim("batch", min=1, max=64)
    model, path = _mlp(), tmp_path / "one.pt2"
    model.export(path, format="torch", verbose=False, dynamic_shapes={0: batch})
    x = _rows(5, 4)
    np.testing.assert_allclose(_run_program(path, x)[0], model.predict(x, verbose=0), atol=1e-5)
    two = _two_inputs()
    x = [_rows(3, 4), _rows(3, 2)]
    for i, given in enumerate([[{0: batch}, {0: batch}], {"b": {0: batch}, "a": {0: batch}}]):
        path = tmp_path / f"two{i}.pt2"
        two.export(path, format="torch", verbose=False, dynamic_shapes=given)
        (got,) = _run_program(path, *x)
        np.testing.assert_allclose(got, two.predict(x, verbose=0), atol=1e-5)
    with pytest.raises(ExportError, match="gives the axes of one input; the model has 2"):
        two.export(tmp_path / "m.pt2", format="torch", verbose=False, dynamic_shapes={0: batch})
    with pytest.raises(ExportError, match="names inputs \\['c'\\]; the inputs are"):
        two.export(tmp_path / "m.pt2", format="torch", dynamic_shapes={"c": {0: batch}})


@pytest.mark.parametrize("format", ["onnx", "torch"])
def test_recurrent_layers_export_with_a_dynamic_batch(tmp_path, format):
    model = _recurrent()
    path = tmp_path / f"m.{'onnx' if format == 'onnx' else 'pt2'}"
    model.export(path, format=format, verbose=False)
    for batch in (1, 5):
        x = _rows(batch, 5, 3, seed=batch)
        got = _run_onnx(path, {"sequence": x}) if format == "onnx" else _run_program(path, x)
        np.testing.assert_allclose(got[0], model.predict(x, verbose=0), atol=1e-5)


def test_program_loads_in_a_process_without_tripod(tmp_path):
    model = _mlp()
    path = tmp_path / "m.pt2"
    model.export(path, format="torch", verbose=False)
    x = _rows(5, 4)
    np.save(tmp_path / "x.npy", x)
    script = (
        "import sys, numpy as np, torch\n"
        f"program = torch.export.load({str(path)!r}).module()\n"
        f"x = torch.from_numpy(np.load({str(tmp_path / 'x.npy')!r}))\n"
        f"np.save({str(tmp_path / 'y.npy')!r}, program(x)[0].numpy())\n"
        "assert not any(name.startswith('tripod') for name in sys.modules)\n"
    )
    subprocess.run([sys.executable, "-I", "-c", script], check=True, cwd=tmp_path, timeout=300)
    np.testing.assert_allclose(np.load(tmp_path / "y.npy"), model.predict(x, verbose=0), atol=1e-5)


def test_export_is_quiet_unless_verbose(tmp_path, capfd):
    model = _mlp()
    model.export(tmp_path / "m.onnx", format="onnx", verbose=False)
    model.export(tmp_path / "m.pt2", format="torch", verbose=False)
    assert capfd.readouterr() == ("", "")


def test_converter_kwargs_reach_the_converter(tmp_path):
    model = _mlp()
    with pytest.raises(Exception, match="no_such_option"):
        model.export(tmp_path / "m.onnx", format="onnx", verbose=False, no_such_option=1)
    with pytest.raises(Exception, match="no_such_option"):
        model.export(tmp_path / "m.pt2", format="torch", verbose=False, no_such_option=1)


def test_an_op_without_an_onnx_translation_is_named(tmp_path):
    inputs = tripod.Input((8, 8, 2))  # 8 rows into 3 bins: windows of unequal size
    model = tripod.Model(inputs, layers.AdaptiveMaxPooling2D(3)(inputs))
    with pytest.raises(Exception, match="No ONNX function found for .*adaptive_max_pool2d"):
        model.export(tmp_path / "m.onnx", format="onnx", verbose=False)
    assert os.listdir(tmp_path) == []


def test_export_artifact_refuses_other_formats_and_several_endpoints(tmp_path):
    endpoint = serving_function(_mlp())
    options = {"opset": 18, "verbose": False, "converter_kwargs": {}}
    with pytest.raises(ValueError, match="'tf_saved_model'"):
        export.export_artifact("tf_saved_model", [endpoint], str(tmp_path / "m"), options)
    with pytest.raises(ValueError, match="one function; received 2 endpoints"):
        export.export_artifact("onnx", [endpoint, endpoint], str(tmp_path / "m.onnx"), options)


def test_a_model_holding_a_torch_module_exports_to_both_formats(tmp_path):
    from tripod.layers.interop.torch_module_wrapper import TorchModuleWrapper

    torch.manual_seed(0)
    module = torch.nn.Sequential(torch.nn.Linear(4, 6), torch.nn.BatchNorm1d(6), torch.nn.Tanh())
    inputs = tripod.Input((4,), name="features")
    model = tripod.Model(inputs, layers.Dense(2)(TorchModuleWrapper(module)(inputs)))
    model.compile(optimizer="sgd", loss="mse")
    model.fit(_rows(8, 4), np.zeros((8, 2)), epochs=1, verbose=0)  # running stats not the identity
    model.export(tmp_path / "m.onnx", format="onnx", verbose=False)
    model.export(tmp_path / "m.pt2", format="torch", verbose=False)
    for batch in (1, 5):
        x = _rows(batch, 4, seed=batch)
        expected = model.predict(x, verbose=0)
        (from_onnx,) = _run_onnx(tmp_path / "m.onnx", {"features": x})
        (from_program,) = _run_program(tmp_path / "m.pt2", x)
        np.testing.assert_allclose(from_onnx, expected, atol=1e-5)
        np.testing.assert_allclose(from_program, expected, atol=1e-5)


def test_a_program_returning_its_input_unchanged_loads(tmp_path):
    inputs = tripod.Input((4,), name="features")
    model = tripod.Model(inputs, [layers.Identity()(inputs), layers.Dense(2)(inputs)])
    model.export(tmp_path / "m.pt2", format="torch", verbose=False)
    x = _rows(5, 4)
    same, dense = _run_program(tmp_path / "m.pt2", x)
    np.testing.assert_array_equal(same, x)
    np.testing.assert_allclose(dense, model.predict(x, verbose=0)[1], atol=1e-5)
