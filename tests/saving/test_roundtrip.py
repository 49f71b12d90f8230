"""save/load of whole models and of weights on the active backend: outputs, optimizer state,
compile config, folders, shards, overwrite and atomic writes."""

import json
import os
import zipfile

import h5py
import numpy as np
import pytest

import tripod
from tests.saving.helpers import (
    assert_same_outputs,
    functional_model,
    inputs_for,
    outputs,
    perturb,
    sequential_model,
)
from tripod import layers, saving
from tripod.backends import config


def _compiled(model):
    model.compile(optimizer=tripod.optimizers.Adam(0.01), loss="mse")
    model.optimizer.build(model.trainable_variables)
    rng = np.random.default_rng(5)
    model.optimizer.iterations.assign(7)
    for v in model.optimizer.variables[2:]:
        v.assign(rng.standard_normal(tuple(v.shape)).astype("float32"))
    return model


def _optimizer_values(model):
    return [np.asarray(v.numpy()) for v in model.optimizer.variables]


@pytest.mark.parametrize("build", [functional_model, sequential_model])
@pytest.mark.parametrize("zipped", [True, False])
def test_save_and_load_model(tmp_path, build, zipped):
    model = _compiled(build())
    perturb(model)
    x = inputs_for(model)
    path = tmp_path / "m.keras"
    model.save(path, zipped=zipped)
    assert path.is_file() == zipped and path.is_dir() == (not zipped)
    loaded = saving.load_model(path)
    assert type(loaded) is type(model)
    assert_same_outputs(outputs(loaded, x), outputs(model, x))
    assert loaded.compiled and type(loaded.optimizer) is type(model.optimizer)
    for a, b in zip(_optimizer_values(loaded), _optimizer_values(model)):
        np.testing.assert_array_equal(a, b)
    assert float(loaded.optimizer.learning_rate.numpy()) == pytest.approx(0.01)


def test_archive_members_and_metadata(tmp_path):
    model = functional_model()
    path = tmp_path / "m.keras"
    saving.save_model(model, path)
    with zipfile.ZipFile(path) as z:
        assert sorted(z.namelist()) == ["config.json", "metadata.json", "model.weights.h5"]
        config = json.loads(z.read("config.json"))
        metadata = json.loads(z.read("metadata.json"))
    assert config["class_name"] == "Functional" and "inbound_nodes" in config["config"]["layers"][2]
    assert metadata["keras_version"].startswith("3.")
    assert "compile_config" not in config or config["compile_config"] is None


def test_load_without_compile(tmp_path):
    model = _compiled(sequential_model())
    model.save(tmp_path / "m.keras")
    loaded = saving.load_model(tmp_path / "m.keras", compile=False)
    assert not loaded.compiled and loaded.optimizer is None


def test_weights_roundtrip(tmp_path):
    model = functional_model()
    perturb(model)
    x = inputs_for(model)
    model.save_weights(tmp_path / "w.weights.h5")
    other = functional_model(seed=9)
    other.load_weights(tmp_path / "w.weights.h5")
    assert_same_outputs(outputs(other, x), outputs(model, x))
    other2 = functional_model(seed=10)
    other2.load_weights(tmp_path / "w.weights.h5")  # load_weights also reads .keras archives
    model.save(tmp_path / "m.keras")
    other2.load_weights(tmp_path / "m.keras")
    assert_same_outputs(outputs(other2, x), outputs(model, x))


def test_weights_name_must_end_in_weights_h5(tmp_path):
    with pytest.raises(ValueError, match=r"\.weights\.h5"):
        sequential_model().save_weights(tmp_path / "w.h5x")
    with pytest.raises(ValueError, match=r"\.keras"):
        sequential_model().save(tmp_path / "m.zip")


