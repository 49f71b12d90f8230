"""`tripod.utils.legacy`: Keras's legacy {"class_name", "config"} configs, as libraries written for
tf.keras (KerasTuner) read and write them."""

import pytest

import tripod

legacy = tripod.utils.legacy


class Box:
    def __init__(self, size=1):
        self.size = size

    def get_config(self):
        return {"size": self.size}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def test_round_trip_through_module_and_custom_objects():
    config = legacy.serialize_keras_object(Box(3))
    assert config == {"class_name": "Box", "config": {"size": 3}}
    for lookup in ({"module_objects": {"Box": Box}}, {"custom_objects": {"Box": Box}}):
        rebuilt = legacy.deserialize_keras_object(config, **lookup)
        assert isinstance(rebuilt, Box) and rebuilt.size == 3
    # KerasTuner passes (config, custom_objects, module_objects) positionally
    assert legacy.deserialize_keras_object(config, None, {"Box": Box}).size == 3


def test_names_tripod_objects_and_functions():
    dense = legacy.deserialize_keras_object(legacy.serialize_keras_object(tripod.layers.Dense(2)))
    assert isinstance(dense, tripod.layers.Dense) and dense.units == 2
    assert legacy.serialize_keras_object(len) == "len"
    assert legacy.deserialize_keras_object("relu") is tripod.activations.relu
    assert isinstance(legacy.deserialize_keras_object("Box", {"Box": Box}), Box)  # a class: made
    assert legacy.serialize_keras_object(None) is None
    assert legacy.deserialize_keras_object(None) is None


def test_clear_errors():
    with pytest.raises(ValueError, match="Unknown hyperparameter: 'Int'"):
        legacy.deserialize_keras_object(
            {"class_name": "Int", "config": {}}, printable_module_name="hyperparameter"
        )
    with pytest.raises(ValueError, match="Improper config format for object"):
        legacy.deserialize_keras_object({"config": {}})
    with pytest.raises(ValueError, match="no get_config\\(\\) and no __name__"):
        legacy.serialize_keras_object(3)
