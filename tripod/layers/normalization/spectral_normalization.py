"""`SpectralNormalization`: a wrapper that divides a layer's kernel by its largest singular
value."""

from tripod.backends import active, dtypes
from tripod.layers import initializers
from tripod.layers.core.wrapper import Wrapper

ops = active()


def _l2_normalize(x):
    return ops.multiply(x, ops.rsqrt(ops.maximum(ops.sum(ops.square(x)), 1e-24)))


class SpectralNormalization(Wrapper):
    """Wraps a layer with a `kernel` (or `embeddings`) and keeps that weight's spectral norm
    (its largest singular value) near 1.

    In training (`training=True`), each call estimates the spectral norm of the kernel (reshaped
    to a matrix over its last axis) by `power_iterations` steps of power iteration from the
    non-trainable vector `vector_u`, assigns `kernel / norm` to the wrapped layer's kernel, then
    calls the layer. In inference the wrapped layer runs with its kernel unchanged. The output is
    the wrapped layer's output.

    Args:
        layer: a `Layer` with a `kernel` or `embeddings` weight (e.g. `Dense`, `Conv2D`).
        power_iterations: int > 0, power-iteration steps per training call (default 1).
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        TypeError: `layer` is not a `Layer`.
        ValueError: `power_iterations` is not a positive integer; on the first call, the
            wrapped layer has no `kernel` or `embeddings`.

    Examples:
        >>> dense = tripod.layers.Dense(2, kernel_initializer="ones")  # spectral norm 2
        >>> wrapped = tripod.layers.SpectralNormalization(dense)
        >>> tuple(wrapped(np.ones((1, 2))).shape)
        (1, 2)
        >>> y = wrapped(np.ones((1, 2)), training=True)
        >>> print(np.round(tripod.ops.convert_to_numpy(dense.kernel.value), 3))
        [[0.5 0.5]
         [0.5 0.5]]
    """

    def __init__(self, layer, power_iterations=1, **kwargs):
        super().__init__(layer, **kwargs)
        if (
            not isinstance(power_iterations, int)
            or isinstance(power_iterations, bool)
            or power_iterations <= 0
        ):
            raise ValueError(
                f"SpectralNormalization '{self.name}': power_iterations must be a positive "
                "integer, "
                f"received {power_iterations!r}."
            )
        self.power_iterations = power_iterations

    def build(self, input_shape):
        super().build(input_shape)
        self.kernel = getattr(self.layer, "kernel", None)
        if self.kernel is None:
            self.kernel = getattr(self.layer, "embeddings", None)
        if self.kernel is None:
            raise ValueError(
                f"SpectralNormalization '{self.name}': the wrapped layer "
                f"{type(self.layer).__name__} "
                "has no `kernel` or `embeddings` weight to normalize."
            )
        # Keras saves the wrapped kernel among this layer's own variables, before `vector_u`.
        self._own_variables.append(self.kernel)
        self._kernel_shape = tuple(self.kernel.shape)
        self.vector_u = self.add_weight(
            shape=(1, self._kernel_shape[-1]),
            initializer=initializers.TruncatedNormal(stddev=0.02),
            name="vector_u",
            trainable=False,
            dtype=self.kernel.dtype,
        )
        self.built = True

    def call(self, inputs, training=False):
        if training:
            vector_u, kernel = self.normalized_weights()
            self.vector_u.assign(vector_u)
            self.kernel.assign(kernel)
        outputs = self.layer(inputs)
        # As in Keras, the output takes the input's float dtype; integer inputs (an Embedding's
        # indices) keep the wrapped layer's float output, not a cast to integers.
        if dtypes.is_float(ops.dtype(inputs)):
            outputs = ops.cast(outputs, ops.dtype(inputs))
        return outputs

    def normalized_weights(self):
        """The power-iterated `u` and the kernel divided by its estimated spectral norm."""
        kernel = self.kernel.value
        weights = ops.reshape(kernel, (-1, self._kernel_shape[-1]))
        vector_u = self.vector_u.value
        for _ in range(self.power_iterations):
            vector_v = _l2_normalize(ops.matmul(vector_u, ops.transpose(weights)))
            vector_u = _l2_normalize(ops.matmul(vector_v, weights))
        vector_u, vector_v = ops.stop_gradient(vector_u), ops.stop_gradient(vector_v)
        sigma = ops.matmul(ops.matmul(vector_v, weights), ops.transpose(vector_u))
        sigma = ops.maximum(ops.reshape(sigma, ()), 1e-12)
        return vector_u, ops.divide(kernel, sigma)

    def compute_output_shape(self, input_shape):
        return self.layer.compute_output_shape(input_shape)

    def get_config(self):
        return {**super().get_config(), "power_iterations": self.power_iterations}
