"""Every example runs on the active backend (shortened where it trains) and is checked for what
it claims: that the model learned, or that a saved model came back with the same predictions."""

import os
import runpy

import numpy as np
import pytest

from tripod.backends import config
from tripod.testing import installed_backends

EXAMPLES = os.path.join(
    os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "examples"
)
TRAINING_BACKENDS = {"jax", "torch", "tensorflow"}

needs_training = pytest.mark.skipif(
    config.backend() == "numpy", reason="the numpy backend is inference-only"
)


def load(name):
    return runpy.run_path(os.path.join(EXAMPLES, f"{name}.py"), run_name="example")


def test_quickstart_trains(capsys):
    losses = load("quickstart")["main"](epochs=60)
    assert f"on the {config.backend()} backend" in capsys.readouterr().out
    if config.backend() != "numpy":
        assert losses[-1] < 0.2 * losses[0]


@needs_training
def test_gan_custom_step_learns_the_target_mean():
    samples = load("gan_custom_step")["main"](epochs=40)
    assert abs(float(np.mean(samples)) - 3.0) < 1.0


@needs_training
def test_digits_classification_beats_chance_by_far():
    pytest.importorskip("sklearn", reason="needs the `examples` extra (scikit-learn)")
    accuracy = load("digits_classification")["main"](epochs=2)
    assert accuracy > 0.85  # 10 classes; about 0.93 after 2 epochs, 0.97 after the full 30


@needs_training
def test_cnn_names_the_shapes():
    accuracy = load("cnn")["main"](epochs=3, train_size=600)
    assert accuracy > 0.8  # 3 classes; about 0.95 here, 0.99 at full settings


@needs_training
def test_sequence_models_learn_to_sum_and_ignore_padding():
    baseline, errors, padding_effects = load("sequence_model")["main"](epochs=6, train_size=500)
    assert set(errors) == set(padding_effects) == {"lstm", "bidirectional_gru"}
    for name, error in errors.items():
        assert error < 0.3 * baseline, name  # about 0.15 x baseline here, 0.02 x at full settings
        assert padding_effects[name] < 1e-4, name  # masked: padding changes nothing (x 50 scale)


@needs_training
def test_functional_multi_input_learns_both_outputs(capsys):
    scores, guess_mae = load("functional_multi_input")["main"](epochs=5, train_size=2000)
    assert "store_embedding (Embedding)" in capsys.readouterr().out  # the summary was printed
    assert scores["sales_mae"] < 0.3 * guess_mae
    assert scores["busy_accuracy"] > 0.9  # the majority class is 0.77


def test_custom_layer_and_model_reload_with_the_same_predictions():
    test_loss, variance, difference = load("custom_layer")["main"](epochs=5)
    assert difference <= 1e-5
    if config.backend() != "numpy":
        assert test_loss < 0.25 * variance


@pytest.mark.skipif(
    config.backend() != "torch",
    reason="one run is enough: torch's compares the model it trains with every other backend",
)
def test_cross_backend_predictions_agree():
    others = (set(installed_backends()) & TRAINING_BACKENDS) - {config.backend()}
    if not others:
        pytest.skip("no other training backend is installed")
    report = load("cross_backend")["main"](epochs=2)
    assert report.ok, report.violations
    assert {c.backend for c in report.comparisons} == others
    assert all(c.max_abs <= 1e-5 for c in report.comparisons)


@needs_training
def test_callbacks_stop_early_checkpoint_and_resume():
    main = load("callbacks")["main"]
    part1, part2 = main(max_epochs=150, epochs=6, crash_at=3)
    val_losses, rows, restored, from_checkpoint = part1
    epochs, crashed, resumed = part2
    assert len(val_losses) < 150  # early stopping stopped the fit
    assert len(rows) == len(val_losses)  # one CSV row per epoch
    assert [float(r["val_loss"]) for r in rows] == pytest.approx(val_losses, rel=1e-6)
    assert restored == pytest.approx(min(val_losses), rel=1e-4)  # the best weights came back
    assert from_checkpoint == pytest.approx(min(val_losses), rel=1e-4)  # and were saved
    assert len(crashed) == 3 and epochs == [3, 4, 5]  # resumed at the epoch the crash stopped
    # from the backed-up weights: nearer the loss before the crash than a fresh start's
    assert resumed[0] < (crashed[0] + crashed[-1]) / 2


@needs_training
def test_image_classification_learns_from_a_folder_of_files():
    accuracy = load("image_classification")["main"](epochs=4, per_class=60)
    assert accuracy > 0.9  # 2 classes; about 1.0 here and at the full settings


@needs_training
def test_text_classification_learns_from_a_folder_of_files():
    accuracy = load("text_classification")["main"](epochs=4, per_class=120)
    assert accuracy > 0.9  # 2 classes; 1.0 at the full settings


@needs_training
def test_distributed_fit_trains_on_the_local_devices(tmp_path):
    accuracy = load("distributed_fit")["main"](
        epochs=1, samples=1024, save_to=str(tmp_path / "m.keras")
    )
    assert accuracy > 0.5  # 10 classes; about 0.9 after one epoch
    assert (tmp_path / "m.keras").exists()


@needs_training
def test_export_onnx_serves_the_trained_model(tmp_path):
    pytest.importorskip("onnxruntime", reason="needs the `onnx-<backend>` extra")
    accuracy, max_diff = load("export_onnx")["main"](epochs=10, folder=str(tmp_path))
    assert accuracy > 0.9  # three well-separated clusters; about 0.97 here
    assert max_diff <= 1e-5
    assert os.listdir(tmp_path) == ["classifier.onnx"]
