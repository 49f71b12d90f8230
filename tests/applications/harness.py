"""Compare a tripod application with the same one built by Keras 3: parameter count, layer names,
and outputs once Keras's weights are loaded into tripod's model (from a Keras 3 `.weights.h5` and
from the legacy by-layer-name `.h5` layout Keras publishes its ImageNet weights in).

Keras builds each reference once per machine: the weights files, input and output are cached under
`$TRIPOD_KERAS_APPS_CACHE` (default: the temp folder), keyed by Keras's version and the arguments,
so the four backend runs of the suite share one Keras build. The structure facts of the fast
tier's other configurations come recorded with the tests (`keras_facts.json.gz`, for the Keras
of constraints.txt; `scripts/record_keras_facts.py` records them again): building their Keras
models took a fresh machine over four minutes of test time.

Tiers (tests/README.md): each family's primary configurations (`parity_params`) compare outputs
in the fast tier. Every other configuration is checked for structure in the fast tier (parameter
count, layer names and output shape against Keras's, from a cached `facts.json` of a few KB) and
in full in the `slow` tier, so the default run keeps the reference cache small (under 2 GB). The
larger variants of a family (`STRUCTURE_ONLY`) share their blocks' code with the smallest: their
full check loads both Keras files into every variable (shapes checked, to the same values) but
skips the slow part, compiling and running a graph of up to a thousand layers;
`TRIPOD_TEST_ALL_APPLICATIONS=1` compares their outputs too.
"""

import functools
import gzip
import hashlib
import json
import os
import pathlib
import tempfile

import h5py
import numpy as np
import pytest

import tripod
from tests.keras_import import import_keras

BATCH = 2
ALL = os.environ.get("TRIPOD_TEST_ALL_APPLICATIONS") == "1"
STRUCTURE_ONLY = frozenset(
    ["ResNet101", "ResNet152", "ResNet101V2", "ResNet152V2", "VGG19", "DenseNet169", "DenseNet201"]
    + [f"EfficientNetB{i}" for i in range(1, 8)]
    + [f"EfficientNetV2{v}" for v in ("B1", "B2", "B3", "S", "M", "L")]
    + ["ConvNeXtSmall", "ConvNeXtBase", "ConvNeXtLarge", "ConvNeXtXLarge", "NASNetLarge"]
)


def parity_params(cases, primary):
    """(case, level) parameters for a parity test over `cases`: a `primary` case is compared in
    full in the fast tier; any other is checked for structure in the fast tier and in full in
    the slow one."""
    params = []
    for case in cases:
        if case in primary:
            params.append(pytest.param(case, "full", id=case))
        else:
            params.append(pytest.param(case, "structure", id=f"{case}-structure"))
            params.append(pytest.param(case, "full", id=case, marks=pytest.mark.slow))
    return params


#: Keras's structure facts of the fast tier, recorded (`scripts/record_keras_facts.py`)
RECORDED = pathlib.Path(__file__).with_name("keras_facts.json.gz")


@functools.cache
def _recorded_facts(keras_version):
    """{cache folder name: facts} recorded for this Keras version (none when the recording is
    of another version, or TRIPOD_KERAS_FACTS=off asks Keras to build every reference)."""
    if os.environ.get("TRIPOD_KERAS_FACTS") == "off" or not RECORDED.exists():
        return {}
    recorded = json.loads(gzip.decompress(RECORDED.read_bytes()))
    return recorded["facts"] if recorded["keras"] == keras_version else {}


def _cache_folder(name, kwargs, input_shape, outputs, weights, keras):
    tag = "full" if weights else "structure"
    key = json.dumps([name, kwargs, input_shape, outputs, tag], sort_keys=True)
    digest = hashlib.sha256(key.encode()).hexdigest()[:16]
    root = os.environ.get("TRIPOD_KERAS_APPS_CACHE", tempfile.gettempdir())
    return pathlib.Path(root) / f"tripod-keras-apps-{keras.__version__}" / f"{name}-{digest}"


def _tame(model, keras):
    """Halve every BatchNormalization's output scale (moving variance 4): at random initial
    weights a deep residual network's activations grow block after block until float32 rounding
    dominates its outputs; any weights serve to compare tripod's function with Keras's."""
    for layer in model.layers:
        if isinstance(layer, keras.layers.BatchNormalization):
            layer.moving_variance.assign(4.0 * np.ones(layer.moving_variance.shape, "float32"))


