"""`check_backend_parity`: agreement, deliberate disagreements, failures and bad arguments.

Each check starts one subprocess per backend and does not depend on the backend under test:
these tests run once, in the numpy run of the matrix.
"""

import importlib.util
import json
import pathlib
import re

import numpy as np
import pytest

import tripod
from tests.testing import backend_layers
from tripod import layers
from tripod.backends import config
from tripod.testing import ParityError, check_backend_parity, installed_backends
from tripod.testing.parity import npz_layout

pytestmark = pytest.mark.skipif(
    config.backend() != "numpy", reason="runs every backend itself: once, in the numpy run"
)

ROOT = pathlib.Path(__file__).resolve().parents[2]
HELPERS = "tests.testing.backend_layers"


@pytest.fixture(scope="module", autouse=True)
def _run_from_root():
    """Workers import `tests.testing.backend_layers` from the current directory."""
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(ROOT)
        yield


def exact_sequential():
    """Weights and inputs in multiples of 1/4: every backend computes the outputs exactly."""
    model = tripod.Sequential(
        [
            tripod.Input((3,)),
            layers.Dense(4, activation="relu", name="hidden"),
            layers.Dense(2, name="out"),
        ]
    )
    kernel = np.arange(-6, 6, dtype="float32").reshape(3, 4) / 4
    model.get_layer("hidden").set_weights([kernel, np.full(4, 0.5, "float32")])
    model.get_layer("out").set_weights([np.ones((4, 2), "float32") / 4, np.zeros(2, "float32")])
    x = np.random.default_rng(0).integers(-3, 4, (5, 3)).astype("float32")
    expected = np.maximum(x @ kernel + 0.5, 0) @ (np.ones((4, 2)) / 4)
    return model, x, expected.astype("float32")


def functional_model():
    """Two named inputs, a dict of two outputs; random weights."""
    tripod.utils.set_random_seed(3)
    a, b = tripod.Input((4,), name="a"), tripod.Input((3,), name="b")
    h = layers.Dense(8, activation="tanh", name="hidden")(layers.Concatenate(name="joined")([a, b]))
    outputs = {"cls": layers.Dense(3, name="cls")(h), "reg": layers.Dense(1, name="reg")(h)}
    rng = np.random.default_rng(1)
    x = {
        "a": rng.standard_normal((6, 4)).astype("float32"),
        "b": rng.standard_normal((6, 3)).astype("float32"),
    }
    return tripod.Model([a, b], outputs), x


def broken_model():
    """Identity on numpy; scaled by 1.001 on jax; raises on torch."""
    x = tripod.Input((4,))
    scaled = backend_layers.ScaleOnBackend("jax", 1e-3, name="scale")(x)
    return tripod.Model(x, backend_layers.FailOnBackend("torch", name="fail")(scaled))


def test_exact_model_agrees_exactly_on_every_installed_backend():
    model, x, expected = exact_sequential()
    report = check_backend_parity(model, x, per_layer=True)
    assert report.ok, str(report)
    assert report.backends == installed_backends() and report.reference == "numpy"
    for backend in report.backends:
        np.testing.assert_array_equal(report.outputs[backend]["out"], expected, err_msg=backend)
    others = [b for b in report.backends if b != "numpy"]
    assert [(c.kind, c.name, c.backend) for c in report.comparisons] == [
        (kind, name, b)
        for b in others
        for kind, name in (("output", "out"), ("layer", "hidden"), ("layer", "out"))
    ]
    assert all(c.max_abs == 0 and c.max_rel == 0 and c.mismatched == 0 for c in report.comparisons)
    assert report.raise_for_violations() is report


def test_functional_model_report_matches_numpy_differences():
    model, x = functional_model()
    report = check_backend_parity(model, x, per_layer=True)
    assert report.ok, str(report)
    reference = report.outputs["numpy"]
    predicted = model.predict(x, verbose=0)
    for name in ("cls", "reg"):
        np.testing.assert_array_equal(reference[name], predicted[name])
    assert sorted(report.layers["numpy"]) == ["cls", "hidden", "joined", "reg"]
    for c in report.comparisons:
        arrays = report.outputs if c.kind == "output" else report.layers
        value, expected = arrays[c.backend][c.name], arrays["numpy"][c.name]
        diff = np.abs(value.astype(np.float64) - expected)
        assert c.max_abs == diff.max()
        assert c.max_rel == (diff / np.abs(expected)).max()
        assert c.size == expected.size
    text = str(report)
    assert text.splitlines()[0].endswith(": OK")
    assert all(
        re.search(rf"^reg +{b} ", text, re.MULTILINE) for b in report.backends if b != "numpy"
    )


@pytest.fixture(scope="module")
def broken():
    """(inputs, report) of the broken model on numpy, jax and torch, per layer."""
    x = np.array(
        [[0.5, -1.25, 1e-3, 2.0], [1.5, -0.75, 0.25, -3.0], [0.1, 4.0, -2.5, 1.0]], "float32"
    )
    backends = ["numpy", "jax", "torch"]
    return x, check_backend_parity(broken_model(), x, backends, per_layer=True, imports=[HELPERS])


