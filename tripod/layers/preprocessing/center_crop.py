"""`CenterCrop`: the central height x width window of images (resized when they are smaller)."""

from tripod.backends import config
from tripod.layers.input_spec import InputSpec
from tripod.layers.preprocessing.data_layer import DataLayer


class CenterCrop(DataLayer):
    """Crop the center of images to (height, width); smaller images are resized to fill it."""

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
