"""`KerasFileEditor`: inspect, compare, edit and resave weights."""

import re

import numpy as np
import pytest

import tripod
from tests.saving.helpers import assert_same_outputs, inputs_for, outputs, perturb
from tripod import layers, saving


def _model(units=(6, 2)):
    tripod.utils.set_random_seed(0)
    return tripod.Sequential([tripod.Input((4,))] + [layers.Dense(u) for u in units])


def test_summary_and_compare(tmp_path, capsys):
    model = _model()
    model.save(tmp_path / "m.keras")
    editor = saving.KerasFileEditor(tmp_path / "m.keras")
    editor.summary()
    # The layer's own name depends on how many Dense layers the process made before.
    assert re.search(
        r"layers/dense \(dense(_\d+)?\): \{'0': \(4, 6\), '1': \(6,\)\}", capsys.readouterr().out
    )
    assert editor.compare(model) == {"status": "success", "error_count": 0, "match_count": 4}
    assert editor.compare(_model((6, 3)))["status"] == "error"


def test_edit_and_resave(tmp_path):
    old = _model((6, 2))
    perturb(old)
    old.save_weights(tmp_path / "old.weights.h5")
    new = tripod.Sequential([tripod.Input((4,)), layers.Dense(6), layers.Dense(2), layers.Dense(3)])
    editor = saving.KerasFileEditor(tmp_path / "old.weights.h5")
    kernel, bias = np.ones((2, 3), "float32"), np.zeros(3, "float32")
    editor.add_object("layers/dense_2", [kernel, bias])
    editor.resave_weights(tmp_path / "new.weights.h5")
    new.load_weights(tmp_path / "new.weights.h5")
    x = inputs_for(new)
    expected = outputs(old, x)[0] @ kernel + bias
    np.testing.assert_allclose(outputs(new, x)[0], expected, rtol=1e-5, atol=1e-5)
    editor.delete_object("layers/dense_2")
    editor.rename_object("layers/dense_1", "dense_9")
    assert "layers/dense_9" in editor.weights_dict and "layers/dense_1" not in editor.weights_dict
    editor.delete_weight("layers/dense_9", "1")
    editor.add_weights("layers/dense_9", {"1": np.zeros(2, "float32")})
    with pytest.raises(ValueError, match="no object"):
        editor.delete_object("layers/nothing")


def test_save_keras_archive(tmp_path):
    model = _model()
    perturb(model)
    model.save(tmp_path / "m.keras")
    editor = saving.KerasFileEditor(tmp_path / "m.keras")
    editor.save(tmp_path / "copy.keras")
    x = inputs_for(model)
    assert_same_outputs(outputs(saving.load_model(tmp_path / "copy.keras"), x), outputs(model, x))
