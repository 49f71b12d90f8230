"""`tripod.backend` (Keras's `keras.backend`): every Keras 3.15 name, and the helpers' values."""

import pytest

import tripod
from tests.api import keras_api
from tripod.backends import config as backend_config


@pytest.mark.skipif(not keras_api.available(), reason="../shared/keras3_api.txt not found")
def test_every_keras_backend_name_exists():
    assert [n for n in keras_api.section("keras.backend") if not hasattr(tripod.backend, n)] == []


def test_get_uid_counts_per_prefix_and_restarts_after_clear_session():
    tripod.backend.clear_session()
    assert [tripod.backend.get_uid("a"), tripod.backend.get_uid("a")] == [1, 2]
    assert tripod.backend.get_uid("b") == 1
    tripod.backend.clear_session()
    assert tripod.backend.get_uid("a") == 1
    tripod.backend.clear_session()


def test_layer_names_and_get_uid_share_one_count():
    tripod.backend.clear_session()
    assert tripod.layers.Dense(1).name == "dense"
    assert tripod.backend.get_uid("dense") == 2  # the Dense above took the first
    assert tripod.layers.Dense(1).name == "dense_2"
    tripod.backend.clear_session()


@pytest.mark.parametrize(
    "dtype, is_float, is_int",
    [
        ("float16", True, False),
        ("bfloat16", True, False),
        ("int8", False, True),
        ("uint32", False, True),
        ("bool", False, False),
        ("complex64", False, False),
    ],
)
def test_dtype_kind_helpers(dtype, is_float, is_int):
    assert tripod.backend.is_float_dtype(dtype) is is_float
    assert tripod.backend.is_int_dtype(dtype) is is_int


def test_setters_change_what_the_getters_report():
    saved = backend_config.floatx(), backend_config.epsilon(), backend_config.image_data_format()
    try:
        tripod.backend.set_floatx("float16")
        tripod.backend.set_epsilon(1e-3)
        tripod.backend.set_image_data_format("channels_first")
        assert tripod.backend.floatx() == "float16"
        assert tripod.backend.epsilon() == 1e-3
        assert tripod.backend.image_data_format() == "channels_first"
    finally:
        tripod.backend.set_floatx(saved[0])
        tripod.backend.set_epsilon(saved[1])
        tripod.backend.set_image_data_format(saved[2])


def test_is_keras_tensor_tells_symbolic_from_concrete():
    assert tripod.backend.is_keras_tensor(tripod.Input((2,)))
    assert not tripod.backend.is_keras_tensor(tripod.ops.ones((2,)))
