"""`tripod.utils.model_to_dot` / `plot_model`: the layer graph as Graphviz, pydot optional."""

import shutil
import sys

import pytest

import tripod


def _functional():
    a = tripod.Input((3,), name="a")
    b = tripod.Input((2,), name="b")
    hidden = tripod.layers.Dense(4, activation="relu", name="hidden")(a)
    joined = tripod.layers.Concatenate(name="joined")([hidden, b])
    return tripod.Model([a, b], tripod.layers.Dense(1, name="out")(joined), name="two_inputs")


def _edges(dot):
    names = {
        node.get_name(): node.get("label").strip('"').split(" ")[0]
        for node in dot.get_nodes()
        if node.get("label")
    }
    return sorted((names[e.get_source()], names[e.get_destination()]) for e in dot.get_edges())


def test_model_to_dot_draws_layers_shapes_and_edges():
    pytest.importorskip("pydot")
    dot = tripod.utils.model_to_dot(_functional(), show_shapes=True, show_layer_activations=True)
    labels = {node.get("label").strip('"') for node in dot.get_nodes() if node.get("label")}
    assert (
        "hidden (Dense)\nInput shape: (None, 3)\nOutput shape: (None, 4)\nActivation: relu"
        in labels
    )
    assert (
        "joined (Concatenate)\nInput shape: [(None, 4), (None, 2)]\nOutput shape: (None, 6)"
        in labels
    )
    assert _edges(dot) == [
        ("a", "hidden"),
        ("b", "joined"),
        ("hidden", "joined"),
        ("joined", "out"),
    ]


def test_model_to_dot_chains_a_sequential_and_hides_names_when_asked():
    pydot = pytest.importorskip("pydot")
    model = tripod.Sequential(
        [tripod.Input((3,)), tripod.layers.Dense(2, name="s1"), tripod.layers.Dense(1, name="s2")]
    )
    assert _edges(tripod.utils.model_to_dot(model)) == [("s1", "s2")]
    cluster = tripod.utils.model_to_dot(
        model, show_layer_names=False, show_trainable=True, subgraph=True
    )
    assert isinstance(cluster, pydot.Cluster)
    assert (
        sorted(n.get("label").strip('"') for n in cluster.get_nodes() if n.get("label"))
        == ["Dense\nTrainable: True"] * 2
    )


def test_model_to_dot_needs_a_built_model():
    pytest.importorskip("pydot")
    with pytest.raises(ValueError, match="not built"):
        tripod.utils.model_to_dot(tripod.Sequential([tripod.layers.Dense(2)]))


def test_plot_model_writes_dot_source(tmp_path):
    pytest.importorskip("pydot")
    path = tmp_path / "model.dot"
    tripod.utils.plot_model(
        _functional(), to_file=str(path), show_shapes=True, show_layer_names=True
    )
    text = path.read_text()
    assert text.startswith("digraph") and "joined (Concatenate)" in text


@pytest.mark.skipif(shutil.which("dot") is not None, reason="Graphviz is installed here")
def test_plot_model_without_graphviz_says_what_to_install(tmp_path):
    pytest.importorskip("pydot")
    # An ImportError, as in Keras 3, so scripts that catch ImportError around plot_model run on.
    with pytest.raises(ImportError, match="Graphviz's `dot` program"):
        tripod.utils.plot_model(_functional(), to_file=str(tmp_path / "model.png"))


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz is not installed here")
def test_plot_model_renders_png(tmp_path):
    pytest.importorskip("pydot")
    path = tmp_path / "model.png"
    tripod.utils.plot_model(_functional(), to_file=str(path))
    assert path.read_bytes().startswith(b"\x89PNG")


def test_missing_pydot_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "pydot", None)
    with pytest.raises(ImportError, match=r"pip install 'tripod\[plot\]'"):
        tripod.utils.model_to_dot(_functional())
