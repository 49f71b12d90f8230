"""The benchmark problems as a hand-written JAX loop: hand-written layers, a jitted step with a
plain Adam. Every model is a pair (init, forward): `init(key, problem)` gives (params, stats), the
trainable arrays and the batch-norm statistics; `forward(params, stats, x, training, key)` gives
(outputs, new stats), with `key` driving dropout."""

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from benchmarks.problems import PROBLEMS, samples_per_second, time_epochs


def _dense(key, n_in, n_out):
    limit = np.sqrt(6 / (n_in + n_out))
    w = jax.random.uniform(key, (n_in, n_out), jnp.float32, minval=-limit, maxval=limit)
    return {"w": w, "b": jnp.zeros(n_out, jnp.float32)}


def _conv(key, size, n_in, n_out, bias=True):
    limit = np.sqrt(6 / (size * size * (n_in + n_out)))
    layer = {
        "w": jax.random.uniform(
            key, (size, size, n_in, n_out), jnp.float32, minval=-limit, maxval=limit
        )
    }
    return {**layer, "b": jnp.zeros(n_out, jnp.float32)} if bias else layer


def _embedding(key, vocab, width):
    return jax.random.uniform(key, (vocab, width), jnp.float32, minval=-0.05, maxval=0.05)


def _norm(width):
    return {"gamma": jnp.ones(width, jnp.float32), "beta": jnp.zeros(width, jnp.float32)}


def _apply(layer, x):
    return x @ layer["w"] + layer["b"]


def _convolve(layer, x, stride=1, padding="SAME"):
    y = lax.conv_general_dilated(
        x, layer["w"], (stride, stride), padding, dimension_numbers=("NHWC", "HWIO", "NHWC")
    )
    return y + layer["b"] if "b" in layer else y


def _dropout(key, x, training, rate=0.1):
    if not training:
        return x
    return jnp.where(jax.random.bernoulli(key, 1 - rate, x.shape), x / (1 - rate), 0.0)


def _layer_norm(layer, x, epsilon=1e-6):
    mean, var = x.mean(-1, keepdims=True), x.var(-1, keepdims=True)
    return (x - mean) * lax.rsqrt(var + epsilon) * layer["gamma"] + layer["beta"]


def _batch_norm(layer, stats, x, training, momentum=0.99, epsilon=1e-3):
    """Batch statistics in training (and the running ones moved toward them), running ones otherwise."""
    if training:
        mean, var = x.mean((0, 1, 2)), x.var((0, 1, 2))
        stats = {"mean": momentum * stats["mean"] + (1 - momentum) * mean,
                 "var": momentum * stats["var"] + (1 - momentum) * var}  # fmt: skip
    else:
        mean, var = stats["mean"], stats["var"]
    return (x - mean) * lax.rsqrt(var + epsilon) * layer["gamma"] + layer["beta"], stats


def _mlp_init(key, problem):
    sizes = (10, 32, 1) if problem.shape == (10,) else (784, 256, 256, 10)
    keys = jax.random.split(key, len(sizes))
    return [_dense(k, n_in, n_out) for k, n_in, n_out in zip(keys, sizes[:-1], sizes[1:])], {}


def _mlp(params, stats, x, training, key):
    for layer in params[:-1]:
        x = jax.nn.relu(_apply(layer, x))
    return _apply(params[-1], x), stats


def _cnn_init(key, problem):
    keys = jax.random.split(key, 3)
    return [_conv(keys[0], 3, 1, 32), _conv(keys[1], 3, 32, 64), _dense(keys[2], 1600, 10)], {}


