"""`Wrapper`: the base of layers that wrap another layer (TimeDistributed, Bidirectional, ...)."""

from tripod.layers.layer import Layer
from tripod.saving import serialization


class Wrapper(Layer):
    """Holds `self.layer`; builds it on first use and saves it inside its own config."""

    def __init__(self, layer, **kwargs):
        if not isinstance(layer, Layer):
            raise TypeError(f"Wrapper: layer must be a Layer instance, received {layer!r}.")
        super().__init__(**kwargs)
        self.layer = layer

    def build(self, input_shape=None):
        if not self.layer.built:
            self.layer.build(input_shape)
            self.layer.built = True
        self.built = True

    def get_config(self):
        return {**super().get_config(), "layer": serialization.serialize_keras_object(self.layer)}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        config["layer"] = serialization.deserialize_keras_object(config["layer"], custom_objects)
        return super().from_config(config)
