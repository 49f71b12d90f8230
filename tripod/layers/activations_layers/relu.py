"""`ReLU`: the rectified linear unit, with optional ceiling, slope and threshold."""

from tripod.layers import activations
from tripod.layers.layer import Layer


class ReLU(Layer):
    """x above `threshold` (capped at `max_value`), `negative_slope * (x - threshold)` below."""

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
