"""Keras 3 names tripod does not have yet raise an error that says so (tripod/api/missing.py)."""

import importlib
import importlib.util
import pathlib
import re

import pytest

import tripod
from tests.api import keras_api
from tripod.api import missing
from tripod.api.missing_names import MISSING

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "missing_keras_names.py"
NOTICE = (
    "is part of Keras 3 but not in tripod yet "
    "(see docs/differences.md, 'Keras names tripod does not have yet')"
)
MISSING_NAMES = [(namespace, name) for namespace, names in MISSING.items() for name in names]


def _generator():
    """scripts/missing_keras_names.py, loaded as a module."""
    spec = importlib.util.spec_from_file_location("missing_keras_names", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _module(namespace):
    return tripod if namespace == "tripod" else importlib.import_module(namespace)


@pytest.mark.skipif(not keras_api.available(), reason="../shared/keras3_api.txt not found")
def test_the_data_file_lists_what_tripod_lacks_now():
    generated = _generator().missing_table(keras_api.API_FILE)
    assert generated == MISSING, (
        "tripod/api/missing_names.py is stale: run `python scripts/missing_keras_names.py --write`"
    )


@pytest.mark.skipif(not keras_api.available(), reason="../shared/keras3_api.txt not found")
def test_the_table_covers_the_namespaces_tripod_lacks_entirely():
    generator = _generator()
    for section, names in generator.missing_names(keras_api.API_FILE).items():
        if names is None:  # the whole namespace: its parent's table names it
            parent = generator.tripod_name(generator.parent_section(section))
            assert section.rpartition(".")[2] in MISSING.get(parent, ()), section


def test_every_missing_name_raises_the_notice_and_hasattr_is_false():
    wrong = []
    for namespace, name in MISSING_NAMES:
        module = _module(namespace)
        with pytest.raises(AttributeError) as caught:
            getattr(module, name)
        said = str(caught.value).startswith(f"`{namespace}.{name}` {NOTICE}")
        if not said or hasattr(module, name):
            wrong.append(f"{namespace}.{name}: {caught.value}")
    assert not wrong, wrong


def test_a_missing_name_reads_as_keras_users_expect():
    if "OrbaxCheckpoint" not in MISSING["tripod.callbacks"]:
        pytest.skip("tripod has OrbaxCheckpoint now")
    with pytest.raises(
        AttributeError, match=re.escape("`tripod.callbacks.OrbaxCheckpoint` " + NOTICE)
    ):
        tripod.callbacks.OrbaxCheckpoint  # noqa: B018
    assert not hasattr(tripod.callbacks, "OrbaxCheckpoint")


def test_importing_a_missing_namespace_or_name_raises_the_notice():
    for namespace, name in MISSING_NAMES:
        expected = re.escape(f"`{namespace}.{name}` {NOTICE}")
        with pytest.raises(ImportError, match=expected):
            importlib.import_module(f"{namespace}.{name}")  # `import tripod.applications`
        with pytest.raises(ImportError, match=expected):
            __import__(namespace, fromlist=[name])  # what `from namespace import name` runs


def test_other_unknown_names_keep_the_plain_error():
    expected = "module 'tripod.layers' has no attribute 'NotAKerasName'"
    with pytest.raises(AttributeError, match=expected):
        tripod.layers.NotAKerasName  # noqa: B018
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("tripod.not_a_keras_namespace")


def test_existing_names_are_untouched():
    assert hasattr(tripod.layers, "Dense") and hasattr(tripod.utils, "to_categorical")
    utils = __import__("tripod.utils", fromlist=["to_categorical"])
    assert utils.to_categorical is tripod.utils.to_categorical


def test_every_alternative_names_a_missing_name_and_reaches_its_message():
    full_names = [f"{namespace}.{name}" for namespace, name in MISSING_NAMES]
    for pattern, hint in missing.ALTERNATIVES.items():
        matching = [n for n in full_names if missing._matches(pattern, n)]
        assert matching, f"the hint for {pattern!r} matches no missing name: remove it"
        assert missing.message(matching[0]).endswith(f"; {hint}.")


def test_patterns_match_a_whole_name_or_one_wildcard():
    assert missing._matches("tripod.layers.Random*", "tripod.layers.RandomFlip")
    assert not missing._matches("tripod.layers.Random*", "tripod.layers.RandAugment")
    assert missing._matches("tripod.layers.*Spectrogram", "tripod.layers.MelSpectrogram")
    assert not missing._matches("tripod.datasets", "tripod.datasets_extra")
    assert missing.message("tripod.SymbolicScope") == f"`tripod.SymbolicScope` {NOTICE}."
