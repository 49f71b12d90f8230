"""`RandomCrop`: crop each batch to a fixed size at a random place (a center crop at inference)."""

from tripod.layers.preprocessing import random_draws
from tripod.layers.preprocessing.image.base import BaseImagePreprocessingLayer
from tripod.layers.preprocessing.image.bounding_boxes import geometry
from tripod.layers.preprocessing.image.warp import move_boxes


class RandomCrop(BaseImagePreprocessingLayer):
    """Crop images to `height` x `width`: at a random place in training, at the center otherwise.

    In training, when the images are larger than the target on both sides, the whole batch (with
    its segmentation masks and bounding boxes) is cropped at one random place. Otherwise, and at
    inference too, the largest centered window of the target's aspect ratio is cropped and resized
    to the target size (bilinear; nearest for masks). The layer takes images `(batch, height,
    width, channels)` of a known size, one image without the batch axis, or a dict with "images"
    and optionally "labels" (unchanged), "segmentation_masks" and "bounding_boxes" (moved and
    clipped). Images come back as floats of shape `(batch, height, width, channels)`.

    Args:
        height: int > 0, the height of the output.
        width: int > 0, the width of the output.
        seed: int, the seed of the layer's random draws (default None: a random one).
        data_format: "channels_last" or "channels_first"; default
            `tripod.config.image_data_format()`.
        name: str, the layer's name (default: one made from the class name).
        **kwargs: the `Layer` arguments (dtype, trainable, ...), and `bounding_box_format`
            (e.g. "xyxy"), needed when the input has bounding boxes.

    Raises:
        ValueError: `height` or `width` is not a positive integer, the images' height or width
            is not known, the images are not of rank 3 or 4, or the input has bounding boxes
            without a `bounding_box_format`.

    Examples:
        >>> layer = tripod.layers.RandomCrop(2, 2)
        >>> tuple(layer(np.zeros((1, 8, 8, 3)), training=True).shape)
        (1, 2, 2, 3)
        >>> images = np.arange(8.0).reshape(1, 2, 4, 1)  # at inference: the centered 2 x 2
        >>> tripod.ops.convert_to_numpy(layer(images, training=False))[0, :, :, 0].tolist()
        [[1.0, 2.0], [5.0, 6.0]]
    """

    identity_at_inference = False  # it center-crops at inference

    def __init__(self, height, width, seed=None, data_format=None, name=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, name=name, **kwargs)
        for what, value in (("height", height), ("width", width)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(
                    f"RandomCrop '{self.name}': {what} must be a positive integer, received "
                    f"{value!r}."
                )
        self.height, self.width = height, width

    def get_random_transformation(self, data, training=True, seed=None):
        images = data["images"] if isinstance(data, dict) else data
        height, width = self.image_size(images)
        static = isinstance(height, int) and isinstance(width, int)
        if not static:
            raise ValueError(
                f"RandomCrop '{self.name}': needs images of a known height and width, received "
                f"shape {tuple(images.shape)}."
            )
        if training and height > self.height and width > self.width:
            top = random_draws.randint(
                self.backend, self.random_key(), (), 0, height - self.height + 1
            )
            left = random_draws.randint(
                self.backend, self.random_key(), (), 0, width - self.width + 1
            )
            return {
                "offset": (top, left),
                "window": (self.height, self.width),
                "size": (height, width),
            }
        window_height = max(min(height, int(width * self.height / self.width)), 1)
        window_width = max(min(width, int(height * self.width / self.height)), 1)
        offset = ((height - window_height) // 2, (width - window_width) // 2)
        return {"offset": offset, "window": (window_height, window_width), "size": (height, width)}

    def _crop(self, images, transformation, interpolation):
        ops = self.backend
        (top, left), (rows, cols) = transformation["offset"], transformation["window"]
        _, h_axis, w_axis, _ = self.image_axes(images)
        start = [ops.zeros((), "int32")] * 4
        start[h_axis], start[w_axis] = ops.cast(top, "int32"), ops.cast(left, "int32")
        shape = list(ops.shape(images))
        shape[h_axis], shape[w_axis] = rows, cols
        crop = ops.slice(images, ops.stack(start), shape)
        if (rows, cols) == (self.height, self.width):
            return crop
        return ops.resize(
            crop,
            (self.height, self.width),
            interpolation=interpolation,
            data_format=self.data_format,
        )

    def transform_images(self, images, transformation, training=True):
        images = self.backend.cast(images, self.compute_dtype)
        return self.backend.cast(self._crop(images, transformation, "bilinear"), self.compute_dtype)

    def transform_segmentation_masks(self, segmentation_masks, transformation, training=True):
        return self._crop(
            self.backend.convert_to_tensor(segmentation_masks), transformation, "nearest"
        )

    def transform_bounding_boxes(self, bounding_boxes, transformation, training=True):
        ops = self.backend
        (top, left), (rows, cols) = transformation["offset"], transformation["window"]
        scale = ops.convert_to_tensor([self.width / cols, self.height / rows] * 2, "float32")

        def move(boxes):
            return ops.multiply(geometry.shift(ops, boxes, top, left), scale)

        return move_boxes(
            self, bounding_boxes, transformation["size"], move, (self.height, self.width)
        )

    def compute_output_shape(self, input_shape):
        shape = list(input_shape)
        rank = len(shape)
        h_axis, w_axis = (
            (rank - 3, rank - 2) if self.data_format == "channels_last" else (rank - 2, rank - 1)
        )
        shape[h_axis], shape[w_axis] = self.height, self.width
        return tuple(shape)

    def get_config(self):
        return {**super().get_config(), "height": self.height, "width": self.width}
