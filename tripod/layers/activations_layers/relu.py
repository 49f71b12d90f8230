"""`ReLU`: the rectified linear unit, with optional ceiling, slope and threshold."""

from tripod.layers import activations
from tripod.layers.layer import Layer


class ReLU(Layer):
    """The rectified linear unit, generalized: x at or above `threshold` (capped at `max_value`),
    `negative_slope * (x - threshold)` below it.

    With the defaults it is `max(x, 0)`. Elementwise: the output has the input's shape.

    Args:
        max_value: float >= 0, the ceiling of the output (6.0 gives ReLU6); default None, no
            ceiling.
        negative_slope: float >= 0, the slope below `threshold`; default 0.0.
        threshold: float >= 0, the input value below which the slope applies; default 0.0.
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `max_value` is negative, or `negative_slope` or `threshold` is None or
            negative.

    Examples:
        >>> relu6 = tripod.layers.ReLU(max_value=6.0)
        >>> print(tripod.ops.convert_to_numpy(relu6(np.array([-3.0, 2.0, 10.0]))))
        [0. 2. 6.]
        >>> shifted = tripod.layers.ReLU(negative_slope=0.5, threshold=1.0)
        >>> print(tripod.ops.convert_to_numpy(shifted(np.array([-1.0, 0.0, 2.0]))))
        [-1.  -0.5  2. ]
    """

    def __init__(self, max_value=None, negative_slope=0.0, threshold=0.0, **kwargs):
        super().__init__(**kwargs)
        if max_value is not None and max_value < 0.0:
            raise ValueError(
                f"ReLU '{self.name}': max_value cannot be negative, received max_value={max_value}."
            )
        for arg, value in (("negative_slope", negative_slope), ("threshold", threshold)):
            if value is None or value < 0.0:
                raise ValueError(
                    f"ReLU '{self.name}': {arg} cannot be None or negative, received {arg}={value}."
                )
        self.max_value = max_value
        self.negative_slope = negative_slope
        self.threshold = threshold
        self.supports_masking = True

    def call(self, inputs):
        return activations.relu(
            inputs,
            negative_slope=self.negative_slope,
            max_value=self.max_value,
            threshold=self.threshold,
        )

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        return {
            **super().get_config(),
            "max_value": self.max_value,
            "negative_slope": self.negative_slope,
            "threshold": self.threshold,
        }
