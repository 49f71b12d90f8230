"""`_BaseNormalization`: what BatchNormalization, GroupNormalization and LayerNormalization share.

Each normalizes its inputs with statistics it computes in float32 for float16/bfloat16 inputs (their
precision is too low for a variance), then scales by a learned `gamma` (with `scale`) and shifts by
a learned `beta` (with `center`), one value per normalized feature.
"""

from tripod.backends import active
from tripod.layers import weight_settings
from tripod.layers.layer import Layer

ops = active()

_LOW_PRECISION = ("float16", "bfloat16")


class _BaseNormalization(Layer):
    """A normalization layer with an optional learned scale (gamma) and offset (beta)."""

    def __init__(
        self,
        *,
        center,
        scale,
        beta_initializer,
        gamma_initializer,
        beta_regularizer,
        gamma_regularizer,
        beta_constraint,
        gamma_constraint,
        **kwargs,
    ):
        super().__init__(**kwargs)
        self.center = center
        self.scale = scale
        weight_settings.resolve(self, "beta", beta_initializer, beta_regularizer, beta_constraint)
        weight_settings.resolve(
            self, "gamma", gamma_initializer, gamma_regularizer, gamma_constraint
        )
        self.supports_masking = True

    def _add_gamma_beta(self, shape, scale, center):
        """Create `gamma` when `scale` and `beta` when `center` (else None), both of `shape`."""
        self.gamma = weight_settings.add(self, "gamma", shape) if scale else None
        self.beta = weight_settings.add(self, "beta", shape) if center else None

    @staticmethod
    def _statistics_input(x):
        """`x` in the dtype its statistics are computed in: float32 for float16/bfloat16."""
        return ops.cast(x, "float32") if ops.dtype(x) in _LOW_PRECISION else x

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)
