"""The benchmark problems as a hand-written TensorFlow loop: tf.Variables and tf.nn ops (no Keras),
tf.function + GradientTape + a plain Adam. Every model is a pair (variables, forward):
`variables(problem)` gives (params, stats), nested dicts of trainable variables and of batch-norm
statistics; `forward(params, stats, x, training)` gives the outputs, moving the statistics when
training."""

import itertools

import numpy as np
import tensorflow as tf

from benchmarks.problems import PROBLEMS, samples_per_second, time_epochs

RNG = np.random.default_rng(0)


def _var(*shape, scale=0.05):
    return tf.Variable((RNG.standard_normal(shape) * scale).astype("float32"))


def _constant(value, width):
    return tf.Variable(tf.fill([width], value))


def _dense(n_in, n_out):
    return {"w": _var(n_in, n_out, scale=np.sqrt(2 / (n_in + n_out))), "b": _constant(0.0, n_out)}


def _conv(size, n_in, n_out, bias=True):
    layer = {"w": _var(size, size, n_in, n_out, scale=np.sqrt(2 / (size * size * (n_in + n_out))))}
    return {**layer, "b": _constant(0.0, n_out)} if bias else layer


def _norm(width):
    return {"gamma": _constant(1.0, width), "beta": _constant(0.0, width)}


def _apply(layer, x):
    return x @ layer["w"] + layer["b"]


def _convolve(layer, x, stride=1, padding="SAME"):
    y = tf.nn.conv2d(x, layer["w"], stride, padding)
    return y + layer["b"] if "b" in layer else y


def _dropout(x, training, rate=0.1):
    return tf.nn.dropout(x, rate) if training else x


def _layer_norm(layer, x, epsilon=1e-6):
    mean, var = tf.nn.moments(x, axes=[-1], keepdims=True)
    return tf.nn.batch_normalization(x, mean, var, layer["beta"], layer["gamma"], epsilon)


def _batch_norm(layer, stats, x, training, momentum=0.99, epsilon=1e-3):
    """Batch statistics in training (moving the running ones toward them), running ones otherwise."""
    if training:
        mean, var = tf.nn.moments(x, axes=[0, 1, 2])
        stats["mean"].assign(momentum * stats["mean"] + (1 - momentum) * mean)
        stats["var"].assign(momentum * stats["var"] + (1 - momentum) * var)
    else:
        mean, var = stats["mean"], stats["var"]
    return tf.nn.batch_normalization(x, mean, var, layer["beta"], layer["gamma"], epsilon)


def _mlp_variables(problem):
    sizes = (10, 32, 1) if problem.shape == (10,) else (784, 256, 256, 10)
    return [_dense(n_in, n_out) for n_in, n_out in itertools.pairwise(sizes)], {}


def _mlp(params, stats, x, training):
    for layer in params[:-1]:
        x = tf.nn.relu(_apply(layer, x))
    return _apply(params[-1], x)


def _cnn_variables(problem):
    return [_conv(3, 1, 32), _conv(3, 32, 64), _dense(1600, 10)], {}


def _cnn(params, stats, x, training):
    for layer in params[:2]:
        x = tf.nn.max_pool2d(tf.nn.relu(_convolve(layer, x, padding="VALID")), 2, 2, "VALID")
    return _apply(params[2], tf.reshape(x, (tf.shape(x)[0], -1)))


def _transformer_variables(problem, width=32, heads=2):
    params = {"tokens": _var(problem.vocab, width), "positions": _var(problem.shape[0], width),
              "norm1": _norm(width), "norm2": _norm(width)}  # fmt: skip
    shapes = {"query": (width, heads * width), "key": (width, heads * width), "value": (width, heads * width),
              "out": (heads * width, width), "ffn1": (width, 32), "ffn2": (32, width), "head1": (width, 20),
              "head2": (20, problem.units)}  # fmt: skip
    return {**params, **{name: _dense(*shape) for name, shape in shapes.items()}}, {}


def _attention(params, x, heads=2):
    """Self-attention with `heads` heads, each as wide as the input (Keras's key_dim = width)."""
    batch, length, width = tf.shape(x)[0], tf.shape(x)[1], x.shape[2]
    q, k, v = (
        tf.reshape(_apply(params[n], x), (batch, length, heads, width))
        for n in ("query", "key", "value")
    )
    weights = tf.nn.softmax(
        tf.einsum("bqhd,bkhd->bhqk", q, k) / np.sqrt(width).astype("float32"), axis=-1
    )
    attended = tf.reshape(tf.einsum("bhqk,bkhd->bqhd", weights, v), (batch, length, heads * width))
    return _apply(params["out"], attended)


def _transformer(params, stats, x, training):
    h = tf.nn.embedding_lookup(params["tokens"], x) + params["positions"][: x.shape[1]]
    h = _layer_norm(params["norm1"], h + _dropout(_attention(params, h), training))
    fed = _apply(params["ffn2"], tf.nn.relu(_apply(params["ffn1"], h)))
    h = _dropout(
        tf.reduce_mean(_layer_norm(params["norm2"], h + _dropout(fed, training)), axis=1), training
    )
    return _apply(params["head2"], _dropout(tf.nn.relu(_apply(params["head1"], h)), training))


STAGES = ((16, 16, 1), (16, 32, 2), (32, 64, 2))  # (filters in, filters out, stride) of each block


def _stats(width):
    return {
        key: tf.Variable(tf.fill([width], value), trainable=False)
        for key, value in (("mean", 0.0), ("var", 1.0))
    }


