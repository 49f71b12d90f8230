"""The benchmark problems as a hand-written JAX loop (a jitted step with a plain Adam)."""

import jax
import jax.numpy as jnp
import numpy as np

from benchmarks.problems import PROBLEMS, samples_per_second, time_epochs


def _init(name, key):
    def dense(key, n_in, n_out):
        limit = np.sqrt(6 / (n_in + n_out))
        w = jax.random.uniform(key, (n_in, n_out), jnp.float32, minval=-limit, maxval=limit)
        return {"w": w, "b": jnp.zeros(n_out, jnp.float32)}

    keys = jax.random.split(key, 4)
    if name == "tutorial_mlp":
        return [dense(keys[0], 10, 32), dense(keys[1], 32, 1)]
    if name == "mnist_mlp":
        return [dense(keys[0], 784, 256), dense(keys[1], 256, 256), dense(keys[2], 256, 10)]

    def conv(key, n_in, n_out):
        return {"w": jax.random.normal(key, (3, 3, n_in, n_out), jnp.float32) * 0.1, "b": jnp.zeros(n_out, jnp.float32)}

    return [conv(keys[0], 1, 32), conv(keys[1], 32, 64), dense(keys[2], 1600, 10)]


def _forward(name, params, x):
    if name == "small_cnn":
        for layer in params[:2]:
            x = jax.lax.conv_general_dilated(x, layer["w"], (1, 1), "VALID", dimension_numbers=("NHWC", "HWIO", "NHWC"))
            x = jax.nn.relu(x + layer["b"])
            x = jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
        x = x.reshape(x.shape[0], -1)
        return x @ params[2]["w"] + params[2]["b"]
    for layer in params[:-1]:
        x = jax.nn.relu(x @ layer["w"] + layer["b"])
    return x @ params[-1]["w"] + params[-1]["b"]


def _loss(name, params, x, y):
    out = _forward(name, params, x)
    if name == "tutorial_mlp":
        return jnp.mean((out - y) ** 2)
    return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(out), y[:, None], axis=1))


def fit(name, x, y):
    """(seconds of the first epoch, seconds per step after it)."""
    _, _, batch, samples, _ = PROBLEMS[name]
    lr = 0.01 if name == "tutorial_mlp" else 0.001
    params = _init(name, jax.random.PRNGKey(0))
    state = (params, jax.tree.map(jnp.zeros_like, params), jax.tree.map(jnp.zeros_like, params), jnp.zeros((), jnp.float32))

    def step(state, x, y):
        params, m, v, t = state
        loss, grads = jax.value_and_grad(lambda p: _loss(name, p, x, y))(params)
        t = t + 1
        m = jax.tree.map(lambda m, g: 0.9 * m + 0.1 * g, m, grads)
        v = jax.tree.map(lambda v, g: 0.999 * v + 0.001 * g * g, v, grads)
        scale = lr * jnp.sqrt(1 - 0.999**t) / (1 - 0.9**t)
        params = jax.tree.map(lambda p, m, v: p - scale * m / (jnp.sqrt(v) + 1e-7), params, m, v)
        return (params, m, v, t), loss

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
    """Samples per second of a jitted forward loop in batches."""
    _, _, batch, samples, _ = PROBLEMS[name]
    params = _init(name, jax.random.PRNGKey(0))
    forward = jax.jit(lambda p, x: _forward(name, p, x))

    def one_pass():
        return np.concatenate([np.asarray(forward(params, x[i : i + batch])) for i in range(0, samples, batch)])

    one_pass()
    return samples_per_second(name, one_pass)
