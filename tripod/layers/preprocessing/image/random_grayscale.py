"""`RandomGrayscale`: turn a random share of the images grey, keeping their channel count."""

from tripod.layers.preprocessing import random_draws
from tripod.layers.preprocessing.image.color_layer import ColorLayer, images_of, is_number


class RandomGrayscale(ColorLayer):
    """Randomly turn RGB images grey, keeping their three channels.

    In training, each image is replaced, with probability `factor`, by its luminance repeated in
    all three channels. At inference (`training=False`) the images pass through, cast to the
    compute dtype. The layer takes images `(batch, height, width, 3)`, one image without the batch
    axis, or a dict with "images" (labels, bounding boxes and masks pass through).

    Args:
        factor: number in [0, 1], the probability that an image is made grey (default 0.5).
        data_format: "channels_last" or "channels_first"; default
            `tripod.config.image_data_format()`.
        seed: int, the seed of the layer's random draws (default None: a random one).
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `factor` is not a number in [0, 1], or the images are not of rank 3 or 4.

    Examples:
        >>> layer = tripod.layers.RandomGrayscale(factor=1.0)
        >>> images = np.array([[[[200.0, 100.0, 50.0]]]])
        >>> y = tripod.ops.convert_to_numpy(layer(images, training=True))
        >>> bool(np.allclose(y[..., 0], y[..., 1]) and np.allclose(y[..., 1], y[..., 2]))
        True
    """

    def __init__(self, factor=0.5, data_format=None, seed=None, **kwargs):
        super().__init__(data_format=data_format, seed=seed, **kwargs)
        if not is_number(factor) or not 0 <= factor <= 1:
            raise ValueError(
                f"RandomGrayscale '{self.name}': `factor` must be a number in [0, 1], "
                f"received factor={factor!r}."
            )
        self.factor = factor

    def get_random_transformation(self, data, training=True, seed=None):
        (key,) = self.draw_keys(1, seed)
        shape = self.per_image_shape(images_of(data))
        return {"apply": random_draws.bernoulli(self.backend, key, shape, self.factor)}

    def transform_images(self, images, transformation, training=True):
        ops = self.backend
        images = self.as_float(images)
        gray = ops.rgb_to_grayscale(images, data_format=self.data_format)
        return ops.where(transformation["apply"], ops.broadcast_to(gray, ops.shape(images)), images)

    def get_config(self):
        return {**super().get_config(), "factor": self.factor}
