"""`Pipeline`: preprocessing layers applied in order, as one layer (usable in `tf.data` maps)."""

from tripod.backends.common import tree
from tripod.layers.layer import get_keras_mask
from tripod.layers.preprocessing.data_layer import DataLayer
from tripod.saving import serialization


class Pipeline(DataLayer):
    """Apply preprocessing layers one after the other, as one layer.

    Unlike `Sequential`, a pipeline is a plain layer that passes its inputs (images, dicts of images
    and labels, ...) through as they are, without casting them, so a pipeline of preprocessing
    layers also runs on `tf.Tensor`s in a `tf.data` map whatever the active backend. The
    `training` flag and masks are passed on to the layers that take them.

    Args:
        layers: list of layers, applied in order.
        name: str, the layer's name (default: one made from the class name).

    Raises:
        ValueError: `from_config` with a config whose "layers" is not a list.

    Examples:
        >>> pipeline = tripod.layers.Pipeline(
        ...     [tripod.layers.CenterCrop(2, 2), tripod.layers.Rescaling(0.5)]
        ... )
        >>> images = np.arange(16.0).reshape(1, 4, 4, 1)
        >>> tripod.ops.convert_to_numpy(pipeline(images))[0, :, :, 0].tolist()
        [[2.5, 3.0], [4.5, 5.0]]
    """

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
