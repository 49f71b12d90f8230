"""`tripod.legacy.saving`: Keras 2 object configs, as `keras.legacy.saving` reads and writes
them (the functions `tripod.utils.legacy` has)."""

import tripod
from tripod import legacy


def test_legacy_saving_round_trips_a_layer_through_its_keras_2_config():
    layer = tripod.layers.Dense(3, activation="relu", name="d")
    config = legacy.saving.serialize_keras_object(layer)
    assert config["class_name"] == "Dense" and config["config"]["units"] == 3
    back = legacy.saving.deserialize_keras_object(config)
    assert isinstance(back, tripod.layers.Dense) and back.get_config() == layer.get_config()
    assert legacy.saving.serialize_keras_object is tripod.utils.legacy.serialize_keras_object
    from tripod.legacy.saving import deserialize_keras_object  # the import path works too

    assert deserialize_keras_object is legacy.saving.deserialize_keras_object
