"""`Sequential`: a plain stack of layers, each feeding the next."""

import contextlib

from tripod.backends.common import name_scope
from tripod.backends.common.keras_tensor import KerasTensor
from tripod.layers.input_layer import InputLayer
from tripod.layers.layer import Layer
from tripod.saving import serialization
from tripod.training.model import Model


class Sequential(Model):
    """A linear stack of layers, each called on the previous one's output.

    Start the stack with `tripod.Input(shape)` to build it at once (its weights and `summary()`
    exist from the start); without one it builds on its first call or `fit`.

    Args:
        layers: a list of layers (the first may be an `Input`), appended in order; default none.
        trainable: bool, whether `fit` updates the weights (default True).
        name: the model's name (str); default a unique "sequential..." name.

    Raises:
        TypeError: an entry is not a layer.
        ValueError: two layers share a name, or an `Input` comes after the first position.

    Examples:
        >>> model = tripod.Sequential([
        ...     tripod.Input((4,)),
        ...     tripod.layers.Dense(8, activation="relu"),
        ...     tripod.layers.Dense(1),
        ... ])
        >>> model.add(tripod.layers.Dense(2))
        >>> len(model.layers), model.count_params()
        (3, 53)
        >>> model.predict(np.zeros((5, 4)), verbose=0).shape
        (5, 2)
    """

    def __init__(self, layers=None, trainable=True, name=None):
        super().__init__(trainable=trainable, name=name)
        self._stack = []
        self._input_layer = None
        self._build_input_shape = None
        self._propagates_masks = False
        for layer in layers or []:
            self.add(layer, rebuild=False)
        self._maybe_rebuild()

    @property
    def _layers(self):
        """The layers of the stack (the input layer is not among them): what `layers` lists."""
        return list(self._stack)

    def add(self, layer, rebuild=True):
        """Append a layer (or, as the first entry, an `Input`) to the stack.

        Args:
            layer: a `Layer`, or a symbolic tensor from `tripod.Input`.
            rebuild: bool, build the stack again now when it has an input shape.

        Raises:
            TypeError: `layer` is not a layer.
            ValueError: the name is taken, or an `Input` comes after the first position.
        """
        if isinstance(layer, KerasTensor) and layer._keras_history is not None:
            layer = layer._keras_history[0]
        if not isinstance(layer, Layer):
            raise TypeError(f"Sequential.add expects a Layer, received {layer!r}.")
        if isinstance(layer, InputLayer):
            if self._input_layer is not None or self._stack:
                raise ValueError("Sequential: an InputLayer can only be the first layer.")
            self._input_layer = layer
        else:
            if not self._stack and self._input_layer is None and layer._input_shape_arg is not None:
                self._input_layer = InputLayer(batch_shape=layer._input_shape_arg)
            if any(existing.name == layer.name for existing in self._stack):
                raise ValueError(
                    f"Sequential: all layers need unique names; '{layer.name}' is taken."
                )
            self._stack.append(layer)
        self.built = False
        if rebuild:
            self._maybe_rebuild()

    def pop(self, rebuild=True):
        """Remove and return the last layer."""
        if not self._stack:
            raise TypeError("Sequential.pop: there are no layers to remove.")
        layer = self._stack.pop()
        self.built = False
        if rebuild:
            self._maybe_rebuild()
        return layer

    def _maybe_rebuild(self):
        if self._input_layer is not None and self._stack:
            self.build(self._input_layer.batch_shape)

    def build(self, input_shape=None):
        """Build every layer by passing a symbolic input of `input_shape` down the stack."""
        if input_shape is None:
            raise ValueError(f"Sequential '{self.name}' needs an input shape to build.")
        input_shape = tuple(input_shape)
        if self._input_layer is None:
            self._input_layer = InputLayer(batch_shape=(None,) + input_shape[1:])
        x = self._input_layer.output
        for layer in self._stack:
            x = layer(x)
        self._propagates_masks = any(
            type(layer).compute_mask is not Layer.compute_mask for layer in self._stack
        )
        self._build_input_shape = tuple(self._input_layer.batch_shape)
        self.built = True

    def call(self, inputs, training=None, mask=None):
        x = self._standardize_input(inputs)
        if not self._propagates_masks:
            for layer in self._stack:
                x = layer(x)
            return x
        for layer in self._stack:
            kwargs = {"mask": mask} if mask is not None and layer._call_has_mask_arg else {}
            y = layer(x, **kwargs)
            mask = layer.compute_mask(x, mask)
            x = y
        return x

    def _standardize_input(self, inputs):
        """`inputs`, or the tensor of a one-entry dict keyed by the name of the stack's `Input`
        (a stack without an Input hands a dict to its first layer, as Keras 3 does)."""
        if not isinstance(inputs, dict) or self._input_layer is None:
            return inputs
        name = self._input_layer.name
        if list(inputs) != [name]:
            raise ValueError(
                f"Sequential '{self.name}' expects a dict of inputs with the one key {[name]} (the "
                f"name of its Input); received keys {list(inputs)}."
            )
        return inputs[name]

    def compute_output_spec(self, inputs, training=None, mask=None):
        x = self._standardize_input(inputs)
        for layer in self._stack:
            x = layer.compute_output_spec(x)
        return x

    @property
    def input_shape(self):
        return self._build_input_shape

    @property
    def input(self):
        """The symbolic input of the stack (once it has an input shape)."""
        if self._input_layer is None:
            raise AttributeError(
                f"Sequential '{self.name}' has no input yet: give it an Input or build it."
            )
        return self._input_layer.output

    @property
    def inputs(self):
        """The symbolic inputs, as a list."""
        return [self.input]

    @property
    def outputs(self):
        """The symbolic outputs, as a list."""
        return [self.output]

    @property
    def output(self):
        """The symbolic output of the stack's last layer (once built)."""
        if not self.built or not self._stack:
            raise AttributeError(f"Sequential '{self.name}' is not built, so it has no output yet.")
        return self._stack[-1]._inbound_nodes[-1].outputs

    @property
    def output_shape(self):
        nodes = self._stack[-1]._inbound_nodes if self._stack else []
        return nodes[-1].outputs.shape if nodes else None

    def get_build_config(self):
        if self._build_input_shape is None:
            return None
        return {"input_shape": list(self._build_input_shape)}

    def build_from_config(self, config):
        if config and config.get("input_shape") and not self.built:
            self.build(tuple(config["input_shape"]))

    def get_config(self):
        layers = (
            [serialization.serialize_keras_object(self._input_layer)] if self._input_layer else []
        )
        layers += [serialization.serialize_keras_object(layer) for layer in self._stack]
        return {
            "name": self.name,
            "trainable": self.trainable,
            "dtype": serialization.serialize_keras_object(self.dtype_policy),
            "layers": layers,
            "build_input_shape": list(self._build_input_shape) if self._build_input_shape else None,
        }

    @classmethod
    def from_config(cls, config, custom_objects=None):
        # Layers built as they load get the paths they had under the saved model's name
        # (`sequential/dense/kernel`), so a path-keyed OptimizerMap routes them the same way.
        with contextlib.ExitStack() as scope:
            if config.get("name"):
                scope.enter_context(name_scope.name_scope(config["name"]))
            layers = [
                serialization.deserialize_keras_object(c, custom_objects) for c in config["layers"]
            ]
        model = cls(layers=layers, name=config.get("name"), trainable=config.get("trainable", True))
        if (
            config.get("dtype") is not None
        ):  # the model's own policy (a mixed one compiles with loss scaling)
            model.dtype_policy = config["dtype"]
        shape = config.get("build_input_shape")
        if shape and not model.built:
            model.build(tuple(shape))
        return model