def test_sharded_weights(tmp_path):
    tripod.utils.set_random_seed(0)
    model = tripod.Sequential([tripod.Input((30,))] + [tripod.layers.Dense(40) for _ in range(4)])
    perturb(model)
    x = inputs_for(model)
    model.save_weights(tmp_path / "big.weights.h5", max_shard_size=8000 / 1024**3)
    index = json.loads((tmp_path / "big.weights.json").read_text())
    shards = sorted(p.name for p in tmp_path.glob("big_*.weights.h5"))
    assert len(shards) > 1 and shards[0] == "big_00000.weights.h5"
    assert index["metadata"]["total_size"] > 0
    assert sorted({f for files in index["weight_map"].values() for f in files}) == shards
    other = tripod.Sequential([tripod.Input((30,))] + [tripod.layers.Dense(40) for _ in range(4)])
    other.load_weights(tmp_path / "big.weights.json")
    assert_same_outputs(outputs(other, x), outputs(model, x))


def test_shard_larger_than_a_variable_is_required(tmp_path):
    model = tripod.Sequential([tripod.Input((30,)), tripod.layers.Dense(40)])
    with pytest.raises(ValueError, match="max_shard_size"):
        model.save_weights(tmp_path / "w.weights.h5", max_shard_size=100 / 1024**3)
    assert not list(tmp_path.iterdir())  # nothing half-written is left behind


def test_overwrite_false_refuses(tmp_path):
    model = sequential_model()
    model.save(tmp_path / "m.keras")
    with pytest.raises(FileExistsError):
        model.save(tmp_path / "m.keras", overwrite=False)
    with pytest.raises(FileExistsError):
        saving.save_model(model, tmp_path / "m.keras", overwrite=False)


@pytest.mark.parametrize("kind", ["model", "weights", "folder"])
def test_interrupted_save_leaves_previous_file_intact(tmp_path, kind):
    model = sequential_model()
    name = {"model": "m.keras", "weights": "m.weights.h5", "folder": "m.keras"}[kind]
    path = tmp_path / name

    def save():
        if kind == "weights":
            model.save_weights(path)
        else:
            model.save(path, zipped=kind == "model")

    save()
    before = sorted(os.listdir(tmp_path))
    snapshot = path.read_bytes() if path.is_file() else (path / "model.weights.h5").read_bytes()
    dense = model.layers[0]

    def broken(store):
        store["0"] = np.zeros((1,))
        raise RuntimeError("disk full")

    dense.save_own_variables = broken
    with pytest.raises(RuntimeError, match="disk full"):
        save()
    assert sorted(os.listdir(tmp_path)) == before  # no temporary files left
    after = path.read_bytes() if path.is_file() else (path / "model.weights.h5").read_bytes()
    assert after == snapshot


def test_subclassed_model_weights(tmp_path):
    class Net(tripod.Model):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.blocks = [tripod.layers.Dense(4), tripod.layers.Dense(4)]
            self.head = tripod.layers.Dense(2)

        def call(self, x):
            for block in self.blocks:
                x = block(x)
            return self.head(x)

    tripod.utils.set_random_seed(0)
    net = Net()
    x = np.ones((2, 3), "float32")
    expected = tripod.ops.convert_to_numpy(net(x))
    net.save_weights(tmp_path / "n.weights.h5")
    other = Net()
    other(x)
    other.load_weights(tmp_path / "n.weights.h5")
    np.testing.assert_allclose(
        tripod.ops.convert_to_numpy(other(x)), expected, rtol=1e-6, atol=1e-6
    )
    with h5py.File(tmp_path / "n.weights.h5") as f:
        groups = []
        f.visit(groups.append)
    assert "blocks/dense/vars/0" in groups and "blocks/dense_1/vars/0" in groups
    assert "head/vars/0" in groups and "layers" not in groups  # public names sort before `layers`


def test_custom_registered_layer_roundtrip(tmp_path):
    @saving.register_keras_serializable(package="TestSaving")
    class Scale(tripod.layers.Layer):
        def __init__(self, factor=2.0, **kwargs):
            super().__init__(**kwargs)
            self.factor = factor

        def build(self, input_shape):
            self.w = self.add_weight(shape=(input_shape[-1],), initializer="ones")

        def call(self, x):
            return x * self.w * self.factor

        def get_config(self):
            return {**super().get_config(), "factor": self.factor}

    model = tripod.Sequential([tripod.Input((3,)), Scale(3.0), tripod.layers.Dense(1)])
    perturb(model)
    x = inputs_for(model)
    model.save(tmp_path / "c.keras")
    loaded = saving.load_model(tmp_path / "c.keras")
    assert isinstance(loaded.layers[0], Scale) and loaded.layers[0].factor == 3.0
    assert_same_outputs(outputs(loaded, x), outputs(model, x))