def _cnn(params, stats, x, training, key):
    for layer in params[:2]:
        x = jax.nn.relu(_convolve(layer, x, padding="VALID"))
        x = lax.reduce_window(x, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
    return _apply(params[2], x.reshape(x.shape[0], -1)), stats


def _transformer_init(key, problem, width=32, heads=2):
    keys = iter(jax.random.split(key, 10))
    params = {"tokens": _embedding(next(keys), problem.vocab, width),
              "positions": _embedding(next(keys), problem.shape[0], width),
              "norm1": _norm(width), "norm2": _norm(width)}  # fmt: skip
    for name in ("query", "key", "value"):
        params[name] = _dense(next(keys), width, heads * width)
    shapes = {"out": (heads * width, width), "ffn1": (width, 32), "ffn2": (32, width), "head1": (width, 20),
              "head2": (20, problem.units)}  # fmt: skip
    return {**params, **{name: _dense(next(keys), *shape) for name, shape in shapes.items()}}, {}


def _attention(params, x, heads=2):
    """Self-attention with `heads` heads, each as wide as the input (Keras's key_dim = width)."""
    batch, length, width = x.shape
    q, k, v = (
        _apply(params[n], x).reshape(batch, length, heads, width) for n in ("query", "key", "value")
    )
    weights = jax.nn.softmax(jnp.einsum("bqhd,bkhd->bhqk", q, k) * width**-0.5, axis=-1)
    return _apply(
        params["out"],
        jnp.einsum("bhqk,bkhd->bqhd", weights, v).reshape(batch, length, heads * width),
    )


def _transformer(params, stats, x, training, key):
    drops = jax.random.split(key, 4) if training else [None] * 4
    h = params["tokens"][x] + params["positions"][: x.shape[1]]
    h = _layer_norm(params["norm1"], h + _dropout(drops[0], _attention(params, h), training))
    fed = _apply(params["ffn2"], jax.nn.relu(_apply(params["ffn1"], h)))
    h = _layer_norm(params["norm2"], h + _dropout(drops[1], fed, training))
    h = _dropout(drops[2], h.mean(axis=1), training)
    return _apply(
        params["head2"], _dropout(drops[3], jax.nn.relu(_apply(params["head1"], h)), training)
    ), stats


STAGES = ((16, 16, 1), (16, 32, 2), (32, 64, 2))  # (filters in, filters out, stride) of each block


def _resnet_init(key, problem):
    keys = iter(jax.random.split(key, 3 * len(STAGES) + 2))
    params = {"stem": _conv(next(keys), 3, 3, 16, bias=False), "stem_bn": _norm(16), "blocks": []}
    stats = {"stem_bn": _stats(16), "blocks": []}
    for n_in, n_out, stride in STAGES:
        block = {"conv1": _conv(next(keys), 3, n_in, n_out, False), "conv2": _conv(next(keys), 3, n_out, n_out, False),
                 "bn1": _norm(n_out), "bn2": _norm(n_out)}  # fmt: skip
        if stride != 1:
            block["shortcut"] = _conv(next(keys), 1, n_in, n_out)
        params["blocks"].append(block)
        stats["blocks"].append({"bn1": _stats(n_out), "bn2": _stats(n_out)})
    params["dense"] = _dense(next(keys), 64, problem.units)
    return params, stats


def _stats(width):
    return {"mean": jnp.zeros(width, jnp.float32), "var": jnp.ones(width, jnp.float32)}


def _resnet(params, stats, x, training, key):
    x, stem_stats = _batch_norm(
        params["stem_bn"], stats["stem_bn"], _convolve(params["stem"], x), training
    )
    x, new_stats = jax.nn.relu(x), {"stem_bn": stem_stats, "blocks": []}
    for block, block_stats, (_, _, stride) in zip(params["blocks"], stats["blocks"], STAGES):
        y, bn1 = _batch_norm(
            block["bn1"], block_stats["bn1"], _convolve(block["conv1"], x, stride), training
        )
        y, bn2 = _batch_norm(
            block["bn2"], block_stats["bn2"], _convolve(block["conv2"], jax.nn.relu(y)), training
        )
        x = jax.nn.relu(y + (_convolve(block["shortcut"], x, stride) if "shortcut" in block else x))
        new_stats["blocks"].append({"bn1": bn1, "bn2": bn2})
    return _apply(params["dense"], x.mean(axis=(1, 2))), new_stats


def _lstm_init(key, problem, width=64):
    keys = jax.random.split(key, 4)
    cell = {"kernel": _dense(keys[1], width, 4 * width)["w"], "bias": jnp.zeros(4 * width, jnp.float32),
            "recurrent": jax.random.normal(keys[2], (width, 4 * width), jnp.float32) * width**-0.5}  # fmt: skip
    return {
        "embed": _embedding(keys[0], problem.vocab, width),
        "cell": cell,
        "dense": _dense(keys[3], width, 1),
    }, {}


def _lstm(params, stats, x, training, key):
    """Embedding, an LSTM over time with lax.scan (gates i, f, c, o as Keras orders them), a sigmoid unit."""
    cell = params["cell"]
    inputs = params["embed"][x] @ cell["kernel"] + cell["bias"]

    def step(carry, z):
        h, c = carry
        i, f, g, o = jnp.split(z + h @ cell["recurrent"], 4, axis=-1)
        c = jax.nn.sigmoid(f) * c + jax.nn.sigmoid(i) * jnp.tanh(g)
        h = jax.nn.sigmoid(o) * jnp.tanh(c)
        return (h, c), None

    zeros = jnp.zeros((x.shape[0], cell["recurrent"].shape[0]), jnp.float32)
    (h, _), _ = lax.scan(step, (zeros, zeros), jnp.swapaxes(inputs, 0, 1))
    return jax.nn.sigmoid(_apply(params["dense"], h)), stats


MODELS = {
    "tutorial_mlp": (_mlp_init, _mlp), "mnist_mlp": (_mlp_init, _mlp), "small_cnn": (_cnn_init, _cnn),
    "transformer": (_transformer_init, _transformer), "resnet": (_resnet_init, _resnet), "lstm": (_lstm_init, _lstm),
}  # fmt: skip


def _loss(name, params, stats, x, y, key):
    """(loss, new stats): mean squared error, binary crossentropy or softmax crossentropy."""
    out, stats = MODELS[name][1](params, stats, x, True, key)
    target = PROBLEMS[name].target
    if target == "regression":
        return jnp.mean((out - y) ** 2), stats
    if target == "binary":
        p = jnp.clip(out, 1e-7, 1 - 1e-7)
        return -jnp.mean(y * jnp.log(p) + (1 - y) * jnp.log(1 - p)), stats
    return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(out), y[:, None], axis=1)), stats