def _write_reference(folder, name, kwargs, input_shape, outputs, weights, keras):
    """Build `keras.applications.<name>(weights=None, **kwargs)` and write its parameter count,
    layer names and output shape into `folder`, with `weights` its weights (both layouts), and
    with `outputs` a seeded input batch and its output."""
    # Keras's own writer of the layout its published ImageNet files use (imported once Keras is).
    from keras.src.legacy.saving import legacy_h5_format

    keras.backend.clear_session()  # automatic layer names restart, as in a fresh process
    keras.utils.set_random_seed(0)
    model = getattr(keras.applications, name)(weights=None, **kwargs)
    _tame(model, keras)
    partial = pathlib.Path(tempfile.mkdtemp(dir=folder.parent))
    if outputs:
        x = np.random.default_rng(0).uniform(0, 255, (BATCH, *input_shape)).astype("float32")
        np.savez(partial / "io.npz", x=x, y=np.asarray(model.predict(x, verbose=0)))
    if weights:
        model.save_weights(partial / "model.weights.h5")
        with h5py.File(partial / "legacy.h5", "w") as f:
            legacy_h5_format.save_weights_to_hdf5_group(f, model)
    facts = {
        "params": int(model.count_params()),
        "layers": [layer.name for layer in model.layers],
        "output_shape": list(model.output.shape),
    }
    (partial / "facts.json").write_text(json.dumps(facts))
    try:
        partial.rename(folder)
    except OSError:  # another worker finished first
        if not folder.exists():
            raise


def keras_reference(name, kwargs, input_shape, outputs=True, weights=True):
    """The cached Keras build of application `name`: its folder (facts.json, with `weights`
    model.weights.h5 and legacy.h5, with `outputs` io.npz), written on first use."""
    keras = import_keras()
    folder = _cache_folder(name, kwargs, input_shape, outputs, weights, keras)
    if not (folder / "facts.json").exists():
        folder.parent.mkdir(parents=True, exist_ok=True)
        _write_reference(folder, name, kwargs, input_shape, outputs, weights, keras)
    return folder


def _assert_close(actual, expected, what):
    scale = float(np.abs(expected).max()) or 1.0
    np.testing.assert_allclose(actual, expected, rtol=1e-4, atol=1e-4 * scale, err_msg=what)


def _zero_weights(model):
    for variable in model.weights:
        variable.assign(np.zeros(variable.shape, tripod.backend.standardize_dtype(variable.dtype)))


def _weight_values(model):
    return [np.asarray(tripod.ops.convert_to_numpy(v.value)) for v in model.weights]


def structure_facts(name, kwargs, input_shape):
    """Keras's parameter count, layer names and output shape of application `name`: recorded, or
    from its cached build (without weights or outputs)."""
    keras = import_keras()
    folder = _cache_folder(name, kwargs, input_shape, False, False, keras)
    recorded = _recorded_facts(keras.__version__).get(folder.name)
    if recorded is not None:
        return recorded
    folder = keras_reference(name, kwargs, input_shape, outputs=False, weights=False)
    return json.loads((folder / "facts.json").read_text())


def _check_structure(module, name, facts, kwargs):
    """tripod's `module.<name>(weights=None, **kwargs)`, checked against Keras's `facts`:
    parameter count, layer names and (symbolic) output shape."""
    tripod.utils.clear_session()
    model = getattr(module, name)(weights=None, **kwargs)
    assert model.count_params() == facts["params"], f"{name}: parameter count"
    assert [layer.name for layer in model.layers] == facts["layers"], f"{name}: layer names"
    assert list(model.output.shape) == facts["output_shape"], f"{name}: output shape"
    return model


def check_application(module, name, input_shape, /, level="full", **kwargs):
    """tripod's `module.<name>(weights=None, **kwargs)` (module: e.g. `tripod.applications.resnet`)
    has the parameter count, layer names and output shape of `keras.applications.<name>` built
    the same way; at `level="full"` also, with Keras's `.weights.h5` loaded, Keras's outputs on
    a batch of `input_shape` (not checked for `STRUCTURE_ONLY` variants unless `ALL`), and
    Keras's legacy `.h5` loads the same values into every variable."""
    if level == "structure":
        return _check_structure(module, name, structure_facts(name, kwargs, input_shape), kwargs)
    outputs = ALL or name not in STRUCTURE_ONLY
    folder = keras_reference(name, kwargs, input_shape, outputs)
    facts = json.loads((folder / "facts.json").read_text())
    model = _check_structure(module, name, facts, kwargs)
    model.load_weights(str(folder / "model.weights.h5"))
    if outputs:
        io = np.load(folder / "io.npz")
        _assert_close(np.asarray(model.predict(io["x"], verbose=0)), io["y"], name)
    loaded = _weight_values(model)
    _zero_weights(model)
    model.load_weights(str(folder / "legacy.h5"))  # the same values, so the same outputs
    for variable, a, b in zip(model.weights, loaded, _weight_values(model)):
        np.testing.assert_array_equal(a, b, err_msg=f"{name}: {variable.path} from the legacy .h5")
    return model
