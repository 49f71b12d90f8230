"""Asset files in a `.keras` archive: a layer's `save_assets(folder)` writes them when the model
is saved and `load_assets(folder)` reads them back when it loads (a tokenizer's vocabulary, not
in the config), in a folder named by the layer's path, zipped or not, through the file editor."""

import json
import os
import zipfile

import numpy as np
import pytest

import tripod
from tripod import layers, ops, saving
from tripod.saving import serialization


@saving.register_keras_serializable(package="tests_assets")
class Vocabulary(layers.Layer):
    """Maps ids to ids through a vocabulary that only its asset file holds."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.words = []

    def call(self, x):
        return ops.add(x, float(len(self.words)))

    def save_assets(self, folder):
        with open(os.path.join(folder, "vocabulary.txt"), "w") as f:
            f.write("\n".join(self.words))

    def load_assets(self, folder):
        with open(os.path.join(folder, "vocabulary.txt")) as f:
            self.words = f.read().split("\n")


def _model():
    model = tripod.Sequential([tripod.Input((2,)), Vocabulary(name="vocab"), layers.Dense(1)])
    model.layers[0].words = ["the", "cat", "sat"]
    return model


@pytest.mark.parametrize("zipped", [True, False], ids=["zip", "folder"])
def test_a_layers_assets_come_back_with_the_model(tmp_path, zipped):
    model = _model()
    path = str(tmp_path / "model.keras")
    model.save(path, zipped=zipped)
    loaded = saving.load_model(path)
    assert loaded.layers[0].words == ["the", "cat", "sat"]
    x = np.ones((1, 2), "float32")
    np.testing.assert_allclose(loaded.predict(x, verbose=0), model.predict(x, verbose=0))


def test_assets_lie_under_the_layers_path_in_the_archive(tmp_path):
    path = str(tmp_path / "model.keras")
    _model().save(path)
    with zipfile.ZipFile(path) as archive:
        names = archive.namelist()
    assert [n for n in names if n.startswith("assets/")] == [
        "assets/layers/vocabulary/vocabulary.txt"
    ]


def test_a_model_without_assets_writes_no_assets_folder(tmp_path):
    path = str(tmp_path / "plain")
    tripod.Sequential([tripod.Input((2,)), layers.Dense(1)]).save(path, zipped=False)
    assert sorted(os.listdir(path)) == ["config.json", "metadata.json", "model.weights.h5"]


def test_the_file_editor_carries_the_assets_over(tmp_path):
    path, edited = str(tmp_path / "model.keras"), str(tmp_path / "edited.keras")
    _model().save(path)
    saving.KerasFileEditor(path).save(edited)
    assert saving.load_model(edited).layers[0].words == ["the", "cat", "sat"]


def test_links_in_a_saved_folders_assets_are_refused(tmp_path):
    path = str(tmp_path / "model")
    _model().save(path, zipped=False)
    os.symlink("/etc/passwd", os.path.join(path, "assets", "layers", "vocabulary", "extra"))
    with pytest.raises(ValueError, match="symbolic link 'extra'"):
        saving.load_model(path)


def _as_keras_writes_it(path, layer_name, vocabulary):
    """Rewrite a tripod archive as Keras 3 writes an adapted lookup layer: no vocabulary in the
    config, the vocabulary (special tokens first) in the layer's `vocabulary.txt` asset."""
    with zipfile.ZipFile(path) as archive:
        members = {name: archive.read(name) for name in archive.namelist()}
    config = json.loads(members["config.json"])
    for layer in config["config"]["layers"]:
        if layer["config"]["name"] == layer_name:
            layer["config"]["vocabulary"] = None
    members["config.json"] = json.dumps(config).encode()
    members[f"assets/layers/{layer_name}/vocabulary.txt"] = "\n".join(vocabulary).encode()
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)


def test_a_keras_files_adapted_lookup_vocabulary_is_read_from_its_asset(tmp_path):
    """Keras keeps an adapted lookup layer's vocabulary only in an asset file: before tripod
    read it, such a file loaded with a vocabulary of the OOV token alone, silently."""
    lookup = layers.IntegerLookup(name="integer_lookup")
    lookup.adapt(np.array([5, 7, 7, 9]))
    model = tripod.Sequential([tripod.Input((1,), dtype="int64"), lookup])
    path = str(tmp_path / "lookup.keras")
    model.save(path)
    _as_keras_writes_it(path, "integer_lookup", ["-1", "7", "9", "5"])
    loaded = saving.load_model(path).layers[0]
    assert loaded.get_vocabulary() == [-1, 7, 9, 5]
    assert ops.convert_to_numpy(loaded(np.array([[9], [4]]))).tolist() == [[2], [0]]


@saving.register_keras_serializable(package="tests_assets")
class FileVocabulary(Vocabulary):
    """Reads its vocabulary from a file path, which safe mode refuses as KerasHub's tokenizers
    do (the path could name any file): allowed for the archive's own assets."""

    def load_assets(self, folder):
        if serialization.in_safe_mode():
            raise ValueError("refused: a vocabulary file while in safe mode")
        super().load_assets(folder)


def test_assets_read_from_the_archive_are_outside_safe_mode(tmp_path):
    """Safe mode holds while the config is read, not while the archive's assets are."""
    model = tripod.Sequential([tripod.Input((2,)), FileVocabulary(name="vocab")])
    model.layers[0].words = ["a", "b"]
    path = str(tmp_path / "model.keras")
    model.save(path)
    assert saving.load_model(path).layers[0].words == ["a", "b"]
    assert serialization.in_safe_mode()  # and holds again afterwards
