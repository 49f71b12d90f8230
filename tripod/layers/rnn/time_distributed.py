"""`TimeDistributed`: applies a layer to every time step of (batch, time, ...) inputs."""

from tripod.backends import active
from tripod.layers.core.wrapper import Wrapper
from tripod.layers.input_spec import InputSpec

ops = active()


class TimeDistributed(Wrapper):
    """Applies `layer` to each slice along axis 1, by folding time into the batch axis."""

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
