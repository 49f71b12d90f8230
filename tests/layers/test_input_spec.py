"""`InputSpec` checks: each mismatch raises with the layer, the expectation and the shape."""

import re

import numpy as np
import pytest

from tripod.layers.input_spec import InputSpec, assert_input_compatibility

X = np.ones((2, 3), "float32")


@pytest.mark.parametrize(
    "spec, x, message",
    [
        (InputSpec(ndim=3), X, "expected ndim=3, found ndim=2. Full shape received: (2, 3)"),
        (
            InputSpec(max_ndim=1),
            X,
            "expected max_ndim=1, found ndim=2. Full shape received: (2, 3)",
        ),
        (
            InputSpec(min_ndim=3),
            X,
            "expected min_ndim=3, found ndim=2. Full shape received: (2, 3)",
        ),
        (
            InputSpec(axes={2: 3}),
            X,
            "expected an axis 2, found ndim=2. Full shape received: (2, 3)",
        ),
        (
            InputSpec(axes={-1: 4}),
            X,
            "expected axis -1 of the input shape to have value 4, but received input with shape (2, 3)",
        ),
        (InputSpec(shape=(None, 4)), X, "expected shape=(None, 4), found shape=(2, 3)"),
    ],
)
def test_a_mismatch_names_the_layer_what_it_expects_and_the_shape(spec, x, message):
    full = f"Input 0 of layer 'dense' is incompatible with the layer: {message}"
    with pytest.raises(ValueError, match=f"^{re.escape(full)}$"):
        assert_input_compatibility(spec, x, "dense")


def test_matching_inputs_pass():
    assert_input_compatibility(InputSpec(min_ndim=2, axes={-1: 3}), X, "dense")
    assert_input_compatibility(InputSpec(ndim=3, allow_last_axis_squeeze=True), X, "dense")
    assert_input_compatibility(InputSpec(shape=(None, 3)), X, "dense")
    assert_input_compatibility(InputSpec(ndim=2), None, "dense")  # an absent input is not checked


def test_several_inputs_are_checked_in_order():
    specs = [InputSpec(ndim=2), InputSpec(ndim=1)]
    assert_input_compatibility(specs, [X, np.ones(3)], "add")
    with pytest.raises(
        ValueError, match=r"^Input 1 of layer 'add' is incompatible .* expected ndim=1"
    ):
        assert_input_compatibility(specs, [X, X], "add")
    with pytest.raises(
        ValueError, match=r"^Layer 'add' expects 2 input\(s\), but it received 1\.$"
    ):
        assert_input_compatibility(specs, [X], "add")
    assert_input_compatibility([InputSpec(ndim=2), InputSpec(ndim=1, optional=True)], [X], "add")


def test_an_input_without_a_shape_is_a_type_error():
    with pytest.raises(TypeError, match=r"^Input 0 of layer 'dense' is not a tensor: 'text'$"):
        assert_input_compatibility(InputSpec(ndim=2), "text", "dense")
    with pytest.raises(TypeError, match=r"^Input 1 of layer 'add' is not a tensor: 5$"):
        assert_input_compatibility([InputSpec(), InputSpec()], [X, 5], "add")
