"""Every public namespace of tripod is a real module at its public path: `tripod.callbacks` is
tripod/callbacks.py, `tripod.optimizers.schedules` is tripod/optimizers/schedules.py. So the file
tree, go-to-definition and `import` agree, and nothing is aliased in `sys.modules`."""

import importlib
import pathlib
import sys
import types

import pytest

import tripod
from tests.api import keras_api
from tripod.backends import contract

PACKAGE = pathlib.Path(tripod.__file__).resolve().parent

#: tripod's public namespaces: Keras 3's (the sections of keras3_api.txt, written out so the test
#: runs without that file), those it holds without a section of their own, and tripod's own
NAMESPACES = (
    "activations",
    "applications",
    "backend",
    "callbacks",
    "config",
    "constraints",
    "datasets",
    "distillation",
    "distribution",
    "dtype_policies",
    "export",
    "initializers",
    "layers",
    "legacy",
    "legacy.saving",
    "losses",
    "metrics",
    "mixed_precision",
    "models",
    "ops",
    "ops.core",
    "ops.image",
    "ops.linalg",
    "ops.math",
    "ops.nn",
    "ops.numpy",
    "optimizers",
    "optimizers.legacy",
    "optimizers.schedules",
    "preprocessing",
    "preprocessing.image",
    "preprocessing.sequence",
    "quantizers",
    "random",
    "regularizers",
    "saving",
    "testing",
    "tree",
    "utils",
    "utils.bounding_boxes",
    "utils.legacy",
    "visualization",
    "wrappers",
)


def _public_path(name):
    """Where namespace `name` ("optimizers.schedules") must live: a module or a package."""
    base = PACKAGE.joinpath(*name.split("."))
    return {base.with_suffix(".py"), base / "__init__.py"}


@pytest.mark.parametrize("name", NAMESPACES)
def test_a_public_namespace_is_a_real_module_at_its_public_path(name):
    module = importlib.import_module(f"tripod.{name}")
    assert module.__name__ == f"tripod.{name}"
    assert pathlib.Path(module.__file__).resolve() in _public_path(name)
    parent, _, last = f"tripod.{name}".rpartition(".")
    assert getattr(sys.modules[parent], last) is module


def test_every_keras_namespace_is_listed():
    if not keras_api.available():
        pytest.skip("keras3_api.txt is not beside the repository")
    with open(keras_api.API_FILE) as f:
        sections = {
            line[len("## keras.") :].split()[0] for line in f if line.startswith("## keras.")
        }
    assert sections <= set(NAMESPACES)


def _submodules(module):
    """(attribute, module) for each module that public namespace `module` holds."""
    return [
        (attr, value)
        for attr, value in vars(module).items()
        if isinstance(value, types.ModuleType) and not attr.startswith("_")
    ]


@pytest.mark.parametrize("name", NAMESPACES)
def test_a_namespace_holds_its_sub_namespaces_at_their_own_paths(name):
    """`tripod.datasets.mnist` is tripod/datasets/mnist.py, not a module from elsewhere."""
    module = importlib.import_module(f"tripod.{name}")
    elsewhere = [
        f"tripod.{name}.{attr} is {sub.__name__}"
        for attr, sub in _submodules(module)
        if sub.__name__.startswith("tripod") and sub.__name__ != f"tripod.{name}.{attr}"
    ]
    assert not elsewhere


def test_no_module_is_registered_under_another_name():
    aliased = [
        f"sys.modules[{key!r}] is {module.__name__}"
        for key, module in list(sys.modules.items())
        if key.split(".")[0] == "tripod" and getattr(module, "__name__", key) != key
    ]
    assert not aliased


#: thin namespace -> the implementation it re-exports, name for name
THIN = {
    "activations": "tripod.layers.activations",
    "callbacks": "tripod.training.callbacks",
    "losses": "tripod.training.losses",
    "metrics": "tripod.training.metrics",
    "optimizers.schedules": "tripod.training.optimizers.schedules",
    "optimizers.legacy": "tripod.training.optimizers.legacy",
    "legacy.saving": "tripod.saving.legacy_serialization",
    "utils.legacy": "tripod.saving.legacy_serialization",
    "utils.bounding_boxes": "tripod.layers.preprocessing.image.bounding_boxes",
    "random": "tripod.api.random",
}


@pytest.mark.parametrize("name", sorted(THIN))
def test_a_thin_namespace_gives_the_implementations_own_objects(name):
    module = importlib.import_module(f"tripod.{name}")
    implementation = importlib.import_module(THIN[name])
    assert module.__all__, name
    for attr in module.__all__:
        ours = getattr(module, attr)
        if hasattr(implementation, attr):
            assert ours is getattr(implementation, attr), attr
    if hasattr(implementation, "__all__"):
        assert set(implementation.__all__) <= set(module.__all__)


@pytest.mark.parametrize("kind", ["core", "numpy", "nn", "math", "linalg", "image"])
def test_each_ops_namespace_lists_every_contract_op_of_its_kind(kind):
    module = importlib.import_module(f"tripod.ops.{kind}")
    assert set(module.__all__) == set(contract.OPS_BY_KIND[kind])
    assert set(contract.OPS_BY_KIND[kind]) <= set(tripod.ops.__all__) or kind == "image"


def test_the_random_namespace_lists_every_random_op():
    assert set(tripod.random.__all__) == {*contract.OPS_BY_KIND["random"], "SeedGenerator"}


def test_the_old_public_names_still_import():
    from tripod.ops.image import resize
    from tripod.ops.numpy import add
    from tripod.optimizers.schedules import ExponentialDecay

    assert add is tripod.ops.add and resize is tripod.ops.image.resize
    assert tripod.callbacks.EarlyStopping is tripod.training.callbacks.EarlyStopping
    assert ExponentialDecay is tripod.training.optimizers.schedules.ExponentialDecay