def _resnet_variables(problem):
    params = {"stem": _conv(3, 3, 16, bias=False), "stem_bn": _norm(16), "blocks": []}
    stats = {"stem_bn": _stats(16), "blocks": []}
    for n_in, n_out, stride in STAGES:
        block = {"conv1": _conv(3, n_in, n_out, False), "conv2": _conv(3, n_out, n_out, False),
                 "bn1": _norm(n_out), "bn2": _norm(n_out)}  # fmt: skip
        if stride != 1:
            block["shortcut"] = _conv(1, n_in, n_out)
        params["blocks"].append(block)
        stats["blocks"].append({"bn1": _stats(n_out), "bn2": _stats(n_out)})
    params["dense"] = _dense(64, problem.units)
    return params, stats


def _resnet(params, stats, x, training):
    x = tf.nn.relu(
        _batch_norm(params["stem_bn"], stats["stem_bn"], _convolve(params["stem"], x), training)
    )
    for block, block_stats, (_, _, stride) in zip(params["blocks"], stats["blocks"], STAGES):
        y = _batch_norm(
            block["bn1"], block_stats["bn1"], _convolve(block["conv1"], x, stride), training
        )
        y = _batch_norm(
            block["bn2"], block_stats["bn2"], _convolve(block["conv2"], tf.nn.relu(y)), training
        )
        x = tf.nn.relu(y + (_convolve(block["shortcut"], x, stride) if "shortcut" in block else x))
    return _apply(params["dense"], tf.reduce_mean(x, axis=[1, 2]))


def _lstm_variables(problem, width=64):
    cell = {"kernel": _var(width, 4 * width, scale=0.1), "recurrent": _var(width, 4 * width, scale=0.1),
            "bias": _constant(0.0, 4 * width)}  # fmt: skip
    return {"embed": _var(problem.vocab, width), "cell": cell, "dense": _dense(width, 1)}, {}


def _lstm(params, stats, x, training):
    """Embedding, an LSTM over time with tf.scan (gates i, f, c, o as Keras orders them), a sigmoid unit."""
    cell = params["cell"]
    inputs = tf.nn.embedding_lookup(params["embed"], x) @ cell["kernel"] + cell["bias"]

    def step(carry, z):
        h, c = carry
        i, f, g, o = tf.split(z + h @ cell["recurrent"], 4, axis=-1)
        c = tf.sigmoid(f) * c + tf.sigmoid(i) * tf.tanh(g)
        return tf.sigmoid(o) * tf.tanh(c), c

    zeros = tf.zeros((tf.shape(x)[0], cell["recurrent"].shape[0]))
    h, _ = tf.scan(step, tf.transpose(inputs, [1, 0, 2]), initializer=(zeros, zeros))
    return tf.sigmoid(_apply(params["dense"], h[-1]))


MODELS = {
    "tutorial_mlp": (_mlp_variables, _mlp), "mnist_mlp": (_mlp_variables, _mlp), "small_cnn": (_cnn_variables, _cnn),
    "transformer": (_transformer_variables, _transformer), "resnet": (_resnet_variables, _resnet),
    "lstm": (_lstm_variables, _lstm),
}  # fmt: skip


def _loss(name, params, stats, x, y):
    """Mean squared error, binary crossentropy or softmax crossentropy."""
    out = MODELS[name][1](params, stats, x, True)
    target = PROBLEMS[name].target
    if target == "regression":
        return tf.reduce_mean(tf.square(out - y))
    if target == "binary":
        p = tf.clip_by_value(out, 1e-7, 1 - 1e-7)
        return -tf.reduce_mean(y * tf.math.log(p) + (1 - y) * tf.math.log(1 - p))
    return tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(y, out))


def count(name):
    """(trainable scalars, batch-norm statistics scalars) of the problem's model."""
    params, stats = MODELS[name][0](PROBLEMS[name])
    return tuple(
        sum(int(np.prod(v.shape)) for v in tf.nest.flatten(tree)) for tree in (params, stats)
    )


def fit(name, x, y):
    """(seconds of the first epoch, seconds per step after it)."""
    batch, samples = PROBLEMS[name].batch, PROBLEMS[name].samples
    lr = 0.01 if name == "tutorial_mlp" else 0.001
    tree, stats = MODELS[name][0](PROBLEMS[name])
    params = tf.nest.flatten(tree)
    m = [tf.Variable(tf.zeros_like(p)) for p in params]
    v = [tf.Variable(tf.zeros_like(p)) for p in params]
    t = tf.Variable(0.0)

    @tf.function(reduce_retracing=True)
    def step(xb, yb):
        with tf.GradientTape() as tape:
            loss = _loss(name, tree, stats, xb, yb)
        grads = [
            tf.convert_to_tensor(g) for g in tape.gradient(loss, params)
        ]  # embeddings' are sparse
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
    """Samples per second of a tf.function forward loop (inference mode) in batches."""
    batch, samples = PROBLEMS[name].batch, PROBLEMS[name].samples
    params, stats = MODELS[name][0](PROBLEMS[name])
    forward = tf.function(lambda x: MODELS[name][1](params, stats, x, False), reduce_retracing=True)

    def one_pass():
        return np.concatenate(
            [
                forward(tf.convert_to_tensor(x[i : i + batch])).numpy()
                for i in range(0, samples, batch)
            ]
        )

    one_pass()
    return samples_per_second(name, one_pass)
