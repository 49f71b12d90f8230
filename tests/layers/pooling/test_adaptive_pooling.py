"""AdaptiveAveragePooling / AdaptiveMaxPooling 1D-3D against nested-loop NumPy windows."""

import numpy as np
import pytest

from tests.layers.convolution import reference as ref
from tests.layers.convolution.helpers import assert_close
from tests.layers.harness import random_input, run_layer_test, to_numpy
from tripod import layers

AVG = {
    1: layers.AdaptiveAveragePooling1D,
    2: layers.AdaptiveAveragePooling2D,
    3: layers.AdaptiveAveragePooling3D,
}
MAX = {
    1: layers.AdaptiveMaxPooling1D,
    2: layers.AdaptiveMaxPooling2D,
    3: layers.AdaptiveMaxPooling3D,
}
CASES = [(1, (7,), 3), (1, (4,), 6), (2, (5, 6), (2, 4)), (3, (4, 5, 3), (3, 2, 2))]


@pytest.mark.parametrize("kind", ["max", "average"])
@pytest.mark.parametrize("data_format", ["channels_last", "channels_first"])
@pytest.mark.parametrize("rank,spatial,output_size", CASES)
def test_matches_nested_loop_windows(rank, spatial, output_size, data_format, kind):
    x = random_input((2,) + spatial + (3,))
    layer = (MAX if kind == "max" else AVG)[rank](output_size, data_format=data_format)
    x_in = x if data_format == "channels_last" else ref.to_channels_first(x)
    size = (output_size,) * rank if isinstance(output_size, int) else output_size
    expected = ref.adaptive_pool(x, size, kind)
    if data_format == "channels_first":
        expected = ref.to_channels_first(expected)
    assert_close(to_numpy(layer(x_in)), expected, atol=1e-5)
    assert tuple(layer.compute_output_shape(x_in.shape)) == expected.shape


@pytest.mark.parametrize("classes", [MAX, AVG])
@pytest.mark.parametrize("rank", [1, 2, 3])
def test_layer_contract(classes, rank):
    run_layer_test(
        classes[rank],
        {"output_size": 2},
        (2,) + (5,) * rank + (3,),
        expected_output_shape=(2,) + (2,) * rank + (3,),
        expected_num_trainable_weights=0,
    )


def test_config_and_errors():
    config = layers.AdaptiveMaxPooling3D(2).get_config()
    assert set(config) == {"name", "trainable", "dtype", "output_size", "data_format"}
    assert config["output_size"] == (2, 2, 2)
    with pytest.raises(ValueError, match="output_size must be"):
        layers.AdaptiveAveragePooling2D((2, 2, 2))
    with pytest.raises(ValueError, match="output_size must be"):
        layers.AdaptiveAveragePooling1D(0)
    with pytest.raises(ValueError, match=r"layer 'a'.*expected ndim=4.*\(1, 4, 4\)"):
        layers.AdaptiveMaxPooling2D(2, name="a")(np.zeros((1, 4, 4), "float32"))
    assert layers.AdaptiveAveragePooling2D(3).compute_output_shape((None, 8, None, 2)) == (
        None,
        3,
        3,
        2,
    )
