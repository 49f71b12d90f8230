"""`Resizing`: images resized to (height, width) through `ops.resize`."""

from tripod.backends import config
from tripod.layers.input_spec import InputSpec
from tripod.layers.preprocessing.data_layer import DataLayer

_INTERPOLATIONS = ("nearest", "bilinear", "bicubic", "lanczos3", "lanczos5", "area")


class Resizing(DataLayer):
    """Resize images to (height, width), optionally cropping or padding to the target aspect
    ratio."""

    def __init__(
        self,
        height,
        width,
        interpolation="bilinear",
        crop_to_aspect_ratio=False,
        pad_to_aspect_ratio=False,
        fill_mode="constant",
        fill_value=0.0,
        antialias=False,
        data_format=None,
        **kwargs,
    ):
        super().__init__(**kwargs)
        for argument, value in (("height", height), ("width", width)):
            if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
                raise ValueError(
                    f"Resizing '{self.name}': {argument} must be a positive integer, received "
                    f"{value!r}."
                )
        if interpolation not in _INTERPOLATIONS:
            raise ValueError(
                f"Resizing '{self.name}': interpolation must be one of {list(_INTERPOLATIONS)}, "
                f"received {interpolation!r}."
            )
        if crop_to_aspect_ratio and pad_to_aspect_ratio:
            raise ValueError(
                f"Resizing '{self.name}': crop_to_aspect_ratio and pad_to_aspect_ratio cannot both "
                "be True."
            )
        self.height = height
        self.width = width
        self.interpolation = interpolation
        self.crop_to_aspect_ratio = crop_to_aspect_ratio
        self.pad_to_aspect_ratio = pad_to_aspect_ratio
        self.fill_mode = fill_mode
        self.fill_value = fill_value
        self.antialias = antialias
        self.data_format = config.standardize_data_format(data_format)
        self.input_spec = InputSpec(min_ndim=3, max_ndim=4)

    def call(self, inputs):
        return self.backend.resize(
            inputs,
            (self.height, self.width),
            interpolation=self.interpolation,
            antialias=self.antialias,
            crop_to_aspect_ratio=self.crop_to_aspect_ratio,
            pad_to_aspect_ratio=self.pad_to_aspect_ratio,
            fill_mode=self.fill_mode,
            fill_value=self.fill_value,
            data_format=self.data_format,
        )

    def compute_output_shape(self, input_shape):
        shape = list(input_shape)
        rank = len(shape)
        h_axis = rank - 3 if self.data_format == "channels_last" else rank - 2
        shape[h_axis], shape[h_axis + 1] = self.height, self.width
        return tuple(shape)

    def get_config(self):
        return {
            **super().get_config(),
            "data_format": self.data_format,
            "height": self.height,
            "width": self.width,
            "interpolation": self.interpolation,
            "crop_to_aspect_ratio": self.crop_to_aspect_ratio,
            "pad_to_aspect_ratio": self.pad_to_aspect_ratio,
            "fill_mode": self.fill_mode,
            "fill_value": self.fill_value,
            "antialias": self.antialias,
        }
