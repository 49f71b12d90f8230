"""`TimeDistributed`: applies a layer to every time step of (batch, time, ...) inputs."""

from tripod.backends import active
from tripod.layers.core.wrapper import Wrapper
from tripod.layers.input_spec import InputSpec

ops = active()


class TimeDistributed(Wrapper):
    """Applies a layer to every time step of `(batch, time, ...)` inputs, with the same
    weights at every step.

    The time axis is folded into the batch axis, the layer is called once on
    `(batch * time, ...)`, and the result is unfolded to `(batch, time, ...)`. A mask and the
    `training` flag are passed on to the layer when it takes them.

    Args:
        layer: the `Layer` applied to each step.
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        TypeError: `layer` is not a `Layer`.
        ValueError: on a call, an input of rank below 3.

    Examples:
        >>> dense = tripod.layers.Dense(2, kernel_initializer="ones")
        >>> steps = tripod.layers.TimeDistributed(dense)
        >>> print(tripod.ops.convert_to_numpy(steps(np.arange(6.0).reshape(1, 3, 2)))[0])
        [[1. 1.]
         [5. 5.]
         [9. 9.]]
        >>> conv = tripod.layers.TimeDistributed(tripod.layers.Conv2D(8, 3))
        >>> tuple(conv(np.zeros((2, 4, 10, 10, 3))).shape)
        (2, 4, 8, 8, 8)
    """

    def __init__(self, layer, **kwargs):
        super().__init__(layer, **kwargs)
        self.supports_masking = True
        self.input_spec = InputSpec(min_ndim=3)
        self._passes_mask = self.layer._call_has_mask_arg
        self._passes_training = self.layer._call_has_training_arg

    def _check(self, input_shape):
        if len(input_shape) < 3:
            raise ValueError(
                f"TimeDistributed '{self.name}': expected inputs of rank >= 3 (batch, time, ...), "
                f"received shape {tuple(input_shape)}."
            )

    def build(self, input_shape):
        self._check(input_shape)
        super().build((None,) + tuple(input_shape[2:]))

    def call(self, inputs, training=None, mask=None):
        shape = ops.shape(inputs)
        folded = ops.reshape(inputs, (-1,) + tuple(shape[2:]))
        kwargs = {}
        if self._passes_training and training is not None:
            kwargs["training"] = training
        if self._passes_mask and mask is not None:
            kwargs["mask"] = ops.reshape(mask, (-1,) + tuple(ops.shape(mask)[2:]))
        outputs = self.layer(folded, **kwargs)
        out_shape = ops.shape(outputs)
        return ops.reshape(outputs, (shape[0], shape[1]) + tuple(out_shape[1:]))

    def compute_output_shape(self, input_shape):
        self._check(input_shape)
        inner = self.layer.compute_output_shape((None,) + tuple(input_shape[2:]))
        return (input_shape[0], input_shape[1]) + tuple(inner[1:])
