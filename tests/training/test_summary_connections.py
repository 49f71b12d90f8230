"""`summary()`'s "Connected to" column: shown for functional graphs that are not a plain chain."""

import tripod as keras
from tripod import layers


def summary_lines(model):
    lines = []
    model.summary(print_fn=lines.append)
    return lines


def row(lines, name):
    """The cells of the table row of layer `name`."""
    return [cell.strip() for cell in next(l for l in lines if l.startswith(f"{name} (")).split("│")]


def test_a_merge_shows_each_layer_s_inputs():
    zeta, alpha = keras.Input((3,), name="zeta"), keras.Input((2,), name="alpha")
    joined = layers.Concatenate(name="cat")([zeta, alpha])
    model = keras.Model([zeta, alpha], layers.Dense(4, name="head")(joined))
    lines = summary_lines(model)
    header = [cell.strip() for cell in lines[2].split("│")]
    assert header == ["Layer (type)", "Output Shape", "Param #", "Connected to"]
    assert row(lines, "zeta")[3] == "-"
    assert row(lines, "cat")[3] == "zeta[0][0], alpha[0][0]"
    assert row(lines, "head") == ["head (Dense)", "(None, 4)", "24", "cat[0][0]"]


def test_a_shared_layer_lists_every_call_with_its_node_index():
    x = keras.Input((2,), name="x")
    shared = layers.Dense(2, name="shared")
    model = keras.Model(x, layers.Add(name="add")([shared(x), shared(shared(x))]))
    lines = summary_lines(model)
    assert row(lines, "shared")[3] == "x[0][0], x[0][0], shared[1][0]"
    assert row(lines, "add")[3] == "shared[0][0], shared[2][0]"


def test_the_column_comes_before_trainable():
    zeta, alpha = keras.Input((2,), name="zeta"), keras.Input((2,), name="alpha")
    model = keras.Model([zeta, alpha], layers.Add(name="add")([zeta, alpha]))
    lines = []
    model.summary(print_fn=lines.append, show_trainable=True)
    assert row(lines, "add")[3:] == ["zeta[0][0], alpha[0][0]", "Y"]


def test_a_plain_chain_has_no_connected_column():
    x = keras.Input((3,), name="x")
    hidden = layers.Dense(2, name="d1")(x)
    chained = keras.Model(x, [hidden, layers.Dense(2, name="d2")(hidden)])
    stacked = keras.Sequential([keras.Input((3,)), layers.Dense(2)])
    for model in (chained, stacked):
        assert not any("Connected to" in line for line in summary_lines(model))
