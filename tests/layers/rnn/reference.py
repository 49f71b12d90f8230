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
        i, f, g, o = (z[:, k * u:(k + 1) * u] for k in range(4))
        c = sigmoid(f) * c + sigmoid(i) * np.tanh(g)
        h = sigmoid(o) * np.tanh(c)
        return h, [h, c]

    return step


def gru_step(weights, reset_after=True):
    kernel, recurrent, bias = weights
    u = recurrent.shape[0]

    def block(m, k):
        return m[..., k * u:(k + 1) * u]

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
    batch, time = x.shape[:2]
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
