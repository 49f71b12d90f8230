"""`Pipeline`: preprocessing layers applied in order, as one layer (usable in `tf.data` maps)."""

from tripod.backends.common import tree
from tripod.layers.layer import get_keras_mask
from tripod.layers.preprocessing.data_layer import DataLayer
from tripod.saving import serialization


class Pipeline(DataLayer):
    """Apply `layers` one after the other (images, dicts of images and labels, ...).

    Unlike `Sequential` it is a plain layer that leaves its inputs as they are, so a pipeline of
    data layers stays usable on `tf.Tensor`s in a `tf.data` map whatever the active backend."""

    def __init__(self, layers, name=None):
        super().__init__(name=name, autocast=False)
        self._pipeline_layers = list(layers)

    @property
    def layers(self):
        """The layers, in the order they are applied."""
        return self._pipeline_layers

    def call(self, inputs, training=True, mask=None):
        for layer in self._pipeline_layers:
            kwargs = {}
            if layer._call_has_mask_arg:
                kwargs["mask"] = mask
            if layer._call_has_training_arg and training is not None:
                kwargs["training"] = training
            inputs = layer(inputs, **kwargs)
            mask = tree.map_structure(get_keras_mask, inputs)
        return inputs

    def compute_output_shape(self, input_shape):
        for layer in self._pipeline_layers:
            input_shape = layer.compute_output_shape(input_shape)
        return input_shape

    def get_config(self):
        return {
            "layers": [serialization.serialize_keras_object(x) for x in self._pipeline_layers],
            "name": self.name,
        }

    @classmethod
    def from_config(cls, config):
        layers = config.get("layers")
        if not isinstance(layers, (list, tuple)):
            raise ValueError(  # noqa: TRY004 (Keras raises ValueError)
                "Pipeline.from_config: the config needs 'layers', a list of layer configs, "
                f"received {layers!r}."
            )
        return cls(
            [serialization.deserialize_keras_object(x) for x in layers], name=config.get("name")
        )
