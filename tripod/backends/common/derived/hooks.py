"""Hooks with a shared implementation written over a backend's ops (torch has faster ones)."""

from tripod.backends import config

__all__ = [
    "batch_norm_training",
    "conv_with_bias",
    "lstm_sequence",
    "matmul_with_bias",
    "update_average",
]


def conv_with_bias(
    ops, inputs, kernel, bias, strides=1, padding="valid", data_format=None, dilation_rate=1
):
    outputs = ops.conv(inputs, kernel, strides, padding, data_format, dilation_rate)
    if config.standardize_data_format(data_format) == "channels_first":
        bias = ops.reshape(bias, (-1,) + (1,) * (len(ops.shape(outputs)) - 2))
    return ops.add(outputs, bias)


def matmul_with_bias(ops, x, kernel, bias):
    return ops.add(ops.matmul(x, kernel), bias)


def update_average(ops, variable, value, weight):
    return variable.assign_add(ops.multiply(ops.subtract(value, variable), weight))


def batch_norm_training(ops, x, axis, scale, offset, epsilon):
    axes = [a for a in range(len(ops.shape(x))) if a != axis % len(ops.shape(x))]
    mean, variance = ops.moments(x, axes=axes)
    outputs = ops.batch_normalization(
        x, mean, variance, axis, offset=offset, scale=scale, epsilon=epsilon
    )
    return outputs, mean, variance


def lstm_sequence(ops, inputs, h, c, kernel, recurrent_kernel, bias):
    """The input projection of every step in one matmul, then a scan of the recurrent half only
    (as native loops run an LSTM): gates i, f, c, o; sigmoid gates, tanh activations."""
    projected = ops.matmul(inputs, kernel)
    if bias is not None:
        projected = ops.add(projected, bias)

    def step(carry, z_inputs):
        h, c = carry
        z = ops.add(z_inputs, ops.matmul(h, recurrent_kernel))
        i, f, g, o = ops.split(z, 4, axis=-1)
        c = ops.add(ops.multiply(ops.sigmoid(f), c), ops.multiply(ops.sigmoid(i), ops.tanh(g)))
        h = ops.multiply(ops.sigmoid(o), ops.tanh(c))
        return (h, c), h

    (h, c), outputs = ops.scan(step, (h, c), ops.moveaxis(projected, 1, 0))
    return ops.moveaxis(outputs, 0, 1), h, c
