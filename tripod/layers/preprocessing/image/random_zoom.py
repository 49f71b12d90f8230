"""`RandomZoom`: zoom each image in or out about its center by a random factor."""

from tripod.layers.preprocessing import random_draws
from tripod.layers.preprocessing.image.factors import factor_range
from tripod.layers.preprocessing.image.warp import WarpLayer


class RandomZoom(WarpLayer):
    """In training, zoom each image (its masks and boxes with it) about its center: the view
    grows vertically by 1 + a fraction drawn from `height_factor` (positive zooms out, negative
    zooms in; a number f means [-f, f], a pair [lower, upper], within (-1, 1]) and horizontally by
    one drawn from `width_factor`, or by the same as vertically when it is None (the aspect ratio
    kept). Outputs are floats."""

    def __init__(
        self,
        height_factor,
        width_factor=None,
        fill_mode="reflect",
        interpolation="bilinear",
        seed=None,
        fill_value=0.0,
        data_format=None,
        **kwargs,
    ):
        super().__init__(
            interpolation=interpolation,
            fill_mode=fill_mode,
            fill_value=fill_value,
            seed=seed,
            data_format=data_format,
            **kwargs,
        )
        self.height_factor, self.width_factor = height_factor, width_factor
        self.height_range = factor_range(
            self, "height_factor", height_factor, -1.0, 1.0, open_low=True
        )
        self.width_range = (
            None
            if width_factor is None
            else factor_range(self, "width_factor", width_factor, -1.0, 1.0, open_low=True)
        )

    def _zoom(self, batch, factor_range_):
        lower, upper = factor_range_
        return random_draws.uniform(
            self.backend, self.random_key(), (batch, 1), 1.0 + lower, 1.0 + upper
        )

    def sampling_transform(self, batch, height, width):
        ops = self.backend
        zoom_y = self._zoom(batch, self.height_range)
        zoom_x = zoom_y if self.width_range is None else self._zoom(batch, self.width_range)
        center_x = ops.divide(ops.subtract(ops.cast(width, "float32"), 1.0), 2.0)
        center_y = ops.divide(ops.subtract(ops.cast(height, "float32"), 1.0), 2.0)
        offset_x = ops.multiply(center_x, ops.subtract(1.0, zoom_x))
        offset_y = ops.multiply(center_y, ops.subtract(1.0, zoom_y))
        zero = ops.zeros_like(zoom_x)
        return ops.concatenate([zoom_x, zero, offset_x, zero, zoom_y, offset_y, zero, zero], axis=1)

    def get_config(self):
        return {
            **super().get_config(),
            **self.warp_config(),
            "height_factor": self.height_factor,
            "width_factor": self.width_factor,
            "fill_mode": self.fill_mode,
        }
