"""Direct nested-loop NumPy references for convolutions and pooling, on channels_last arrays.

Written from the definitions (a window slides over the zero-padded input; a transposed
convolution scatters each input element times the kernel into the output), independently of
tripod's own shape helpers.
"""

import itertools

import numpy as np


def same_pads(n, k, s, d=1):
    """TensorFlow's 'same' rule: output ceil(n / s), the odd padding element after."""
    span = (k - 1) * d + 1
    total = max((-(-n // s) - 1) * s + span - n, 0)
    return total // 2, total - total // 2


def _pads(spatial, ks, strides, padding, dilation):
    if padding == "same":
        return [same_pads(n, k, s, d) for n, k, s, d in zip(spatial, ks, strides, dilation)]
    if padding == "causal":
        return [((k - 1) * d, 0) for k, d in zip(ks, dilation)]
    return [(0, 0)] * len(spatial)


def conv(x, kernel, strides, padding, dilation, groups=1):
    """x (batch, *spatial, cin) correlated with kernel (*k, cin / groups, cout)."""
    rank = x.ndim - 2
    ks = kernel.shape[:rank]
    pads = _pads(x.shape[1:-1], ks, strides, padding, dilation)
    xp = np.pad(x.astype("float64"), [(0, 0)] + pads + [(0, 0)])
    out_sp = [
        (xp.shape[1 + i] - (ks[i] - 1) * dilation[i] - 1) // strides[i] + 1 for i in range(rank)
    ]
    cin_g, cout = kernel.shape[-2:]
    cout_g = cout // groups
    y = np.zeros((x.shape[0], *out_sp, cout))
    for pos in itertools.product(*map(range, out_sp)):
        for off in itertools.product(*map(range, ks)):
            idx = tuple(p * s + o * d for p, o, s, d in zip(pos, off, strides, dilation))
            v = xp[(slice(None),) + idx]
            for g in range(groups):
                out_slice = (slice(None),) + pos + (slice(g * cout_g, (g + 1) * cout_g),)
                y[out_slice] += (
                    v[:, g * cin_g : (g + 1) * cin_g]
                    @ kernel[off][:, g * cout_g : (g + 1) * cout_g]
                )
    return y


def conv_transpose(x, kernel, strides, padding, output_padding, dilation):
    """x (batch, *spatial, cin) with kernel (*k, cout, cin): each input element scatters
    x[i] @ kernel[k].T to output position i * s + k * d, then the 'same' crop applies."""
    rank = x.ndim - 2
    ks = kernel.shape[:rank]
    lengths, crops = [], []
    for i in range(rank):
        n, k, s, d = x.shape[1 + i], ks[i], strides[i], dilation[i]
        span = (k - 1) * d + 1
        op = None if output_padding is None else output_padding[i]
        if padding == "valid":
            length = n * s + max(span - s, 0) if op is None else (n - 1) * s + span + op
            crops.append(0)
        else:
            length = n * s if op is None else (n - 1) * s + span - 2 * (span // 2) + op
            # the gradient of a 'same' conv whose input has `length` elements
            crops.append(same_pads(length, k, s, d)[0])
        lengths.append(length)
    size = [
        max(
            (x.shape[1 + i] - 1) * strides[i] + (ks[i] - 1) * dilation[i] + 1, crops[i] + lengths[i]
        )
        for i in range(rank)
    ]
    full = np.zeros((x.shape[0], *size, kernel.shape[-2]))
    for pos in itertools.product(*map(range, x.shape[1:-1])):
        for off in itertools.product(*map(range, ks)):
            idx = tuple(p * s + o * d for p, o, s, d in zip(pos, off, strides, dilation))
            full[(slice(None),) + idx] += x[(slice(None),) + pos].astype("float64") @ kernel[off].T
    window = tuple(slice(c, c + n) for c, n in zip(crops, lengths))
    return full[(slice(None),) + window]


def depthwise_conv(x, kernel, strides, padding, dilation):
    """Each channel c correlated with kernel[..., c, :] (kernel (*k, cin, multiplier))."""
    rank = x.ndim - 2
    cin, mult = kernel.shape[-2:]
    grouped = kernel.reshape(kernel.shape[:rank] + (1, cin * mult))
    return conv(x, grouped, strides, padding, dilation, groups=cin)


def pool(x, pool_size, strides, padding, kind):
    """Max or mean of each window; 'same' padding cells are left out of both."""
    rank = x.ndim - 2
    pads = _pads(x.shape[1:-1], pool_size, strides, padding, (1,) * rank)
    xp = np.pad(x.astype("float64"), [(0, 0)] + pads + [(0, 0)], constant_values=np.nan)
    out_sp = [(xp.shape[1 + i] - pool_size[i]) // strides[i] + 1 for i in range(rank)]
    reduce = np.nanmax if kind == "max" else np.nanmean
    y = np.zeros((x.shape[0], *out_sp, x.shape[-1]))
    for pos in itertools.product(*map(range, out_sp)):
        window = tuple(slice(p * s, p * s + k) for p, s, k in zip(pos, strides, pool_size))
        y[(slice(None),) + pos] = reduce(
            xp[(slice(None),) + window], axis=tuple(range(1, rank + 1))
        )
    return y


def adaptive_pool(x, output_size, kind):
    """Window i of a dim of length n covers [floor(i n / m), ceil((i + 1) n / m))."""
    rank = x.ndim - 2
    reduce = np.max if kind == "max" else np.mean
    y = np.zeros((x.shape[0], *output_size, x.shape[-1]))
    for pos in itertools.product(*map(range, output_size)):
        window = tuple(
            slice(p * n // m, -(-(p + 1) * n // m))
            for p, n, m in zip(pos, x.shape[1:-1], output_size)
        )
        y[(slice(None),) + pos] = reduce(x[(slice(None),) + window], axis=tuple(range(1, rank + 1)))
    return y


def to_channels_first(x):
    return np.moveaxis(x, -1, 1)


def to_channels_last(x):
    return np.moveaxis(x, 1, -1)
