"""`Resizing`: images resized to (height, width) through `ops.resize`."""

from tripod.backends import config
from tripod.layers.input_spec import InputSpec
from tripod.layers.preprocessing.data_layer import DataLayer

_INTERPOLATIONS = ("nearest", "bilinear", "bicubic", "lanczos3", "lanczos5", "area")


class Resizing(DataLayer):
    """Resize images to `height` x `width`.

    Images `(batch, height, width, channels)`, or one image without the batch axis (channels first
    with `data_format="channels_first"`), are resampled to the target size; they may first be
    cropped (`crop_to_aspect_ratio`) or padded (`pad_to_aspect_ratio`) to its aspect ratio, so
    that they are not distorted.

    Args:
        height: int > 0, the height of the output.
        width: int > 0, the width of the output.
        interpolation: "bilinear" (default), "nearest", "bicubic", "lanczos3", "lanczos5" or
            "area".
        crop_to_aspect_ratio: bool, first crop the largest centered window of the target's aspect
            ratio (default False).
        pad_to_aspect_ratio: bool, first pad the images evenly to the target's aspect ratio
            (default False); not with `crop_to_aspect_ratio`.
        fill_mode: how the padding of `pad_to_aspect_ratio` is filled (default "constant").
        fill_value: number, the value of that padding (default 0.0).
        antialias: bool, filter the images when shrinking them (default False).
        data_format: "channels_last" or "channels_first"; default
            `tripod.config.image_data_format()`.
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `height` or `width` is not a positive integer, an unknown `interpolation`,
            both `crop_to_aspect_ratio` and `pad_to_aspect_ratio`, or an input not of rank 3 or 4.

    Examples:
        >>> layer = tripod.layers.Resizing(4, 6, pad_to_aspect_ratio=True)
        >>> tuple(layer(np.ones((1, 8, 8, 3))).shape)
        (1, 4, 6, 3)
        >>> layer = tripod.layers.Resizing(2, 2, interpolation="nearest")
        >>> tripod.ops.convert_to_numpy(layer(np.ones((1, 4, 4, 1))))[0, :, :, 0].tolist()
        [[1.0, 1.0], [1.0, 1.0]]
    """

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
