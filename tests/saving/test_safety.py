"""Crafted malicious and corrupt files: each raises a clear error naming the problem, and
nothing in them runs."""

import ast
import json
import pathlib
import sys
import zipfile

import h5py
import numpy as np
import pytest

import tripod
from tests.saving.helpers import sequential_model
from tripod import layers, saving

SAVING = pathlib.Path(saving.__file__).resolve().parent


def _saved(tmp_path, model=None):
    path = tmp_path / "m.keras"
    (model or sequential_model()).save(path)
    return path


def _rewrite(path, members):
    """Write a zip at `path` with `members` (name -> bytes), in order."""
    with zipfile.ZipFile(path, "w") as z:
        for name, data in members.items():
            z.writestr(name, data)


def _members(path):
    with zipfile.ZipFile(path) as z:
        return {name: z.read(name) for name in z.namelist()}


def _with_config(tmp_path, edit):
    path = _saved(tmp_path)
    members = _members(path)
    config = json.loads(members["config.json"])
    edit(config)
    members["config.json"] = json.dumps(config).encode()
    _rewrite(path, members)
    return path


def test_truncated_zip(tmp_path):
    path = _saved(tmp_path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(ValueError, match="truncated or corrupt"):
        saving.load_model(path)


def test_truncated_weights_member(tmp_path):
    path = _saved(tmp_path)
    members = _members(path)
    members["model.weights.h5"] = members["model.weights.h5"][:200]
    _rewrite(path, members)
    with pytest.raises(ValueError, match="model.weights.h5.*(HDF5|truncated)"):
        saving.load_model(path)


@pytest.mark.parametrize("member", ["config.json", "model.weights.h5"])
def test_missing_member(tmp_path, member):
    path = _saved(tmp_path)
    members = _members(path)
    del members[member]
    _rewrite(path, members)
    with pytest.raises(ValueError, match=f"no '{member}' member"):
        saving.load_model(path)


def test_config_not_json(tmp_path):
    path = _saved(tmp_path)
    members = _members(path)
    members["config.json"] = b"{not json"
    _rewrite(path, members)
    with pytest.raises(ValueError, match="config.json is not valid JSON"):
        saving.load_model(path)


def test_wrong_shapes(tmp_path):
    tripod.Sequential([tripod.Input((5,)), layers.Dense(6), layers.Dense(2)]).save_weights(
        tmp_path / "w.weights.h5"
    )
    other = tripod.Sequential([tripod.Input((5,)), layers.Dense(7), layers.Dense(2)])
    with pytest.raises(ValueError, match=r"'layers/dense/vars'.*shape \(5, 7\).*shape \(5, 6\)"):
        other.load_weights(tmp_path / "w.weights.h5")


def test_variable_count_mismatch(tmp_path):
    tripod.Sequential([tripod.Input((5,)), layers.Dense(2)]).save_weights(tmp_path / "w.weights.h5")
    other = tripod.Sequential([tripod.Input((5,)), layers.Dense(2, use_bias=False)])
    with pytest.raises(ValueError, match="has 1 variables, but the file holds 2"):
        other.load_weights(tmp_path / "w.weights.h5")


def test_extra_layers_in_file(tmp_path):
    tripod.Sequential([tripod.Input((5,)), layers.Dense(2), layers.Dense(2)]).save_weights(
        tmp_path / "w.weights.h5"
    )
    other = tripod.Sequential([tripod.Input((5,)), layers.Dense(2)])
    with pytest.raises(ValueError, match=r"layers/dense_1/vars.*architecture differs"):
        other.load_weights(tmp_path / "w.weights.h5")


def test_skip_mismatch_warns_instead(tmp_path):
    tripod.Sequential([tripod.Input((5,)), layers.Dense(6), layers.Dense(2)]).save_weights(
        tmp_path / "w.weights.h5"
    )
    other = tripod.Sequential([tripod.Input((5,)), layers.Dense(7), layers.Dense(2)])
    with pytest.warns(UserWarning, match="Skipping"):
        other.load_weights(tmp_path / "w.weights.h5", skip_mismatch=True)


def test_unknown_class(tmp_path):
    def edit(config):
        config["config"]["layers"][1]["class_name"] = "TotallyUnknownLayer"

    with pytest.raises(ValueError, match="Could not locate class 'TotallyUnknownLayer'"):
        saving.load_model(_with_config(tmp_path, edit))


@pytest.mark.parametrize(
    "target",
    [
        ("tests.saving.evil_payload", "Dense"),  # a built-in's name under a foreign module
        ("os", "system"),
        ("subprocess", "Popen"),
        ("builtins", "eval"),
    ],
)
def test_module_injection(tmp_path, monkeypatch, target):
    marker = tmp_path / "imported"
    monkeypatch.setenv("TRIPOD_EVIL_MARKER", str(marker))
    module, class_name = target

    def edit(config):
        config["config"]["layers"][1].update(
            module=module, class_name=class_name, registered_name=None
        )

    with pytest.raises(ValueError, match=f"Could not locate class '{class_name}'.*{module}"):
        saving.load_model(_with_config(tmp_path, edit))
    assert "tests.saving.evil_payload" not in sys.modules and not marker.exists()


def test_function_injection(tmp_path):
    def edit(config):
        dense = config["config"]["layers"][1]["config"]
        dense["activation"] = {
            "module": "os",
            "class_name": "function",
            "config": "system",
            "registered_name": "function",
        }

    with pytest.raises(ValueError, match="Could not locate class 'system'"):
        saving.load_model(_with_config(tmp_path, edit))


def test_lambda_with_code_needs_unsafe_mode(tmp_path):
    marker = tmp_path / "ran"
    model = tripod.Sequential(
        [
            tripod.Input((3,)),
            layers.Lambda(lambda x, path=str(marker): (open(path, "w").close(), x * 2.0)[1]),
        ]
    )
    model.save(tmp_path / "l.keras")
    marker.unlink()
    with pytest.raises(ValueError, match="safe_mode=False"):
        saving.load_model(tmp_path / "l.keras")
    assert not marker.exists()
    loaded = saving.load_model(tmp_path / "l.keras", safe_mode=False)
    np.testing.assert_allclose(tripod.ops.convert_to_numpy(loaded(np.ones((1, 3), "float32"))), 2.0)


@pytest.mark.parametrize(
    "name", ["../escape.txt", "/abs/path.json", "a/../../b", "c:\\evil", "x\\..\\y"]
)
def test_path_traversal_member(tmp_path, name):
    path = _saved(tmp_path)
    members = _members(path)
    members[name] = b"boo"
    _rewrite(path, members)
    with pytest.raises(ValueError, match="could escape a folder"):
        saving.load_model(path)
    assert not (tmp_path.parent / "escape.txt").exists()


def test_duplicate_member(tmp_path):
    path = _saved(tmp_path)
    members = _members(path)
    with pytest.warns(UserWarning), zipfile.ZipFile(path, "a") as z:
        z.writestr("config.json", members["config.json"])
    with pytest.raises(ValueError, match="twice"):
        saving.load_model(path)


def test_decompression_bomb(tmp_path):
    path = _saved(tmp_path)
    members = _members(path)
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as z:
        z.writestr("config.json", members["config.json"])
        z.writestr("model.weights.h5", b"\0" * (64 * 1024**2))
    with pytest.raises(ValueError, match="decompression bomb"):
        saving.load_model(path)


def _weights(tmp_path):
    model = tripod.Sequential([tripod.Input((5,)), layers.Dense(2)])
    model.save_weights(tmp_path / "w.weights.h5")
    return model, tmp_path / "w.weights.h5"


def test_hdf5_external_link(tmp_path):
    model, path = _weights(tmp_path)
    with h5py.File(tmp_path / "other.h5", "w") as other:
        other["kernel"] = np.zeros((5, 2), "float32")
    with h5py.File(path, "a") as f:
        del f["layers/dense/vars/0"]
        f["layers/dense/vars/0"] = h5py.ExternalLink(str(tmp_path / "other.h5"), "/kernel")
    with pytest.raises(ValueError, match="external link"):
        model.load_weights(path)


def test_hdf5_soft_link(tmp_path):
    model, path = _weights(tmp_path)
    with h5py.File(path, "a") as f:
        f["layers/dense/vars/extra"] = h5py.SoftLink("/layers/dense/vars/1")
    with pytest.raises(ValueError, match="soft link"):
        model.load_weights(path)


def test_hdf5_virtual_dataset(tmp_path):
    model, path = _weights(tmp_path)
    with h5py.File(tmp_path / "source.h5", "w") as source:
        source["data"] = np.zeros((5, 2), "float32")
    layout = h5py.VirtualLayout(shape=(5, 2), dtype="float32")
    layout[:] = h5py.VirtualSource(str(tmp_path / "source.h5"), "data", shape=(5, 2))
    with h5py.File(path, "a") as f:
        del f["layers/dense/vars/0"]
        f["layers/dense/vars"].create_virtual_dataset("0", layout)
    with pytest.raises(ValueError, match="virtual dataset"):
        model.load_weights(path)


def test_hdf5_non_numeric_dataset(tmp_path):
    model, path = _weights(tmp_path)
    with h5py.File(path, "a") as f:
        del f["layers/dense/vars/1"]
        f["layers/dense/vars"].create_dataset(
            "1", data=np.array([b"x", b"y"], dtype=object), dtype=h5py.string_dtype()
        )
    with pytest.raises(ValueError, match="must be numeric"):
        model.load_weights(path)


def test_corrupt_weights_file(tmp_path):
    model, path = _weights(tmp_path)
    path.write_bytes(path.read_bytes()[:300])
    with pytest.raises(ValueError, match="not a readable HDF5 file"):
        model.load_weights(path)


def test_sharded_index_cannot_name_other_folders(tmp_path):
    model, _ = _weights(tmp_path)
    (tmp_path / "w.weights.json").write_text(
        json.dumps({"weight_map": {"/layers/dense/vars": ["../w.weights.h5"]}})
    )
    with pytest.raises(ValueError, match="not a plain file name"):
        model.load_weights(tmp_path / "w.weights.json")


def test_no_pickle_anywhere_in_saving():
    for path in SAVING.rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                assert all(
                    a.name.split(".")[0] not in ("pickle", "cloudpickle", "dill")
                    for a in node.names
                ), path
            if isinstance(node, ast.ImportFrom):
                assert (node.module or "").split(".")[0] not in ("pickle", "cloudpickle", "dill"), (
                    path
                )
        assert "allow_pickle=True" not in path.read_text(), path


def test_weights_file_is_not_a_model(tmp_path):
    _, path = _weights(tmp_path)
    with pytest.raises(ValueError, match="holds only weights"):
        saving.load_model(path)


def test_folder_with_symlink_is_refused(tmp_path):
    model = sequential_model()
    model.save(tmp_path / "m.keras", zipped=False)
    config = tmp_path / "m.keras" / "config.json"
    real = tmp_path / "real.json"
    real.write_bytes(config.read_bytes())
    config.unlink()
    config.symlink_to(real)
    with pytest.raises(ValueError, match="symbolic link"):
        saving.load_model(tmp_path / "m.keras")
