"""fit / evaluate / predict under a distribution equal one-device training on the same global
batches, in fresh processes (`tripod.testing.launch`) under a timeout.

Several devices in one process come from `TRIPOD_NUM_CPU_DEVICES` (jax, tensorflow); several
processes from the launcher (gloo on CPU for torch). Marked `multi_device`: its own CI step.
"""

import importlib.util

import numpy as np
import pytest

import tripod
from tests.distribution import runs
from tests.saving.helpers import run_python
from tripod.testing import LaunchError, launch

pytestmark = [
    pytest.mark.multi_device,
    pytest.mark.skipif(tripod.config.backend() == "numpy", reason="numpy does not distribute"),
]
BACKEND = tripod.config.backend()
TWO_DEVICES = {"TRIPOD_NUM_CPU_DEVICES": "2", "TRIPOD_BACKEND": BACKEND}
ONE_DEVICE_EACH = {"TRIPOD_NUM_CPU_DEVICES": "1", "TRIPOD_BACKEND": BACKEND}
TIMEOUT = 240


@pytest.fixture(scope="module")
def reference():
    return runs.train(None)


def _assert_same_training(run, reference):
    for got, want in zip(run["weights"], reference["weights"]):
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)
    for key, values in reference["history"].items():
        np.testing.assert_allclose(run["history"][key], values, rtol=1e-6, atol=1e-6)
    for key, value in reference["evaluate"].items():
        np.testing.assert_allclose(run["evaluate"][key], value, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(run["predict"], reference["predict"], rtol=1e-6, atol=1e-6)


@pytest.mark.skipif(BACKEND == "torch", reason="torch runs one device per process")
def test_data_parallel_on_two_devices_of_one_process(reference):
    (run,) = launch(runs.train, 1, args=("data",), env=TWO_DEVICES, timeout=TIMEOUT)
    assert (run["processes"], run["devices"]) == (1, 2)
    _assert_same_training(run, reference)


def test_data_parallel_on_two_processes(reference, tmp_path):
    path = str(tmp_path / "trained.keras")
    first, second = launch(
        runs.train, 2, args=("data", "arrays", 2, False, path), env=ONE_DEVICE_EACH, timeout=TIMEOUT
    )
    assert (first["processes"], first["devices"]) == (2, 2)
    _assert_same_training(first, reference)
    _assert_same_training(second, reference)
    # The checkpoint of the run (written by process 0 alone) loads on one device.
    loaded = tripod.saving.load_model(path)
    np.testing.assert_allclose(
        loaded.predict(runs.X, verbose=0), reference["predict"], rtol=1e-6, atol=1e-6
    )
    _assert_loads_elsewhere(path, reference["predict"])  # on the numpy backend
    if importlib.util.find_spec("keras") is not None:  # ... and in Keras 3
        _assert_keras_predicts(path, tmp_path, reference["predict"])


def _assert_loads_elsewhere(path, expected):
    """The checkpoint predicts alike on the numpy reference backend, in a fresh process."""
    code = (
        "import numpy as np, tripod; from tests.distribution import runs; "
        f"m = tripod.saving.load_model({path!r}); print(repr(m.predict(runs.X, verbose=0).tolist()))"
    )
    got = np.array(eval(run_python(code, "numpy").strip().splitlines()[-1]))  # our own list repr
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


def _assert_keras_predicts(path, folder, expected):
    np.save(folder / "x.npy", runs.X)
    code = (
        f"import numpy as np, keras; m = keras.saving.load_model({path!r}); "
        f"np.save({str(folder / 'y.npy')!r}, m.predict(np.load({str(folder / 'x.npy')!r}), verbose=0))"
    )
    run_python(code, BACKEND, env={"KERAS_BACKEND": "jax"})
    np.testing.assert_allclose(np.load(folder / "y.npy"), expected, rtol=1e-5, atol=1e-5)


@pytest.mark.skipif(
    BACKEND != "torch",
    reason="jax and tensorflow predict over every process's devices as one program, as Keras's "
    "do: every process calls it",
)
def test_process_zero_alone_saves_and_predicts(reference, tmp_path):
    """`if rank == 0: model.save_weights(...); model.predict(...)` after a DataParallel fit: no
    collective waits for the processes that do not call them."""
    path = str(tmp_path / "trained.weights.h5")
    first, second = launch(
        runs.rank_zero_saves_and_predicts, 2, args=(path,), env=ONE_DEVICE_EACH, timeout=TIMEOUT
    )
    assert second is None
    np.testing.assert_allclose(first, reference["predict"], rtol=1e-6, atol=1e-6)
    model = runs.model_for_tests()
    model.load_weights(path)
    np.testing.assert_allclose(
        model.predict(runs.X, verbose=0), reference["predict"], rtol=1e-6, atol=1e-6
    )


@pytest.mark.parametrize("data, framework", [("tf.data", "tensorflow"), ("DataLoader", "torch")])
def test_data_parallel_on_two_processes_reads_framework_pipelines(reference, data, framework):
    if importlib.util.find_spec(framework) is None:
        pytest.skip(f"{framework} is not installed")
    first, second = launch(runs.train, 2, args=("data", data), env=ONE_DEVICE_EACH, timeout=TIMEOUT)
    _assert_same_training(first, reference)
    _assert_same_training(second, reference)


def test_processes_agree_on_shuffled_batches_from_a_pydataset():
    first, second = launch(
        runs.train, 2, args=("data", "pydataset", 2, True), env=ONE_DEVICE_EACH, timeout=TIMEOUT
    )
    for a, b in zip(first["weights"], second["weights"]):
        np.testing.assert_array_equal(a, b)
    assert first["history"] == second["history"]


@pytest.mark.skipif(BACKEND == "tensorflow", reason="ModelParallel runs on jax and torch")
@pytest.mark.parametrize("kind", ["model", "sharded"])
def test_model_parallel_on_two_processes_equals_one_device(reference, kind, tmp_path):
    path = str(tmp_path / "trained.keras")
    first, second = launch(
        runs.train, 2, args=(kind, "arrays", 2, False, path), env=ONE_DEVICE_EACH, timeout=TIMEOUT
    )
    _assert_same_training(first, reference)
    _assert_same_training(second, reference)
    # load_weights into a placed model (the split kept) predicts as the trained one did.
    for predictions in launch(
        runs.reload, 2, args=(kind, path), env=ONE_DEVICE_EACH, timeout=TIMEOUT
    ):
        np.testing.assert_allclose(predictions, reference["predict"], rtol=1e-6, atol=1e-6)


@pytest.mark.skipif(BACKEND != "tensorflow", reason="the tensorflow refusal")
def test_model_parallel_on_tensorflow_names_the_backends_that_have_it():
    with pytest.raises(LaunchError, match="NotImplementedError.*jax.*torch"):
        launch(runs.train, 1, args=("model",), env=TWO_DEVICES, timeout=TIMEOUT)


def test_a_dead_process_makes_the_others_fail_within_the_timeout():
    env = {**ONE_DEVICE_EACH, "TRIPOD_DISTRIBUTION_TIMEOUT": "20"}
    with pytest.raises(LaunchError, match="process 1 of 2 exited with code 3") as caught:
        launch(runs.die_during_fit, 2, args=(1,), env=env, timeout=TIMEOUT)
    survivor = caught.value.exit_codes[0]
    assert survivor not in (None, 0), (
        "the surviving process did not fail by itself within the grace time"
    )
