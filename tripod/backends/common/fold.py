"""Index math of fold/unfold (sliding blocks of a 2-D image, torch semantics), shared by backends.

unfold gathers, for every kernel position and every block position, one pixel of the zero-padded
image; fold scatter-adds the same pixels back. Both use one static index table. `unfold` and
`fold` at the end do the array work for the backends whose tensors follow NumPy's API.
"""

import numpy as np

from tripod.backends.common import conv


def pair(value, name):
    """An int or two non-negative ints (fold/unfold padding) as a 2-tuple."""
    values = (value, value) if isinstance(value, int) else tuple(value)
    if len(values) != 2 or not all(isinstance(v, int) and v >= 0 for v in values):
        raise ValueError(f"{name} must be a non-negative int or 2 of them, received {value!r}.")
    return values


def block_args(kernel_size, dilation, padding, stride):
    """fold/unfold's kernel_size, dilation, padding and stride, each as a checked 2-tuple."""
    return (
        conv.normalize_tuple(kernel_size, 2, "kernel_size"),
        conv.normalize_tuple(dilation, 2, "dilation"),
        pair(padding, "padding"),
        conv.normalize_tuple(stride, 2, "stride"),
    )


def block_indices(spatial, kernel_size, dilation, padding, stride):
    """(padded (H, W), int32 table (kh * kw, L)) of flat pixel indices into the padded image.

    Row `i * kw + j` holds, for each of the L block positions in row-major order, the flat index
    of the pixel kernel element (i, j) covers.
    """
    padded = tuple(n + 2 * p for n, p in zip(spatial, padding))
    out = conv.unfold_output_shape(spatial, kernel_size, dilation, padding, stride)
    if min(out) <= 0:
        raise ValueError(
            f"no sliding block fits: spatial size {tuple(spatial)}, kernel {kernel_size}, "
            f"dilation {dilation}, padding {padding}."
        )
    rows = np.arange(kernel_size[0])[:, None] * dilation[0] + np.arange(out[0])[None, :] * stride[0]
    cols = np.arange(kernel_size[1])[:, None] * dilation[1] + np.arange(out[1])[None, :] * stride[1]
    flat = rows[:, None, :, None] * padded[1] + cols[None, :, None, :]
    return padded, flat.reshape(kernel_size[0] * kernel_size[1], out[0] * out[1]).astype(np.int32)


def unfold_plan(shape, kernel_size, dilation, padding, stride):
    """unfold's checked input: (padding (ph, pw), index table (kh * kw, L)) for an input `shape`."""
    if len(shape) != 4:
        raise ValueError(f"unfold needs a 4-D (N, C, H, W) input, received rank {len(shape)}.")
    kernel_size, dilation, padding, stride = block_args(kernel_size, dilation, padding, stride)
    _, table = block_indices(shape[2:], kernel_size, dilation, padding, stride)
    return padding, table


def fold_plan(shape, output_size, kernel_size, dilation, padding, stride):
    """fold's checked input: (output size, padding, padded (H, W), index table, channels) for an
    input `shape` of (N, C * kh * kw, L)."""
    if len(shape) != 3:
        raise ValueError(f"fold needs a 3-D (N, C*kH*kW, L) input, received rank {len(shape)}.")
    output_size = conv.normalize_tuple(output_size, 2, "output_size")
    kernel_size, dilation, padding, stride = block_args(kernel_size, dilation, padding, stride)
    padded, table = block_indices(output_size, kernel_size, dilation, padding, stride)
    _, depth, blocks = shape
    if depth % table.shape[0] or blocks != table.shape[1]:
        raise ValueError(
            f"fold: input shape {tuple(shape)} does not match the kernel and output size."
        )
    return output_size, padding, padded, table, depth // table.shape[0]


def unfold(xp, x, kernel_size, dilation, padding, stride):
    """unfold of a 4-D array `x` of the array module `xp` (numpy or jax.numpy)."""
    padding, table = unfold_plan(x.shape, kernel_size, dilation, padding, stride)
    n, c = x.shape[:2]
    padded = xp.pad(x, [(0, 0), (0, 0), (padding[0],) * 2, (padding[1],) * 2]).reshape(n, c, -1)
    return padded[:, :, table].reshape(n, c * table.shape[0], table.shape[1])


def fold(xp, add_at, x, output_size, kernel_size, dilation, padding, stride):
    """fold of a 3-D array `x` of the array module `xp` (numpy or jax.numpy).

    `add_at(out, table, values)` returns `out` (N, C, pixels) with `values` (N, C, *table.shape)
    added at the flat pixel indices of `table`, repeated indices accumulating.
    """
    output_size, padding, padded, table, c = fold_plan(
        x.shape, output_size, kernel_size, dilation, padding, stride
    )
    n = x.shape[0]
    blocks = x.reshape(n, c, *table.shape)
    out = add_at(xp.zeros((n, c, padded[0] * padded[1]), x.dtype), table, blocks)
    out = out.reshape(n, c, *padded)
    return out[
        :, :, padding[0] : padding[0] + output_size[0], padding[1] : padding[1] + output_size[1]
    ]
