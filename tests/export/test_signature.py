"""The input signature an export takes from a model or from `input_signature`."""

import numpy as np
import pytest

import tripod
from tests.export.models import MODELS
from tripod import layers
from tripod.export.model_export import serving_function
from tripod.export.serving import TensorSpec
from tripod.export.signature import model_inputs, specs_like


def _described(structure):
    return tripod.tree.map_structure(lambda s: (s.name, s.shape, s.dtype), structure)


def test_functional_inputs_keep_their_names_shapes_and_dtypes():
    model, _ = MODELS["functional_list"]()
    assert _described(model_inputs(model)) == [
        ("left", (None, 4), "float32"),
        ("right", (None, 2), "float32"),
    ]


def test_dict_inputs_are_named_by_their_keys():
    model, _ = MODELS["functional_dict"]()
    assert _described(model_inputs(model)) == {
        "features": ("features", (None, 4), "float32"),
        "tokens": ("tokens", (None, None), "int32"),
    }


def test_a_built_subclassed_model_takes_its_build_shape_with_any_batch():
    model, _ = MODELS["subclassed"]()
    assert _described(model_inputs(model)) == ("inputs", (None, 4), "float32")


def test_an_unbuilt_model_without_inputs_asks_for_input_signature():
    model = tripod.Sequential([layers.Dense(2)])
    with pytest.raises(ValueError, match="input_signature"):
        serving_function(model)


def test_input_signature_accepts_input_specs_arrays_and_dicts():
    signature = [tripod.InputSpec(shape=(None, 3), dtype="int32")]
    assert _described(_from(signature)) == ("inputs", (None, 3), "int32")
    array = np.zeros((7, 2, 5), "float32")
    assert _described(_from([array])) == ("inputs", (None, 2, 5), "float32")
    both = {"a": np.zeros((1, 2), "float32"), "b": tripod.KerasTensor((None, 4), name="bee")}
    assert _described(_from(both)) == {
        "a": ("a", (None, 2), "float32"),
        "b": ("bee", (None, 4), "float32"),
    }


def _from(signature):
    return model_inputs(None, signature)


def test_repeated_names_are_made_unique():
    specs = specs_like([TensorSpec("x", (None,), "float32"), TensorSpec("x", (None,), "float32")])
    assert [s.name for s in specs] == ["x", "x_1"]


def test_a_bad_signature_entry_is_named():
    with pytest.raises(TypeError, match="input_signature entry 'inputs'"):
        specs_like("not a spec")


def test_dynamic_axes_and_trace_examples():
    spec = TensorSpec("tokens", (None, None, 4), "int32")
    assert spec.dynamic_axes() == {0: "batch", 1: "tokens_1"}
    example = spec.example()
    assert example.shape == (2, 3, 4) and example.dtype == np.int32 and not example.any()


def test_output_names_come_from_output_layers_and_dict_keys():
    assert serving_function(MODELS["functional_list"]()[0]).output_names == ["first", "second"]
    assert serving_function(MODELS["functional_dict"]()[0]).output_names == ["label", "score"]
    assert serving_function(MODELS["sequential"]()[0]).output_names == ["probabilities"]
    assert serving_function(MODELS["subclassed"]()[0]).output_names == ["output_0"]


def test_serving_function_outputs_match_the_model():
    model, inputs = MODELS["functional_dict"]()
    endpoint = serving_function(model)
    flat = [inputs["features"], inputs["tokens"]]
    got = [tripod.ops.convert_to_numpy(y) for y in endpoint(*flat)]
    want = model.predict(inputs, verbose=0)
    np.testing.assert_allclose(got[0], want["label"], rtol=1e-6)
    np.testing.assert_allclose(got[1], want["score"], rtol=1e-6)
    values = [np.zeros(v.shape, v.dtype) for v in endpoint.variables]
    zeros = endpoint.stateless(values, *flat)
    np.testing.assert_allclose(tripod.ops.convert_to_numpy(zeros[1]), 0.0)
    np.testing.assert_allclose(
        tripod.ops.convert_to_numpy(endpoint(*flat)[1]), want["score"], rtol=1e-6
    )


def test_output_names_repeating_an_output_or_an_input_are_made_unique():
    x = tripod.Input((3,), name="x")
    dense = layers.Dense(2, name="dense")(x)
    model = tripod.Model(x, [dense, dense, layers.Identity(name="x")(x)])
    assert serving_function(model).output_names == ["dense", "dense_1", "x_1"]