def _init(name):
    return MODELS[name][0](jax.random.PRNGKey(0), PROBLEMS[name])


def count(name):
    """(trainable scalars, batch-norm statistics scalars) of the problem's model."""
    params, stats = _init(name)
    return tuple(sum(leaf.size for leaf in jax.tree.leaves(tree)) for tree in (params, stats))


def fit(name, x, y):
    """(seconds of the first epoch, seconds per step after it)."""
    batch, samples = PROBLEMS[name].batch, PROBLEMS[name].samples
    lr = 0.01 if name == "tutorial_mlp" else 0.001
    params, stats = _init(name)
    m, v = (jax.tree.map(jnp.zeros_like, params) for _ in range(2))
    state = (params, stats, m, v, jnp.zeros((), jnp.float32), jax.random.PRNGKey(1))

    def step(state, x, y):
        params, stats, m, v, t, key = state
        key, drop = jax.random.split(key)
        (loss, stats), grads = jax.value_and_grad(
            lambda p: _loss(name, p, stats, x, y, drop), has_aux=True
        )(params)
        t = t + 1
        m = jax.tree.map(lambda m, g: 0.9 * m + 0.1 * g, m, grads)
        v = jax.tree.map(lambda v, g: 0.999 * v + 0.001 * g * g, v, grads)
        scale = lr * jnp.sqrt(1 - 0.999**t) / (1 - 0.9**t)
        params = jax.tree.map(lambda p, m, v: p - scale * m / (jnp.sqrt(v) + 1e-7), params, m, v)
        return (params, stats, m, v, t, key), loss

    step = jax.jit(step, donate_argnums=0)
    rng = np.random.default_rng(0)

    def epoch():
        # like the torch and tensorflow loops (and fit), it reads the epoch's last loss
        nonlocal state
        order = rng.permutation(samples)
        for start in range(0, samples, batch):
            index = order[start : start + batch]
            state, loss = step(state, x[index], y[index])
        return float(loss)

    return time_epochs(name, epoch)


def predict(name, x):
    """Samples per second of a jitted forward loop (inference mode) in batches."""
    batch, samples = PROBLEMS[name].batch, PROBLEMS[name].samples
    params, stats = _init(name)
    forward = jax.jit(lambda p, s, x: MODELS[name][1](p, s, x, False, None)[0])

    def one_pass():
        return np.concatenate(
            [np.asarray(forward(params, stats, x[i : i + batch])) for i in range(0, samples, batch)]
        )

    one_pass()
    return samples_per_second(name, one_pass)
