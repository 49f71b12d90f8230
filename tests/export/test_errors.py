"""Bad export requests fail clearly, naming the format, backend or layer, and leave nothing at
the target path."""

import os
import sys

import numpy as np
import pytest

import tripod
from tests.export.models import MODELS
from tripod import layers
from tripod.backends import active
from tripod.export import ExportError

ops = active()
FORMATS = ops.export_formats()
CONVERTERS = ("onnx", "onnxscript", "onnx_ir", "jax2onnx", "tf2onnx")


def test_unknown_and_unsupported_formats_are_refused(tmp_path):
    model, _ = MODELS["sequential"]()
    with pytest.raises(ValueError, match="Unknown export format 'keras'"):
        model.export(tmp_path / "m", format="keras")
    with pytest.raises(ValueError, match="does not export format='openvino'.*onnx"):
        model.export(tmp_path / "m", format="openvino")
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("format", ["onnx", "tf_saved_model", "torch"])
def test_a_format_this_backend_cannot_write_names_those_that_can(tmp_path, format):
    if format in FORMATS:
        pytest.skip(f"the {ops.name} backend writes {format}")
    model, _ = MODELS["sequential"]()
    with pytest.raises(ValueError, match=f"format='{format}' cannot be written on the {ops.name}"):
        model.export(tmp_path / "m", format=format)
    assert os.listdir(tmp_path) == []


def _needs_values(x):
    """A Lambda body that reads concrete values (a Python side effect no tracer can follow)."""
    return x * float(np.asarray(x).sum())


@pytest.mark.parametrize("format", FORMATS)
def test_a_layer_that_cannot_be_traced_is_named_and_nothing_is_written(tmp_path, format):
    inputs = tripod.Input((3,))
    outputs = layers.Dense(2)(
        layers.Lambda(_needs_values, output_shape=(3,), name="reads_values")(inputs)
    )
    model = tripod.Model(inputs, outputs)
    path = tmp_path / "artifact"
    with pytest.raises(ExportError, match=f"format='{format}'.*in layer 'reads_values'") as info:
        model.export(path, format=format, verbose=False)
    assert info.value.layer.name == "reads_values"
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("format", FORMATS)
def test_a_failed_export_keeps_the_previous_artifact(tmp_path, format):
    model, _ = MODELS["sequential"]()
    path = tmp_path / "artifact"
    model.export(path, format=format, verbose=False)
    before = sorted(os.listdir(tmp_path))
    inputs = tripod.Input((4,))
    broken = tripod.Model(
        inputs, layers.Lambda(_needs_values, output_shape=(4,), name="reads_values")(inputs)
    )
    with pytest.raises(ExportError):
        broken.export(path, format=format, verbose=False)
    assert sorted(os.listdir(tmp_path)) == before


@pytest.mark.skipif("onnx" not in FORMATS, reason="this backend does not write ONNX")
def test_a_missing_converter_names_the_pip_extra(tmp_path, monkeypatch):
    for name in CONVERTERS:  # None in sys.modules: importing it raises ImportError
        monkeypatch.setitem(sys.modules, name, None)
    model, _ = MODELS["sequential"]()
    with pytest.raises(ImportError, match=r"pip install 'tripod\[onnx"):
        model.export(tmp_path / "m.onnx", format="onnx", verbose=False)
    assert os.listdir(tmp_path) == []


def test_export_prints_where_it_wrote_unless_quiet(tmp_path, capsys):
    if not FORMATS:
        pytest.skip(f"the {ops.name} backend exports nothing")
    model, _ = MODELS["sequential"]()
    model.export(tmp_path / "a", format=FORMATS[0])
    assert f"Saved artifact at '{tmp_path / 'a'}'" in capsys.readouterr().out
    model.export(tmp_path / "b", format=FORMATS[0], verbose=False)
    assert capsys.readouterr().out == ""
