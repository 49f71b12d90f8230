"""Every model kind exports to every format the active backend writes, and the artifact, run in
a process without tripod at batch sizes 1 and 5, matches `model.predict` within 1e-5."""

import os

import numpy as np
import pytest

from tests.export.models import MODELS
from tripod.backends import active
from tripod.export import verify, verify_many
from tripod.export.model_export import serving_function

ops = active()
FORMATS = ops.export_formats()
SUFFIX = {"onnx": "m.onnx", "torch": "m.pt2", "tf_saved_model": "saved_model"}

pytestmark = pytest.mark.skipif(not FORMATS, reason=f"the {ops.name} backend exports nothing")


def _export(tmp_path, name, format):
    model, inputs = MODELS[name]()
    path = tmp_path / SUFFIX[format]
    model.export(path, format=format, verbose=False)
    return model, inputs, path


@pytest.mark.parametrize("format", FORMATS)
def test_every_model_kind_matches_predict_at_two_batch_sizes(tmp_path, format):
    # One test per format, the artifacts verified together in one process without tripod
    # (a framework starts once, not once per model).
    exported = {}
    for name in sorted(MODELS):
        folder = tmp_path / name
        folder.mkdir()
        exported[name] = _export(folder, name, format)
    found = verify_many(
        [(path, model, inputs, format) for model, inputs, path in exported.values()],
        batch_sizes=(1, 5),
    )
    failures = {name: str(f) for name, f in zip(exported, found) if isinstance(f, Exception)}
    assert not failures, failures
    for (name, (model, _, path)), report in zip(exported.items(), found):
        assert report.max_abs_diff <= 1e-5, name
        assert "tripod" not in report.imported
        assert len(report.comparisons) == 2 * len(serving_function(model).output_names), name
        assert [p for p in os.listdir(path.parent) if p.startswith(".")] == [], name


@pytest.mark.skipif("onnx" not in FORMATS, reason="this backend does not write ONNX")
@pytest.mark.parametrize("name", ["functional_dict", "functional_list", "example_masked_lstm"])
def test_onnx_graph_is_clean_named_and_dynamic(tmp_path, name):
    onnx = pytest.importorskip("onnx")
    model, _, path = _export(tmp_path, name, "onnx")
    graph_model = onnx.load(path)
    onnx.checker.check_model(graph_model, full_check=True)
    assert [o.version for o in graph_model.opset_import if o.domain in ("", "ai.onnx")] == [18]
    endpoint = serving_function(model)
    graph = graph_model.graph
    assert [i.name for i in graph.input] == [s.name for s in endpoint.specs]
    assert [o.name for o in graph.output] == endpoint.output_names
    for node, spec in zip(graph.input, endpoint.specs):
        dims = node.type.tensor_type.shape.dim
        named = {axis: dims[axis].dim_param for axis in spec.dynamic_axes()}
        assert named == spec.dynamic_axes()
        fixed = [(d.dim_value, s) for d, s in zip(dims, spec.shape) if s is not None]
        assert all(value == size for value, size in fixed)
    assert len(graph.initializer) > 0  # weights are initializers, not inputs


@pytest.mark.skipif("onnx" not in FORMATS, reason="this backend does not write ONNX")
def test_onnx_opset_is_chosen_by_opset_version(tmp_path):
    onnx = pytest.importorskip("onnx")
    model, inputs = MODELS["sequential"]()
    model.export(tmp_path / "m.onnx", format="onnx", opset_version=17, verbose=False)
    opsets = onnx.load(tmp_path / "m.onnx").opset_import
    assert [o.version for o in opsets if o.domain in ("", "ai.onnx")] == [17]
    verify(tmp_path / "m.onnx", model, inputs)


def test_verify_reports_a_changed_model(tmp_path):
    model, inputs, path = _export(tmp_path, "sequential", FORMATS[0])
    first = model.layers[0]
    first.kernel.assign(np.asarray(first.kernel) + 0.5)
    with pytest.raises(AssertionError, match="disagrees with model.predict"):
        verify(path, model, inputs, format=FORMATS[0])
