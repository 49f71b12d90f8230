"""`MaxNumBoundingBoxes`: give every image the same number of boxes, for batching."""

from tripod.layers.preprocessing.image.base import BaseImagePreprocessingLayer


class MaxNumBoundingBoxes(BaseImagePreprocessingLayer):
    """Give every image the same number of bounding boxes, so that they batch.

    The boxes `(batch, boxes, 4)` and their labels `(batch, boxes)` are cut to their first
    `max_number` entries, or padded to `max_number` with `fill_value`; images, labels and
    segmentation masks pass through unchanged. The layer draws nothing at random and works at
    inference too. It takes a dict with "images" and "bounding_boxes" (a dict of "boxes" and
    "labels") and returns one of the same form.

    Args:
        max_number: int > 0, the number of boxes each image gets.
        fill_value: int, the value of the padding boxes and labels (default -1).
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `max_number` is not a positive integer.
        KeyError: "bounding_boxes" holds entries other than "boxes" and "labels".

    Examples:
        >>> layer = tripod.layers.MaxNumBoundingBoxes(max_number=3)
        >>> boxes = {"boxes": np.array([[[0.0, 0.0, 2.0, 2.0]]]), "labels": np.array([[4]])}
        >>> out = layer({"images": np.zeros((1, 4, 4, 3)), "bounding_boxes": boxes})
        >>> tripod.ops.convert_to_numpy(out["bounding_boxes"]["labels"]).tolist()
        [[4, -1, -1]]
        >>> tuple(out["bounding_boxes"]["boxes"].shape)
        (1, 3, 4)
    """

    random = False
    identity_at_inference = False

    def __init__(self, max_number, fill_value=-1, **kwargs):
        super().__init__(**kwargs)
        if isinstance(max_number, bool) or int(max_number) != max_number or max_number < 1:
            raise ValueError(
                f"MaxNumBoundingBoxes '{self.name}': max_number must be a positive integer, "
                f"received {max_number!r}."
            )
        self.max_number = int(max_number)
        self.fill_value = int(fill_value)

    def transform_images(self, images, transformation, training=True):
        return self.backend.convert_to_tensor(images)

    def transform_segmentation_masks(self, segmentation_masks, transformation, training=True):
        return self.backend.convert_to_tensor(segmentation_masks)

    def _fit(self, values):
        """`values` (batch, boxes, ...) cut or padded with `fill_value` to `max_number` boxes."""
        ops = self.backend
        values = ops.convert_to_tensor(values)
        filler = ops.full(
            (ops.shape(values)[0], self.max_number, *values.shape[2:]),
            self.fill_value,
            ops.dtype(values),
        )
        return ops.concatenate([values, filler], axis=1)[:, : self.max_number]

    def transform_bounding_boxes(self, bounding_boxes, transformation, training=True):
        extra = set(bounding_boxes) - {"boxes", "labels"}
        if extra:
            raise KeyError(
                f"MaxNumBoundingBoxes '{self.name}': bounding_boxes may hold only 'boxes' and "
                f"'labels', received also {sorted(extra)}."
            )
        return {key: self._fit(value) for key, value in bounding_boxes.items()}

    def compute_output_shape(self, input_shape):
        if not isinstance(input_shape, dict) or "bounding_boxes" not in input_shape:
            return input_shape
        boxes = {
            key: (shape[0], self.max_number, *shape[2:])
            for key, shape in input_shape["bounding_boxes"].items()
        }
        return {**input_shape, "bounding_boxes": boxes}

    def get_config(self):
        return {
            **super().get_config(),
            "max_number": self.max_number,
            "fill_value": self.fill_value,
        }
