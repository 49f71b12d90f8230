"""LayoutMap: exact paths, patterns searched in paths, and ambiguity as a clear error."""

import pytest

from tripod.distribution import DeviceMesh, LayoutMap, TensorLayout

MESH = DeviceMesh((1, 2), ("batch", "model"), ["cpu:0", "cpu:1"])


def _map():
    layout_map = LayoutMap(MESH)
    layout_map["dense.*kernel"] = (None, "model")
    layout_map["dense.*bias"] = TensorLayout(("model",))
    return layout_map


def test_patterns_are_searched_in_variable_paths():
    layout_map = _map()
    assert layout_map["dense_1/kernel"].axes == (None, "model")
    assert layout_map["block/dense/bias"].axes == ("model",)
    assert layout_map["conv/kernel"] is None and layout_map.get("conv/kernel") is None
    assert layout_map["dense_1/kernel"].device_mesh is MESH


def test_an_exact_path_wins_over_patterns():
    layout_map = _map()
    layout_map["dense_2/kernel"] = (None, None)
    assert layout_map["dense_2/kernel"].axes == (None, None)


def test_a_path_matching_two_patterns_is_an_error():
    layout_map = _map()
    layout_map["kernel"] = ("model", None)
    with pytest.raises(ValueError, match=r"matches several keys, \['dense.\*kernel', 'kernel'\]"):
        layout_map["dense/kernel"]


def test_the_map_is_a_mapping_of_its_keys():
    layout_map = _map()
    assert list(layout_map) == ["dense.*kernel", "dense.*bias"] and len(layout_map) == 2
    assert "dense.*bias" in layout_map and "dense/bias" not in layout_map
    del layout_map["dense.*bias"]
    assert layout_map["dense/bias"] is None


@pytest.mark.parametrize(
    "value, error, message",
    [(3, TypeError, "expected a TensorLayout"), ((None, "x"), ValueError, "not axes of the mesh")],
)
def test_bad_values_are_clear_errors(value, error, message):
    with pytest.raises(error, match=message):
        LayoutMap(MESH)["k"] = value


def test_a_key_is_set_once():
    layout_map = _map()
    with pytest.raises(ValueError, match="already has a layout"):
        layout_map["dense.*kernel"] = (None, None)
