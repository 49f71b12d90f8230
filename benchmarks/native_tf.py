"""The benchmark problems as a hand-written TensorFlow loop (tf.function + GradientTape + Adam)."""

import numpy as np
import tensorflow as tf

from benchmarks.problems import PROBLEMS, samples_per_second, time_epochs


def _variables(name):
    rng = np.random.default_rng(0)

    def var(*shape, scale=0.05):
        return tf.Variable(rng.standard_normal(shape).astype("float32") * scale)

    if name == "tutorial_mlp":
        return [var(10, 32), var(32), var(32, 1), var(1)]
    if name == "mnist_mlp":
        return [var(784, 256), var(256), var(256, 256), var(256), var(256, 10), var(10)]
    return [var(3, 3, 1, 32), var(32), var(3, 3, 32, 64), var(64), var(1600, 10), var(10)]


def _forward(name, params, x):
    if name == "small_cnn":
        for w, b in (params[0:2], params[2:4]):
            x = tf.nn.max_pool2d(tf.nn.relu(tf.nn.conv2d(x, w, 1, "VALID") + b), 2, 2, "VALID")
        return tf.reshape(x, (tf.shape(x)[0], -1)) @ params[4] + params[5]
    pairs = list(zip(params[0::2], params[1::2]))
    for w, b in pairs[:-1]:
        x = tf.nn.relu(x @ w + b)
    return x @ pairs[-1][0] + pairs[-1][1]


def _loss(name, params, x, y):
    out = _forward(name, params, x)
    if name == "tutorial_mlp":
        return tf.reduce_mean(tf.square(out - y))
    return tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(y, out))


def fit(name, x, y):
    """(seconds of the first epoch, seconds per step after it)."""
    _, _, batch, samples, _ = PROBLEMS[name]
    lr = 0.01 if name == "tutorial_mlp" else 0.001
    params = _variables(name)
    m = [tf.Variable(tf.zeros_like(p)) for p in params]
    v = [tf.Variable(tf.zeros_like(p)) for p in params]
    t = tf.Variable(0.0)

    @tf.function(reduce_retracing=True)
    def step(xb, yb):
        with tf.GradientTape() as tape:
            loss = _loss(name, params, xb, yb)
        grads = tape.gradient(loss, params)
        t.assign_add(1.0)
        scale = lr * tf.sqrt(1 - 0.999**t) / (1 - 0.9**t)
        for p, mi, vi, g in zip(params, m, v, grads):
            mi.assign(0.9 * mi + 0.1 * g)
            vi.assign(0.999 * vi + 0.001 * g * g)
            p.assign_sub(scale * mi / (tf.sqrt(vi) + 1e-7))
        return loss

    rng = np.random.default_rng(0)

    def epoch():
        order = rng.permutation(samples)
        for start in range(0, samples, batch):
            index = order[start : start + batch]
            loss = step(tf.convert_to_tensor(x[index]), tf.convert_to_tensor(y[index]))
        return float(loss)

    return time_epochs(name, epoch)


def predict(name, x):
    """Samples per second of a tf.function forward loop in batches."""
    _, _, batch, samples, _ = PROBLEMS[name]
    params = _variables(name)
    forward = tf.function(lambda x: _forward(name, params, x), reduce_retracing=True)

    def one_pass():
        return np.concatenate(
            [forward(tf.convert_to_tensor(x[i : i + batch])).numpy() for i in range(0, samples, batch)]
        )

    one_pass()
    return samples_per_second(name, one_pass)
