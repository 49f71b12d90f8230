"""Argument checks and shape helpers shared by the convolution and pooling layers.

Every error names the layer (class and name), so a bad `Conv2D(..., padding="full")` deep in a
model is easy to find. The shape math itself lives in `tripod.backends.common.conv`.
"""

import operator

from tripod.backends import config
from tripod.backends.common import conv as conv_shapes


def _prefix(layer):
    return f"{type(layer).__name__} '{layer.name}'"


def tuple_arg(layer, value, rank, name):
    """An int or `rank` positive ints (kernel_size, strides, ...) as a tuple of ints."""
    try:
        value = (
            operator.index(value)
            if not isinstance(value, (tuple, list))
            else tuple(operator.index(v) for v in value)
        )
        return conv_shapes.normalize_tuple(value, rank, name)
    except (TypeError, ValueError):
        raise ValueError(
            f"{_prefix(layer)}: {name} must be a positive int or a tuple of {rank} positive ints, "
            f"received {value!r}."
        ) from None


def padding_arg(layer, padding, allowed=conv_shapes.PADDINGS):
    """`padding` lower-cased and checked to be one of `allowed`."""
    value = padding.lower() if isinstance(padding, str) else padding
    if value not in allowed:
        raise ValueError(
            f"{_prefix(layer)}: padding must be one of {allowed}, received {padding!r}."
        )
    return value


def data_format_arg(layer, data_format):
    """`data_format` checked ('channels_last' / 'channels_first'; None is the global default)."""
    try:
        return config.standardize_data_format(data_format)
    except ValueError as e:
        raise ValueError(f"{_prefix(layer)}: {e}") from None


def positive_int_arg(layer, value, name):
    """`value` checked to be a positive int."""
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ValueError(
            f"{_prefix(layer)}: {name} must be a positive integer, received {value!r}."
        )
    return value


def check_rank(layer, input_shape, rank):
    """Fail unless `input_shape` is (batch, `rank` spatial dims, channels) in some order."""
    if len(input_shape) != rank + 2:
        raise ValueError(
            f"{_prefix(layer)}: expected inputs of rank {rank + 2} (batch, {rank} spatial "
            f"dim{'s' if rank > 1 else ''}, channels), received shape {tuple(input_shape)}."
        )


def known_channels(layer, input_shape, data_format):
    """The channel count of `input_shape`, which a layer with weights needs to know."""
    channels = conv_shapes.channels(input_shape, data_format)
    if channels is None:
        raise ValueError(
            f"{_prefix(layer)}: the channel dimension of the inputs must be known, received "
            f"shape {tuple(input_shape)}."
        )
    return channels


def output_shape(layer, input_shape, data_format, channels, length):
    """`input_shape` with the channel dim set to `channels` and each spatial dim n set to
    `length[i]` when `length` is a tuple of fixed sizes, else to `length(i, n)` (None stays
    None); a zero or negative length is an error."""
    lengths = []
    for i, n in enumerate(conv_shapes.spatial_shape(input_shape, data_format)):
        fixed = isinstance(length, tuple)
        out = length[i] if fixed else (None if n is None else length(i, n))
        if out is not None and out <= 0:
            raise ValueError(
                f"{_prefix(layer)}: inputs of shape {tuple(input_shape)} give an empty output "
                f"(spatial dim {i} has length {out})."
            )
        lengths.append(out)
    if data_format == "channels_first":
        return (input_shape[0], channels) + tuple(lengths)
    return (input_shape[0],) + tuple(lengths) + (channels,)
