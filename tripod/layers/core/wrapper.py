"""`Wrapper`: the base of layers that wrap another layer (TimeDistributed, Bidirectional, ...)."""

from tripod.layers.layer import Layer
from tripod.saving import serialization


class Wrapper(Layer):
    """The base of layers that wrap another layer (as `TimeDistributed` and `Bidirectional` do).

    It holds the wrapped layer as `self.layer` (its weights are the wrapper's), builds it on
    the first call with the wrapper's input shape, and saves it inside its own config. A
    subclass writes `call` (and, when the shapes differ, `build`).

    Args:
        layer: a `Layer` instance, the layer wrapped.
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        TypeError: `layer` is not a `Layer`.

    Examples:
        >>> class Doubled(tripod.layers.Wrapper):
        ...     def call(self, inputs):
        ...         return 2 * self.layer(inputs)
        >>> doubled = Doubled(tripod.layers.Dense(1, kernel_initializer="ones"))
        >>> print(tripod.ops.convert_to_numpy(doubled(np.array([[1.0, 2.0]]))))
        [[6.]]
        >>> len(doubled.trainable_weights)
        2
    """

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
