"""The jax backend's exporters: ONNX through jax2onnx and SavedModel through jax2tf, on what is
particular to jax: ops traced with symbolic dims (max pooling, reshapes, slices, transposed
convolutions), outputs that are inputs, and SavedModel variables that stay tf.Variables."""

import importlib.util
import json
import subprocess
import sys

import numpy as np
import pytest

import tripod
from tripod import layers
from tripod.backends import active, config
from tripod.export import verify

if config.backend() != "jax":
    pytest.skip("the jax backend's exporters", allow_module_level=True)

onnx = pytest.importorskip("onnx")
pytest.importorskip("jax2onnx")
HAS_TF = importlib.util.find_spec("tensorflow") is not None

#: run in a fresh process where importing jax, flax or tripod fails
BLOCKED_LOAD = """
import json, sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("jax", "jaxlib", "flax", "tripod"):
            raise ImportError(name)
sys.meta_path.insert(0, Block())
import numpy as np
import tensorflow as tf
loaded = tf.saved_model.load(sys.argv[1])
x = np.load(sys.argv[2])
before = loaded.serve({"a": x[:, :4], "b": x[:, 4:]})["out"].numpy()
for v in loaded.trainable_variables:
    v.assign(tf.zeros_like(v))
after = loaded.signatures["serving_default"](a=x[:, :4], b=x[:, 4:])["out"].numpy()
print(json.dumps({"before": before.tolist(), "after": after.tolist(),
                  "variables": len(loaded.variables)}))
"""


def _dims(value):
    """A graph input's or output's dims: dim_param names and fixed sizes."""
    return [d.dim_param or d.dim_value for d in value.type.tensor_type.shape.dim]


def test_formats_follow_tensorflow_being_installed():
    formats = active().export_formats()
    assert formats == (("onnx", "tf_saved_model") if HAS_TF else ("onnx",))


@pytest.mark.parametrize("rank", [2, 3])
def test_max_pooling_exports_to_onnx_that_runs(tmp_path, rank):
    # jax2onnx pools every dim of reduce_window's operand; runtimes pool at most 3 dims, so the
    # jax backend pools one axis at a time (a regression test for both 2-d and 3-d pooling).
    pool = {2: layers.MaxPooling2D(3, strides=2, padding="same"), 3: layers.MaxPooling3D(2)}[rank]
    shape = (6,) * rank + (2,)
    model = tripod.Sequential([tripod.Input(shape), layers.Dense(3), pool, layers.Flatten()])
    x = np.random.default_rng(0).normal(size=(3,) + shape).astype("float32")
    model.export(tmp_path / "m.onnx", format="onnx", verbose=False)
    report = verify(tmp_path / "m.onnx", model, x, batch_sizes=(1, 5))
    assert report.max_abs_diff <= 1e-5


def _passthrough():
    """An inference-time identity (its output is its input) and one output given twice."""
    x = tripod.Input((4,), name="x")
    dense = layers.Dense(2, name="dense")(x)
    again = layers.Identity(name="again")(dense)
    return tripod.Model(x, [layers.Identity(name="same")(x), dense, again]), (4,)


def _time_distributed():
    """Folds time into the batch: a reshape of a symbolic size (batch * 3)."""
    model = tripod.Sequential([tripod.Input((3, 4)), layers.TimeDistributed(layers.Dense(2))])
    return model, (3, 4)


def _conv_transpose():
    """A strided transposed convolution (an input-dilated convolution)."""
    model = tripod.Sequential([tripod.Input((5, 5, 2)), layers.Conv2DTranspose(3, 3, strides=2)])
    return model, (5, 5, 2)


def _random_crop():
    """A center crop at inference: a slice whose size keeps the symbolic batch."""
    model = tripod.Sequential([tripod.Input((6, 6, 1)), layers.RandomCrop(4, 4, seed=0)])
    return model, (6, 6, 1)


@pytest.mark.parametrize("build", [_passthrough, _time_distributed, _conv_transpose, _random_crop])
def test_onnx_exports_what_the_jax_ops_once_blocked(tmp_path, build):
    # Each needed a change in the jax backend or its exporter (see the builders' docstrings).
    model, shape = build()
    x = np.random.default_rng(4).normal(size=(3,) + shape).astype("float32")
    model.export(tmp_path / "m.onnx", format="onnx", verbose=False)
    assert verify(tmp_path / "m.onnx", model, x, batch_sizes=(1, 5)).max_abs_diff <= 1e-5


