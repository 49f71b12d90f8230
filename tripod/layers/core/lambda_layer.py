"""`Lambda`: wraps an arbitrary function as a layer.

A named built-in or registered function is saved by name. Any other function (a lambda, a
local def) is saved as its marshalled bytecode, in Keras 3's `__lambda__` form, and loading that
code runs it: `from_config` refuses unless unsafe deserialization is enabled (safe_mode=False).
"""

import inspect

from tripod.backends import active
from tripod.backends.common import tree
from tripod.layers.layer import Layer
from tripod.saving import registry, serialization

ops = active()


def _is_named(fn):
    """Whether `fn` loads back by name: a tripod built-in or a registered function."""
    if registry.builtin_module(fn) is not None:
        return True
    return registry.get_registered_object(registry.get_registered_name(fn)) is fn


def _serialize_function(fn):
    if _is_named(fn):
        return serialization.serialize_keras_object(fn)
    return serialization.function_code_config(fn)


def _deserialize_function(config, what, custom_objects=None):
    """A function back from `_serialize_function`'s output; code only outside safe mode."""
    if not isinstance(config, dict):
        return config
    if config.get("class_name") != "__lambda__":
        return serialization.deserialize_keras_object(config, custom_objects)
    return serialization.function_from_code(config, f"the Lambda's `{what}`", custom_objects)


class Lambda(Layer):
    """Wraps a function as a layer: the output is `function(inputs, **arguments)`.

    When `function` takes parameters named `mask` or `training`, the call's mask and training
    flag are passed to it. A Lambda has no weights: write a `Layer` subclass for anything to
    train. See the module docstring for how saving treats the function.

    Args:
        function: callable, the computation, written with `tripod.ops` so that it runs on every
            backend and on symbolic inputs.
        output_shape: the output shape without the batch axis (a tuple), or a callable from
            the input shape to the full output shape; default None, inferred by running
            `function` on symbolic inputs.
        mask: the output mask: a fixed mask, or a callable `(inputs, previous_mask) -> mask`;
            default None, no output mask.
        arguments: dict, extra keyword arguments passed to `function`; default None, none.
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        TypeError: `function` is not callable.

    Examples:
        >>> scale = tripod.layers.Lambda(lambda x, factor: x * factor, arguments={"factor": 2.0})
        >>> print(tripod.ops.convert_to_numpy(scale(np.array([[1.0, 2.0]]))))
        [[2. 4.]]
        >>> total = tripod.layers.Lambda(lambda x: tripod.ops.sum(x, axis=-1, keepdims=True))
        >>> total(tripod.Input((3,))).shape
        (None, 1)
    """

    def __init__(self, function, output_shape=None, mask=None, arguments=None, **kwargs):
        super().__init__(**kwargs)
        if not callable(function):
            raise TypeError(
                f"Lambda '{self.name}': function must be callable, received {function!r}."
            )
        self.function = function
        self.arguments = arguments or {}
        self._output_shape = output_shape
        self.mask = mask
        self.supports_masking = mask is not None
        params = inspect.signature(function).parameters
        self._pass_mask = "mask" in params
        self._pass_training = "training" in params

    def call(self, inputs, mask=None, training=None):
        kwargs = dict(self.arguments)
        if self._pass_mask:
            kwargs["mask"] = mask
        if self._pass_training:
            kwargs["training"] = training
        return self.function(inputs, **kwargs)

    def compute_mask(self, inputs, mask=None):
        if callable(self.mask):
            return self.mask(inputs, mask)
        return self.mask

    def compute_output_spec(self, *args, **kwargs):
        if self._output_shape is None:
            return ops.compute_output_spec(self.call, *args, **kwargs)
        return super().compute_output_spec(*args, **kwargs)

    def compute_output_shape(self, input_shape):
        if self._output_shape is None:
            return super().compute_output_shape(input_shape)
        if callable(self._output_shape):
            return self._output_shape(input_shape)
        batch = tree.flatten(input_shape)[0]  # the first input's batch size
        return (batch,) + tuple(self._output_shape)

    def get_config(self):
        config = {**super().get_config(), "function": _serialize_function(self.function)}
        if self._output_shape is not None:
            value = self._output_shape
            config["output_shape"] = _serialize_function(value) if callable(value) else tuple(value)
        if self.mask is not None:
            config["mask"] = (
                _serialize_function(self.mask)
                if callable(self.mask)
                else serialization.serialize_keras_object(self.mask)
            )
        config["arguments"] = serialization.serialize_keras_object(self.arguments)
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        for key in ("function", "output_shape", "mask"):
            if key in config:
                config[key] = _deserialize_function(config[key], key, custom_objects)
        if "arguments" in config:
            config["arguments"] = serialization.deserialize_keras_object(
                config["arguments"], custom_objects
            )
        return super().from_config(config)
