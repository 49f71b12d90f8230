"""`ContrastLimitedAdaptiveHistogramEqualization` (CLAHE): histogram equalization per tile, with
each tile's histogram clipped and the tiles' mappings blended bilinearly."""

from tripod.layers.preprocessing.image.color_layer import BYTE_RANGE, ColorLayer, is_number

LEVELS = 256


class ContrastLimitedAdaptiveHistogramEqualization(ColorLayer):
    """Contrast-limited adaptive histogram equalization (CLAHE) of each channel of each image.

    The image, its values mapped from `value_range` to 0..255 and its edges mirrored to a whole
    number of tiles, is cut into a `tile_grid_size` grid of tiles. Each channel of each tile gets
    the equalization of its histogram clipped at `clip_limit` times the mean bin count (the clipped
    excess spread evenly over all 256 bins), and every pixel blends the mappings of its four nearest
    tiles bilinearly; the result is mapped back to `value_range`. The layer draws nothing at random
    and transforms at inference too. It takes images `(batch, height, width, channels)`, one image
    without the batch axis, or a dict with "images", and returns floats of the same shape.

    Args:
        value_range: (low, high), the range of the input values and of the output; default
            (0, 255).
        clip_limit: number >= 0, the histogram clip as a multiple of the mean bin count; 0 turns
            clipping off (plain adaptive equalization). Default 4.0.
        tile_grid_size: (rows, columns), two positive ints, the grid of tiles; default (8, 8).
        data_format: "channels_last" or "channels_first"; default
            `tripod.config.image_data_format()`.
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `clip_limit` is negative or not a number, `tile_grid_size` is not a pair of
            positive ints, `value_range` is not two different numbers, or the images are not of
            rank 3 or 4.

    Examples:
        >>> layer = tripod.layers.ContrastLimitedAdaptiveHistogramEqualization(
        ...     clip_limit=2.0, tile_grid_size=(2, 2)
        ... )
        >>> images = np.arange(192.0).reshape(1, 8, 8, 3)
        >>> y = tripod.ops.convert_to_numpy(layer(images))
        >>> y.shape, bool(y.min() >= 0.0 and y.max() <= 255.0)
        ((1, 8, 8, 3), True)
    """

    random = False
    identity_at_inference = False

    def __init__(
        self,
        value_range=(0, 255),
        clip_limit=4.0,
        tile_grid_size=(8, 8),
        data_format=None,
        **kwargs,
    ):
        super().__init__(value_range=value_range, data_format=data_format, **kwargs)
        name = f"ContrastLimitedAdaptiveHistogramEqualization '{self.name}'"
        if not is_number(clip_limit) or clip_limit < 0:
            raise ValueError(
                f"{name}: `clip_limit` must be a number >= 0, received clip_limit={clip_limit!r}."
            )
        if not (
            isinstance(tile_grid_size, (tuple, list))
            and len(tile_grid_size) == 2
            and all(isinstance(n, int) and n > 0 for n in tile_grid_size)
        ):
            raise ValueError(
                f"{name}: `tile_grid_size` must be a pair of positive ints, "
                f"received tile_grid_size={tile_grid_size!r}."
            )
        self.clip_limit = clip_limit
        self.tile_grid_size = tuple(tile_grid_size)

    def transform_images(self, images, transformation, training=True):
        ops = self.backend
        images = self.to_range(images, BYTE_RANGE)
        if self.data_format == "channels_first":
            images = ops.transpose(images, (0, 2, 3, 1))
        height, width = ops.shape(images)[1], ops.shape(images)[2]
        tile = [
            (size + grid - 1) // grid for size, grid in zip((height, width), self.tile_grid_size)
        ]
        padded = _mirror_to(ops, images, height, tile[0] * self.tile_grid_size[0], axis=1)
        padded = _mirror_to(ops, padded, width, tile[1] * self.tile_grid_size[1], axis=2)
        levels = ops.cast(ops.clip(padded, *BYTE_RANGE), "int32")
        result = self._blend(self._tile_mappings(levels, tile), levels, tile)[:, :height, :width, :]
        if self.data_format == "channels_first":
            result = ops.transpose(result, (0, 3, 1, 2))
        return self.from_range(result, BYTE_RANGE)

    def _tile_mappings(self, levels, tile):
        """(batch, grid_h, grid_w, channels, 256): each tile's clipped-histogram equalization."""
        ops = self.backend
        (grid_h, grid_w), (tile_h, tile_w) = self.tile_grid_size, tile
        batch, channels = ops.shape(levels)[0], ops.shape(levels)[3]
        tiles = ops.reshape(levels, (batch, grid_h, tile_h, grid_w, tile_w, channels))
        tiles = ops.transpose(tiles, (0, 1, 3, 5, 2, 4))
        rows = ops.reshape(tiles, (-1, tile_h * tile_w))
        hist = ops.cast(ops.bincount(rows, minlength=LEVELS), "float32")
        if self.clip_limit > 0:
            pixels = ops.cast(tile_h * tile_w, "float32")
            limit = ops.multiply(pixels, self.clip_limit / LEVELS)
            clipped = ops.minimum(hist, limit)
            excess = ops.sum(ops.subtract(hist, clipped), axis=1, keepdims=True)
            hist = ops.add(clipped, ops.divide(excess, LEVELS))
        cdf = ops.cumsum(hist, axis=1)
        first, total = cdf[:, :1], cdf[:, -1:]
        span = ops.subtract(total, first)
        mapping = ops.divide(
            ops.multiply(ops.subtract(cdf, first), BYTE_RANGE[1]),
            ops.where(ops.equal(span, 0), 1.0, span),
        )
        mapping = ops.clip(mapping, *BYTE_RANGE)
        return ops.reshape(mapping, (batch, grid_h, grid_w, channels, LEVELS))

    def _blend(self, mappings, levels, tile):
        """Each pixel's level mapped by its four nearest tiles, weighted bilinearly by distance
        to their centres (clamped at the border tiles)."""
        ops = self.backend
        (grid_h, grid_w), shape = self.tile_grid_size, ops.shape(levels)
        rows, row_weight = self._neighbours(shape[1], tile[0], grid_h, (1, -1, 1, 1))
        cols, col_weight = self._neighbours(shape[2], tile[1], grid_w, (1, 1, -1, 1))
        image = ops.reshape(ops.arange(shape[0], dtype="int32"), (-1, 1, 1, 1))
        channel = ops.reshape(ops.arange(shape[3], dtype="int32"), (1, 1, 1, -1))
        flat = ops.reshape(mappings, (-1,))

        def look_up(row, col):
            tile_index = ops.add(
                ops.multiply(ops.add(ops.multiply(image, grid_h), row), grid_w), col
            )
            index = ops.add(
                ops.multiply(ops.add(ops.multiply(tile_index, shape[3]), channel), LEVELS), levels
            )
            return ops.take(flat, index)

        top = _mix(ops, look_up(rows[0], cols[0]), look_up(rows[0], cols[1]), col_weight)
        bottom = _mix(ops, look_up(rows[1], cols[0]), look_up(rows[1], cols[1]), col_weight)
        return ops.cast(_mix(ops, top, bottom, row_weight), self.compute_dtype)

    def _neighbours(self, size, tile, grid, axis_shape):
        """For each pixel along an axis of `size`: the two nearest tile indices and the weight
        of the second, reshaped to `axis_shape` to broadcast over the image batch."""
        ops = self.backend
        position = ops.subtract(
            ops.divide(ops.add(ops.arange(size, dtype="float32"), 0.5), tile), 0.5
        )
        below = ops.floor(position)
        weight = ops.subtract(position, below)
        pair = [
            ops.cast(ops.clip(ops.add(below, step), 0, grid - 1), "int32") for step in (0.0, 1.0)
        ]
        return [ops.reshape(p, axis_shape) for p in pair], ops.reshape(weight, axis_shape)

    def get_config(self):
        return {
            **super().get_config(),
            "clip_limit": self.clip_limit,
            "tile_grid_size": self.tile_grid_size,
        }


def _mirror_to(ops, images, size, target, axis):
    """`images` extended along `axis` from `size` to `target` entries by mirroring the far edge
    (numpy's "symmetric" padding; works for sizes known only at run time)."""
    index = ops.mod(ops.arange(target, dtype="int32"), 2 * size)
    index = ops.where(ops.less(index, size), index, ops.subtract(2 * size - 1, index))
    return ops.take(images, index, axis=axis)


def _mix(ops, first, second, weight):
    """`first * (1 - weight) + second * weight`."""
    return ops.add(first, ops.multiply(weight, ops.subtract(second, first)))