@pytest.mark.skipif(config.backend() == "numpy", reason="the numpy backend is inference-only")
def test_training_continues_as_if_never_stopped(tmp_path):
    rng = np.random.default_rng(0)
    x = [
        rng.standard_normal((24, 4)).astype("float32"),
        rng.standard_normal((24, 3)).astype("float32"),
    ]
    y = {
        "cls": rng.standard_normal((24, 3)).astype("float32"),
        "reg": rng.standard_normal((24, 1)).astype("float32"),
    }
    model = functional_model()
    model.compile(optimizer=tripod.optimizers.Adam(0.01), loss="mse")
    model.fit(x, y, batch_size=8, epochs=2, shuffle=False, verbose=0)
    model.save(tmp_path / "t.keras")
    loaded = saving.load_model(tmp_path / "t.keras")
    assert int(loaded.optimizer.iterations.numpy()) == 6
    for m in (model, loaded):
        m.fit(x, y, batch_size=8, epochs=1, shuffle=False, verbose=0)
    for a, b in zip(loaded.weights, model.weights):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-5, atol=1e-5, err_msg=a.path)
    for a, b in zip(_optimizer_values(loaded), _optimizer_values(model)):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)


def test_module_objects_resolve_names_the_registry_lacks():
    """`deserialize_keras_object(config, module_objects=...)`, as KerasHub calls it: the names
    it maps are found (after custom_objects); before, the argument was ignored."""

    class Unregistered(layers.Layer):
        pass

    config = saving.serialize_keras_object(Unregistered(name="u"))
    with pytest.raises(ValueError, match="Unregistered"):
        saving.deserialize_keras_object(config)
    found = saving.deserialize_keras_object(config, module_objects={"Unregistered": Unregistered})
    assert type(found) is Unregistered and found.name == "u"
    with pytest.raises(TypeError, match="unexpected arguments"):
        saving.deserialize_keras_object(config, module_object={})


def test_printable_module_name_names_the_kind_in_the_error():
    """KerasHub's samplers pass `printable_module_name="samplers"` (Keras accepts it); before,
    tripod refused the argument, so a KerasHub CausalLM could not generate."""
    config = {"class_name": "greedy", "config": {}}
    found = saving.deserialize_keras_object(
        config, module_objects={"greedy": _Box}, printable_module_name="samplers"
    )
    assert isinstance(found, _Box)
    # a bare name of a class in module_objects is an instance too (`keras_hub.samplers.get`)
    assert isinstance(
        saving.deserialize_keras_object("greedy", module_objects={"greedy": _Box}), _Box
    )
    with pytest.raises(ValueError, match="Could not locate samplers 'beam'"):
        saving.deserialize_keras_object(
            {"class_name": "beam", "config": {}}, printable_module_name="samplers"
        )


class _Box:
    """A class from a library's own table (module_objects), not registered."""

    @classmethod
    def from_config(cls, config):
        return cls()


@pytest.mark.parametrize(
    "value, written",
    [
        (b"tok\xc3\xa9n", {"class_name": "__bytes__", "config": {"value": "tokén"}}),
        (b"\xff\x00", {"class_name": "__bytes__", "config": {"base64": "/wA="}}),
        (
            slice(1, None, 2),
            {"class_name": "__slice__", "config": {"start": 1, "stop": None, "step": 2}},
        ),
        (Ellipsis, {"class_name": "__ellipsis__", "config": {}}),
    ],
)
def test_bytes_slices_and_ellipsis_are_written_as_keras_writes_them(value, written):
    """Keras writes bytes as UTF-8 text (tripod wrote base64, which Keras read back as other
    bytes); bytes that are not UTF-8, which Keras cannot write, go as base64."""
    assert saving.serialize_keras_object(value) == written
    assert saving.deserialize_keras_object(json.loads(json.dumps(written))) == value
