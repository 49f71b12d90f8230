"""`PReLU`: a leaky ReLU whose negative slope `alpha` is learned."""

from tripod.backends import active
from tripod.layers import weight_settings
from tripod.layers.input_spec import InputSpec
from tripod.layers.layer import Layer

ops = active()


class PReLU(Layer):
    """A leaky ReLU with a learned slope: x where x >= 0, `alpha * x` elsewhere.

    `alpha` is a trainable weight with one value per input position (the batch axis excluded),
    created on the first call; along each of `shared_axes` one value serves the whole axis (size
    1 in `alpha`'s shape). The output has the input's shape.

    Args:
        alpha_initializer: initializer (or its name) of `alpha`; default "Zeros" (a plain ReLU
            until trained).
        alpha_regularizer: regularizer of `alpha`, its penalty added to `losses`.
        alpha_constraint: constraint applied to `alpha` after each update.
        shared_axes: int or list of ints, the input axes (1 is the first after the batch) along
            which `alpha` is shared, e.g. `[1, 2]` for one slope per channel of images; default
            None, no sharing.
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: on the first call, a shared axis outside 1..rank-1 of the input, or a
            non-shared input dimension of unknown size.

    Examples:
        >>> prelu = tripod.layers.PReLU(
        ...     alpha_initializer=tripod.initializers.Constant(0.25), shared_axes=[1]
        ... )
        >>> y = prelu(np.array([[[-4.0, 2.0], [-8.0, 1.0]]]))
        >>> print(tripod.ops.convert_to_numpy(y))
        [[[-1.  2.]
          [-2.  1.]]]
        >>> tuple(prelu.alpha.shape)
        (1, 2)
    """

    def __init__(
        self,
        alpha_initializer="Zeros",
        alpha_regularizer=None,
        alpha_constraint=None,
        shared_axes=None,
        **kwargs,
    ):
        super().__init__(**kwargs)
        self.supports_masking = True
        weight_settings.resolve(
            self, "alpha", alpha_initializer, alpha_regularizer, alpha_constraint
        )
        if shared_axes is None:
            self.shared_axes = None
        elif isinstance(shared_axes, (list, tuple)):
            self.shared_axes = list(shared_axes)
        else:
            self.shared_axes = [shared_axes]

    def build(self, input_shape):
        param_shape = list(input_shape[1:])
        for axis in self.shared_axes or ():
            if not 1 <= axis < len(input_shape):
                raise ValueError(
                    f"PReLU '{self.name}': shared_axes {self.shared_axes} must name axes 1.."
                    f"{len(input_shape) - 1} of the input, received input shape "
                    f"{tuple(input_shape)}."
                )
            param_shape[axis - 1] = 1
        if any(d is None for d in param_shape):
            raise ValueError(
                f"PReLU '{self.name}': every non-shared input dimension must be known, received "
                f"input shape {tuple(input_shape)} with shared_axes={self.shared_axes}."
            )
        self.alpha = weight_settings.add(self, "alpha", param_shape)
        shared = set(self.shared_axes or ())
        axes = {i: input_shape[i] for i in range(1, len(input_shape)) if i not in shared}
        self.input_spec = InputSpec(ndim=len(input_shape), axes=axes)
        self.built = True

    def call(self, inputs):
        positive = ops.relu(inputs)
        negative = ops.multiply(self.alpha.value, ops.minimum(inputs, 0))
        return ops.add(positive, negative)

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        return {
            **super().get_config(),
            **weight_settings.config(self, "alpha"),
            "shared_axes": self.shared_axes,
        }
