"""NumPy recurrences written independently of tripod: the references the rnn tests compare to."""

import numpy as np


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def simple_rnn_step(weights):
    kernel, recurrent, bias = weights

    def step(x, states):
        h = np.tanh(x @ kernel + states[0] @ recurrent + bias)
        return h, [h]

    return step


def lstm_step(weights):
    kernel, recurrent, bias = weights
    u = recurrent.shape[0]

    def step(x, states):
        h, c = states
        z = x @ kernel + h @ recurrent + bias
        i, f, g, o = (z[:, k * u : (k + 1) * u] for k in range(4))
        c = sigmoid(f) * c + sigmoid(i) * np.tanh(g)
        h = sigmoid(o) * np.tanh(c)
        return h, [h, c]

    return step


def gru_step(weights, reset_after=True):
    kernel, recurrent, bias = weights
    u = recurrent.shape[0]

    def block(m, k):
        return m[..., k * u : (k + 1) * u]

    def step(x, states):
        h = states[0]
        if reset_after:
            xp = x @ kernel + bias[0]
            hp = h @ recurrent + bias[1]
            z = sigmoid(block(xp, 0) + block(hp, 0))
            r = sigmoid(block(xp, 1) + block(hp, 1))
            hh = np.tanh(block(xp, 2) + r * block(hp, 2))
        else:
            xp = x @ kernel + bias
            z = sigmoid(block(xp, 0) + h @ block(recurrent, 0))
            r = sigmoid(block(xp, 1) + h @ block(recurrent, 1))
            hh = np.tanh(block(xp, 2) + (r * h) @ block(recurrent, 2))
        h = z * h + (1 - z) * hh
        return h, [h]

    return step


def run(step, x, states, mask=None, go_backwards=False, zero_output_for_mask=False):
    """(per-step outputs (batch, time, units), last output, final states), Keras-style."""
    _batch, time = x.shape[:2]
    order = range(time - 1, -1, -1) if go_backwards else range(time)
    outputs, previous = [], np.zeros_like(states[0])
    for t in order:
        out, new = step(x[:, t], states)
        if mask is not None:
            keep = mask[:, t][:, None]
            new = [np.where(keep, n, o) for n, o in zip(new, states)]
            out = np.where(keep, out, 0.0 if zero_output_for_mask else previous)
        states, previous = new, out
        outputs.append(out)
    return np.stack(outputs, axis=1), previous, states


def conv1d(x, kernel, padding):
    """Direct 1-D cross-correlation of (batch, steps, in) with (k, in, out), stride 1."""
    k = kernel.shape[0]
    if padding == "same":
        left = (k - 1) // 2
        x = np.pad(x, ((0, 0), (left, k - 1 - left), (0, 0)))
    steps = x.shape[1] - k + 1
    return np.stack(
        [np.einsum("bki,kio->bo", x[:, t : t + k], kernel) for t in range(steps)], axis=1
    )


def conv_lstm1d_step(weights, padding):
    kernel, recurrent, bias = weights
    f = recurrent.shape[-2]

    def step(x, states):
        h, c = states
        z = conv1d(x, kernel, padding) + conv1d(h, recurrent, "same") + bias
        i, fg, g, o = (z[..., k * f : (k + 1) * f] for k in range(4))
        c = sigmoid(fg) * c + sigmoid(i) * np.tanh(g)
        h = sigmoid(o) * np.tanh(c)
        return h, [h, c]

    return step
