"""`CenterCrop`: the central height x width window of images (resized when they are smaller)."""

from tripod.backends import config
from tripod.layers.input_spec import InputSpec
from tripod.layers.preprocessing.data_layer import DataLayer


class CenterCrop(DataLayer):
    """Crop the central `height` x `width` window of images.

    Images `(batch, height, width, channels)`, or one image without the batch axis (channels first
    with `data_format="channels_first"`), of a known size keep their central window; images smaller
    than the target on either side are instead resized to it (after cropping to its aspect ratio).

    Args:
        height: int > 0, the height of the output.
        width: int > 0, the width of the output.
        data_format: "channels_last" or "channels_first"; default
            `tripod.config.image_data_format()`.
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `height` or `width` is not a positive integer, the input is not of rank 3
            or 4, or its height or width is not known.

    Examples:
        >>> layer = tripod.layers.CenterCrop(2, 2)
        >>> images = np.arange(16.0).reshape(1, 4, 4, 1)
        >>> tripod.ops.convert_to_numpy(layer(images))[0, :, :, 0].tolist()
        [[5.0, 6.0], [9.0, 10.0]]
        >>> tuple(tripod.layers.CenterCrop(4, 4)(np.ones((1, 2, 2, 3))).shape)  # resized up
        (1, 4, 4, 3)
    """

    def __init__(self, height, width, data_format=None, **kwargs):
        super().__init__(**kwargs)
        for argument, value in (("height", height), ("width", width)):
            if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
                raise ValueError(
                    f"CenterCrop '{self.name}': {argument} must be a positive integer, received "
                    f"{value!r}."
                )
        self.height = height
        self.width = width
        self.data_format = config.standardize_data_format(data_format)
        self.input_spec = InputSpec(min_ndim=3, max_ndim=4)

    def _spatial_axes(self, rank):
        return (rank - 3, rank - 2) if self.data_format == "channels_last" else (rank - 2, rank - 1)

    def call(self, inputs):
        rank = len(inputs.shape)
        h_axis, w_axis = self._spatial_axes(rank)
        in_h, in_w = inputs.shape[h_axis], inputs.shape[w_axis]
        if in_h is None or in_w is None:
            raise ValueError(
                f"CenterCrop '{self.name}': the image height and width must be static, received "
                f"inputs of shape {tuple(inputs.shape)} (in a tf.data map, give the images one "
                "known size first)."
            )
        if in_h < self.height or in_w < self.width:
            return self.backend.resize(
                inputs,
                (self.height, self.width),
                crop_to_aspect_ratio=True,
                data_format=self.data_format,
            )
        top, left = (in_h - self.height) // 2, (in_w - self.width) // 2
        index = [slice(None)] * rank
        index[h_axis] = slice(top, top + self.height)
        index[w_axis] = slice(left, left + self.width)
        return inputs[tuple(index)]

    def compute_output_shape(self, input_shape):
        shape = list(input_shape)
        h_axis, w_axis = self._spatial_axes(len(shape))
        shape[h_axis], shape[w_axis] = self.height, self.width
        return tuple(shape)

    def get_config(self):
        return {
            **super().get_config(),
            "data_format": self.data_format,
            "height": self.height,
            "width": self.width,
        }
