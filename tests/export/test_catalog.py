"""The export coverage catalog (tests/export/catalog.py) has a case for every built-in layer,
so docs/export.md's table has no missing row."""

from tests.export import catalog


def test_every_public_layer_has_a_case():
    assert catalog.missing_layers() == []


def test_every_case_names_a_public_layer():
    assert catalog.unknown_cases() == []