def test_a_disagreeing_backend_is_a_violation_with_the_right_numbers(broken):
    x, report = broken
    assert not report.ok
    scaled = x * np.float32(1 + 1e-3)
    diff = np.abs(scaled.astype(np.float64) - x)
    outside = int(np.sum(diff > 1e-5 + 1e-5 * np.abs(x)))
    assert 0 < outside < x.size  # an element near 0 stays within atol
    jax = [c for c in report.comparisons if c.backend == "jax"]
    assert [(c.kind, c.name) for c in jax] == [
        ("output", "fail"),
        ("layer", "scale"),
        ("layer", "fail"),
    ]
    for c in jax:
        assert not c.ok and c.mismatched == outside
        assert c.max_abs == diff.max()
        assert c.max_rel == (diff / np.abs(x)).max()
    np.testing.assert_array_equal(report.outputs["jax"]["fail"], scaled)


def test_a_crashing_backend_is_a_violation_with_its_error(broken):
    _, report = broken
    assert list(report.failures) == ["torch"]
    assert "RuntimeError: FailOnBackend: deliberate failure on torch" in report.failures["torch"]
    assert "torch" not in report.outputs
    text = str(report)
    assert "torch FAILED" in text and "deliberate failure" in text and "NO" in text
    with pytest.raises(ParityError) as raised:
        report.raise_for_violations()
    message = str(raised.value)
    assert "jax output 'fail': 11/12 elements outside tolerance" in message
    assert "torch failed: exit code 1" in message


def test_report_to_dict_is_json(broken):
    _, report = broken
    data = json.loads(json.dumps(report.to_dict(), allow_nan=False))
    assert data["ok"] is False and data["reference"] == "numpy"
    assert data["backends"] == ["numpy", "jax", "torch"] and list(data["failures"]) == ["torch"]
    assert [c["ok"] for c in data["comparisons"]] == [False] * 3


def test_unregistered_custom_layers_fail_to_load_on_every_backend():
    report = check_backend_parity(broken_model(), np.ones((2, 4), "float32"), ["numpy", "jax"])
    assert sorted(report.failures) == ["jax", "numpy"] and not report.comparisons
    assert all("ScaleOnBackend" in error for error in report.failures.values())
    assert "nothing was compared" in report.notes[0]


def test_subclassed_model_compares_outputs_and_notes_per_layer_is_unsupported(tmp_path):
    model = backend_layers.TwoLayerNet(3)
    x = np.random.default_rng(2).standard_normal((4, 5)).astype("float32")
    expected = model.predict(x, verbose=0)
    model.save(tmp_path / "net.keras")
    np.savez(tmp_path / "x.npz", x=x)
    report = check_backend_parity(
        tmp_path / "net.keras", tmp_path / "x.npz", "jax", "numpy", per_layer=True, imports=HELPERS
    )
    assert report.ok, str(report)
    assert report.backends == ["numpy", "jax"], "the reference runs even when not listed"
    assert [(c.kind, c.name) for c in report.comparisons] == [("output", "output")]
    np.testing.assert_array_equal(report.outputs["numpy"]["output"], expected)
    assert "TwoLayerNet is subclassed" in report.notes[0] and "note:" in str(report)


def test_npz_inputs_follow_the_documented_keys(tmp_path):
    model, x = functional_model()
    np.savez(tmp_path / "named.npz", **x)
    np.savez(tmp_path / "listed.npz", x0=x["a"], x1=x["b"])
    assert npz_layout(np.load(tmp_path / "listed.npz").files) == "list"
    assert npz_layout(["x"]) == "array" and npz_layout(["x1", "x2"]) == "dict"
    report = check_backend_parity(model, tmp_path / "named.npz", ["numpy", "jax"])
    assert report.ok, str(report)
    expected = model.predict(x, verbose=0)
    np.testing.assert_array_equal(report.outputs["numpy"]["cls"], expected["cls"])


@pytest.mark.parametrize(
    "arguments, error, match",
    [
        ({"backends": ["numpy", "theano"]}, ValueError, "Unknown backend 'theano'"),
        ({"reference": "mxnet"}, ValueError, "Unknown backend 'mxnet'"),
        ({"backends": ["numpy"]}, ValueError, "needs two backends"),
        ({"atol": -1.0}, ValueError, "atol and rtol must be >= 0"),
        ({"timeout": 0}, ValueError, "timeout must be positive"),
        ({"imports": [3]}, TypeError, "must be module names"),
    ],
)
def test_bad_arguments_raise(arguments, error, match):
    model, x, _ = exact_sequential()
    with pytest.raises(error, match=match):
        check_backend_parity(model, x, **arguments)


def test_bad_models_and_inputs_raise(tmp_path):
    model, x, _ = exact_sequential()
    unbuilt = tripod.Sequential([layers.Dense(2)])
    with pytest.raises(ValueError, match="is not built"):
        check_backend_parity(unbuilt, x)
    with pytest.raises(ValueError, match="no model file at"):
        check_backend_parity(tmp_path / "missing.keras", x)
    with pytest.raises(TypeError, match="a built tripod Model or the path"):
        check_backend_parity(layers.Dense(2), x)
    with pytest.raises(ValueError, match="no inputs file at"):
        check_backend_parity(model, tmp_path / "missing.npz")
    with pytest.raises(TypeError, match="`inputs` must be an array"):
        check_backend_parity(model, {"x": object()})


def test_a_backend_that_is_not_installed_is_named_with_its_extra(monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name: None if name == "torch" else real(name)
    )
    assert "torch" not in installed_backends()
    model, x, _ = exact_sequential()
    with pytest.raises(ValueError, match=r"pip install 'tripod\[torch\]'"):
        check_backend_parity(model, x, backends=["numpy", "torch"])