def test_onnx_keeps_every_unknown_dim_named_opset_and_converter_kwargs(tmp_path):
    tokens = tripod.Input((None,), dtype="int32", name="tokens")
    hidden = layers.LSTM(3, return_sequences=True)(layers.Embedding(10, 4)(tokens))
    model = tripod.Model(tokens, layers.Dense(2, name="scores")(hidden))
    path = tmp_path / "m.onnx"
    model.export(path, format="onnx", verbose=False, opset_version=17, model_name="tagger")
    proto = onnx.load(path)
    onnx.checker.check_model(proto, full_check=True)
    assert [o.version for o in proto.opset_import if o.domain in ("", "ai.onnx")] == [17]
    assert proto.graph.name == "tagger"
    assert [(i.name, _dims(i)) for i in proto.graph.input] == [("tokens", ["batch", "tokens_1"])]
    assert [(o.name, _dims(o)) for o in proto.graph.output] == [
        ("scores", ["batch", "tokens_1", 2])
    ]
    x = np.random.default_rng(1).integers(0, 10, (3, 7)).astype("int32")
    assert verify(path, model, x, batch_sizes=(1, 5)).max_abs_diff <= 1e-5


@pytest.mark.skipif(not HAS_TF, reason="SavedModel export from jax needs tensorflow")
def test_saved_model_variables_stay_variables_and_load_without_jax(tmp_path):
    a, b = tripod.Input((4,), name="a"), tripod.Input((2,), name="b")
    out = layers.Dense(3, name="out")(layers.Concatenate()([a, b]))
    model = tripod.Model({"a": a, "b": b}, {"out": out})
    model.export(tmp_path / "saved", format="tf_saved_model", verbose=False)
    x = np.random.default_rng(2).normal(size=(5, 6)).astype("float32")
    np.save(tmp_path / "x.npy", x)
    done = subprocess.run(
        [sys.executable, "-c", BLOCKED_LOAD, str(tmp_path / "saved"), str(tmp_path / "x.npy")],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    want = model.predict({"a": x[:, :4], "b": x[:, 4:]}, verbose=0)["out"]
    np.testing.assert_allclose(found["before"], want, atol=1e-5)
    assert found["variables"] == 2
    np.testing.assert_array_equal(found["after"], np.zeros((5, 3)))  # read live, not baked in


@pytest.mark.skipif(not HAS_TF, reason="SavedModel export from jax needs tensorflow")
def test_saved_model_names_clashing_with_the_variable_attributes_are_refused(tmp_path):
    model = tripod.Sequential([tripod.Input((2,)), layers.Dense(1)])
    archive = tripod.export.ExportArchive()
    archive.track(model)
    archive.add_endpoint("variables", model, [tripod.InputSpec(shape=(None, 2))])
    with pytest.raises(Exception, match="not one of .*'variables'"):
        archive.write_out(tmp_path / "saved", verbose=False)


@pytest.mark.parametrize("format", ["onnx", "tf_saved_model"] if HAS_TF else ["onnx"])
def test_a_model_holding_flax_and_jax_layers_exports(tmp_path, format):
    nn = pytest.importorskip("flax.linen")
    from tripod.layers.interop.jax_layer import FlaxLayer, JaxLayer

    class Block(nn.Module):
        @nn.compact
        def __call__(self, x, training):
            x = nn.BatchNorm(use_running_average=not training)(nn.Dense(6)(x))
            return nn.Dense(2)(nn.Dropout(0.5, deterministic=not training)(nn.relu(x)))

    def scale_and_count(params, state, inputs):
        """A call that updates its state at inference too (the trace must not keep it)."""
        return inputs * params["scale"], {"calls": state["calls"] + 1}

    counting = JaxLayer(
        scale_and_count,
        params={"scale": np.full(2, 1.5, "float32")},
        state={"calls": np.zeros((), "int32")},
    )
    model = tripod.Sequential([tripod.Input((4,)), FlaxLayer(Block(), seed=0), counting])
    x = np.random.default_rng(3).normal(size=(8, 4)).astype("float32")
    model.compile(optimizer="sgd", loss="mse")
    model.fit(x, np.ones((8, 2), "float32"), epochs=1, verbose=0)  # batch_stats move off 0/1
    path = tmp_path / ("m.onnx" if format == "onnx" else "saved")
    model.export(path, format=format, verbose=False)
    assert verify(path, model, x[:3], batch_sizes=(1, 5)).max_abs_diff <= 1e-5
