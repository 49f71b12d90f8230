"""The guide-style scripts in examples/guides/ run on the active backend and do what they claim:
the model learned, padding changed nothing, a reloaded model predicts the same."""

import os
import runpy

import numpy as np
import pytest

from tripod.backends import config

GUIDES = os.path.join(
    os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
    "examples",
    "guides",
)

needs_training = pytest.mark.skipif(
    config.backend() == "numpy", reason="the numpy backend is inference-only"
)


def load(name):
    return runpy.run_path(os.path.join(GUIDES, f"{name}.py"), run_name="guide")


@needs_training
def test_functional_api_two_outputs_learn(capsys):
    first, last, feature_shape = load("functional_api")["main"](epochs=8)
    assert "shared_text (Dense)" in capsys.readouterr().out
    assert last < 0.5 * first
    assert feature_shape == (512, 16)


@needs_training
def test_subclassed_layers_and_model_train_and_serialize():
    first, last, n_trainable, n_losses, same_config = load("subclassing")["main"](epochs=15)
    assert last < 0.3 * first
    assert n_trainable == 4  # two Affine layers, w and b each
    assert n_losses == 1  # the activity loss of the last call
    assert same_config


@needs_training
def test_built_in_training_with_custom_loss_metric_and_data():
    scores = load("training_builtin")["main"](epochs=5)
    for run in ("validation_split", "weighted", "py_dataset"):
        assert scores[run] > 0.8, run  # 3 overlapping blobs: chance is 1/3, the best about 0.93
    assert scores["early_stopping_epochs"] < 100


@needs_training
def test_custom_callbacks_see_hooks_set_rates_and_restore_weights():
    calls, rates, (stopped_epoch, restored) = load("custom_callbacks")["main"](epochs=6)
    hooks = [hook for hook, _ in calls]
    assert hooks[0] == "train_begin" and hooks[-1] == "predict_end"
    assert hooks.count("train_batch_end") == 1  # 32 of 64 samples in one batch of 32
    assert "test_begin" in hooks and "predict_batch_end" in hooks
    epoch_end_keys = dict(calls)["epoch_end"]
    assert {"loss", "val_loss"} <= set(epoch_end_keys)
    np.testing.assert_allclose(rates, [0.4, 0.4, 0.2, 0.2, 0.1, 0.1], rtol=1e-6)
    assert stopped_epoch is not None and restored


@needs_training
def test_custom_fit_step_written_once_trains_and_evaluates():
    history, scores = load("custom_fit_step")["main"](epochs=8)
    assert history["loss"][-1] < 0.2 * history["loss"][0]
    assert set(history) >= {"loss", "mae", "grad_norm"}
    assert np.isfinite(history["grad_norm"]).all()
    assert set(scores) == {"loss", "mae"} and scores["loss"] < 0.2 * history["loss"][0]


@needs_training
def test_custom_training_loop_learns_the_ring():
    losses, train_accuracy, test_accuracy = load("custom_training_loop")["main"](epochs=15)
    assert losses[-1] < 0.5 * losses[0]
    assert train_accuracy > 0.85 and test_accuracy > 0.85  # about 0.5 for chance


@needs_training
def test_transfer_learning_keeps_the_frozen_base():
    frozen_kept, head_accuracy, statistics_kept, tuned_accuracy = load("transfer_learning")["main"](
        epochs=3
    )
    assert frozen_kept
    assert statistics_kept  # training=False on the base keeps BatchNormalization in inference mode
    assert head_accuracy > 0.8 and tuned_accuracy > 0.8


def test_masking_makes_padding_irrelevant():
    padded, change, mask = load("masking_and_padding")["main"]()
    assert padded.shape == (3, 6)
    assert change < 1e-5
    np.testing.assert_array_equal(mask, padded != 0)


def test_saved_custom_objects_reload_with_the_same_predictions():
    differences, same_architecture = load("saving_custom_objects")["main"](epochs=2)
    assert set(differences) == {
        "registered",
        "custom_objects",
        "custom_object_scope",
        "weights_only",
    }
    for way, difference in differences.items():
        assert difference <= 1e-6, way
    assert same_architecture


@needs_training
def test_distribution_api_trains_data_and_model_parallel():
    data_parallel, model_parallel = load("distribution_api")["main"](epochs=3)
    assert data_parallel > 0.8  # 10 classes; about 0.95 here
    if config.backend() == "tensorflow":
        assert model_parallel is None  # refused with a clear NotImplementedError
    else:
        assert model_parallel > 0.8


@needs_training
def test_transformer_classifier_learns_and_reloads():
    # main() also asserts that the reloaded .keras model predicts the same
    assert load("transformer_classification")["main"](epochs=4) > 0.9
