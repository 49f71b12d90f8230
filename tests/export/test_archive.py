"""`ExportArchive`: a SavedModel with chosen endpoints and variable collections, loaded in a
process without tripod."""

import json
import subprocess
import sys

import numpy as np
import pytest

import tripod
from tests.export.models import MODELS
from tripod.backends import active
from tripod.export import ExportArchive

ops = active()
WRITES = "tf_saved_model" in ops.export_formats()

LOAD = """
import json, sys
import numpy as np
import tensorflow as tf
loaded = tf.saved_model.load(sys.argv[1])
x = np.load(sys.argv[2])
out = {
    "serve": loaded.serve(x).numpy().tolist(),
    "double": loaded.double(x).numpy().tolist(),
    "signatures": sorted(loaded.signatures),
    "collection": [v.numpy().tolist() for v in loaded.kernels],
    "tripod": "tripod" in sys.modules,
}
print(json.dumps(out))
"""


def _load_in_fresh_process(path, x, tmp_path):
    np.save(tmp_path / "x.npy", x)
    done = subprocess.run(
        [sys.executable, "-c", LOAD, str(path), str(tmp_path / "x.npy")],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(not WRITES, reason="this backend does not write SavedModels")
def test_endpoints_signatures_and_collections_round_trip(tmp_path):
    model, x = MODELS["sequential"]()
    spec = [tripod.InputSpec(shape=(None, 4), dtype="float32")]
    archive = ExportArchive()
    archive.track(model)
    archive.add_endpoint("serve", lambda v: model(v, training=False), input_signature=spec)
    archive.add_endpoint("double", lambda v: 2.0 * model(v, training=False), spec)
    archive.add_variable_collection("kernels", [layer.kernel for layer in model.layers])
    archive.write_out(tmp_path / "archive", verbose=False)
    found = _load_in_fresh_process(tmp_path / "archive", x, tmp_path)
    want = model.predict(x, verbose=0)
    np.testing.assert_allclose(found["serve"], want, atol=1e-6)
    np.testing.assert_allclose(found["double"], 2 * want, atol=1e-6)
    assert {"serve", "double", "serving_default"} <= set(found["signatures"])
    np.testing.assert_allclose(found["collection"][0], np.asarray(model.layers[0].kernel))
    assert not found["tripod"]


def test_archive_misuse_is_refused():
    model, _ = MODELS["sequential"]()
    archive = ExportArchive()
    with pytest.raises(TypeError, match="tripod Layer"):
        archive.track(lambda x: x)
    with pytest.raises(ValueError, match="Track the layers"):
        archive.add_endpoint("serve", model, [tripod.InputSpec(shape=(None, 4))])
    archive.track(model)
    with pytest.raises(ValueError, match="input_signature"):
        archive.add_endpoint("serve", model)
    archive.add_endpoint("serve", model, [tripod.InputSpec(shape=(None, 4))])
    with pytest.raises(ValueError, match="already"):
        archive.add_endpoint("serve", model, [tripod.InputSpec(shape=(None, 4))])
    with pytest.raises(ValueError, match="format='saved_model'"):
        ExportArchive(format="onnx")
    with pytest.raises(ValueError, match="no endpoints"):
        ExportArchive().write_out("unused")


@pytest.mark.skipif(WRITES, reason="this backend writes SavedModels")
def test_write_out_names_the_backends_that_can(tmp_path):
    model, _ = MODELS["sequential"]()
    archive = ExportArchive()
    archive.track_and_add_endpoint("serve", model, [tripod.InputSpec(shape=(None, 4))])
    with pytest.raises(ValueError, match="tensorflow or jax"):
        archive.write_out(tmp_path / "archive")
