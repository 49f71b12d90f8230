"""Training speed on an accelerator under `mixed_bfloat16`: tripod's `fit` on its jax backend
against Keras 3's `fit` (KERAS_BACKEND=jax, the same model-building function, given the `keras`
module instead of `tripod`) and against a hand-written JAX loop, on the same chip in one run.

Two models: a causal decoder LM (token + learned position embeddings, 6 pre-norm blocks of
width 512 with 8-head causal attention and a 2048-wide gelu MLP, vocabulary 8192, sequences of
512, batch 32; about 27.6M parameters) and a ResNet-style CNN on 32x32x3 images (a 64-filter stem,
stages of 64, 128 and 256 filters of two basic blocks each, batch 256; about 2.8M parameters). The
library sides compile with `optimizer="adam"`, `steps_per_execution=10` and `jit_compile=True` and
fit NumPy arrays. The native side keeps float32 parameters, casts them to bfloat16 in the forward
pass, forms layer norms, batch norms (running statistics updated too), attention logits
(`jax.nn.dot_product_attention`, causal) and the softmax cross-entropy (optax's) in float32, and runs one
`jax.jit` step (`optax.adam`, parameters and optimizer state donated) per NumPy batch, each copied
to the device as `fit` copies it.

Each side runs in a fresh process. An epoch is 20 steps; the first (which compiles) is timed
apart, and ms/step is the median of the next 3 epochs' times over their steps. The model FLOPs
of a step are XLA's cost analysis of the native side's compiled step, used for all three sides:
TFLOP/s and the share of the chip's bf16 peak (PEAKS, by `jax.devices()[0].device_kind`; "n/a"
on a CPU). XLA counts nothing inside a custom call, so on a GPU, where JAX can pick cuDNN's
attention kernel, the transformer's FLOPs leave out its attention. `--max-batch` instead finds, per
side and model, the largest batch that fits in device memory: the batch doubles from the default,
in fresh processes of one 10-step epoch each, until one runs out of memory (at most 64 times the
default; skipped on a CPU).

On the TPU (jax[tpu], keras and optax installed besides tripod):
    python -m benchmarks.accelerators                 # both models, 3 processes each
    python -m benchmarks.accelerators --max-batch     # the largest batches instead (many compiles)
    python -m benchmarks.accelerators --models transformer
`--smoke` shrinks both models (width 64, 2 blocks, sequences of 32, 16x16 images) to check that
every side runs, e.g. on a CPU; its numbers mean nothing. One side alone prints its JSON line:
    python -m benchmarks.accelerators --side tripod --model convnet --batch 256

Targets: tripod's ms/step at most 1.0x the native loop's on both models and below Keras's on
both; at least 45% of the bf16 peak on the transformer (XLA on a CPU counts 2.62 TFLOP a step,
so about 30 ms/step on a v5e); a largest batch at least the native loop's.
"""

import argparse
import importlib
import itertools
import json
import os
import re
import statistics
import subprocess
import sys
import time
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
import optax
from jax import lax

from benchmarks.models import _token_and_position
from benchmarks.run import ROOT

SIDES = ("native", "tripod", "keras")  # native first: its compiled step gives the FLOPs
STEPS_PER_EXECUTION = 10
#: bf16 peak FLOP/s of one chip by a piece of jax's `device_kind`, the first match counting
#: (a v5e says "TPU v5 lite", a v5p "TPU v5")
PEAKS = (("TPU v5 lite", 197e12), ("TPU v5e", 197e12), ("TPU v5", 459e12), ("TPU v4", 275e12),
         ("H100", 989e12), ("H200", 989e12), ("A100", 312e12))  # fmt: skip
OOM = re.compile(r"RESOURCE_EXHAUSTED|out of memory", re.IGNORECASE)
MAX_BATCH_FACTOR = 64
BF16 = jnp.bfloat16


class Transformer(NamedTuple):
    """Sizes of the causal decoder LM."""

    vocab: int
    width: int
    heads: int
    key_dim: int
    ffn: int
    blocks: int
    seq: int
    batch: int


class Convnet(NamedTuple):
    """Sizes of the ResNet-style CNN."""

    image: int
    widths: tuple  # filters of the stem and of each stage's blocks
    classes: int
    batch: int


class Schedule(NamedTuple):
    """How much of a side's run is timed."""

    steps: int  # per epoch, a multiple of STEPS_PER_EXECUTION
    epochs: int  # timed after the first


SIZES = {
    "transformer": {False: Transformer(8192, 512, 8, 64, 2048, 6, 512, 32),
                    True: Transformer(512, 64, 4, 16, 256, 2, 32, 4)},
    "convnet": {False: Convnet(32, (64, 128, 256), 10, 256), True: Convnet(16, (8, 16, 32), 10, 8)},
}  # fmt: skip
SCHEDULES = {False: Schedule(20, 3), True: Schedule(10, 2)}
PROBE = Schedule(STEPS_PER_EXECUTION, 0)  # a --max-batch run: one execution's epoch


def data(model, size, samples):
    """Fixed synthetic (x, y): tokens and the same tokens shifted by one, or images and labels."""
    rng = np.random.default_rng(0)
    if model == "transformer":
        tokens = rng.integers(0, size.vocab, (samples, size.seq + 1), dtype=np.int32)
        return np.ascontiguousarray(tokens[:, :-1]), np.ascontiguousarray(tokens[:, 1:])
    images = rng.standard_normal((samples, size.image, size.image, 3), dtype=np.float32)
    return images, rng.integers(0, size.classes, samples, dtype=np.int32)


def _blocks(size):
    """(filters in, filters out, stride) of each block: two a stage, later ones open strided."""
    outs = [width for width in size.widths for _ in range(2)]
    pairs = zip([outs[0], *outs], outs)
    return [(n_in, n_out, 2 if i and i % 2 == 0 else 1) for i, (n_in, n_out) in enumerate(pairs)]


# The models with the Keras 3 API: `K` is the `tripod` or the `keras` module.


def transformer(K, size):
    """The causal decoder LM: pre-norm blocks of attention and a gelu MLP, float32 logits."""
    layers = K.layers
    tokens = K.Input((size.seq,), dtype="int32")
    x = _token_and_position(K)(size.vocab, size.seq, size.width)(tokens)
    for _ in range(size.blocks):
        y = layers.LayerNormalization()(x)
        y = layers.MultiHeadAttention(size.heads, size.key_dim)(y, y, use_causal_mask=True)
        x = layers.Add()([x, y])
        y = layers.Dense(size.ffn, activation="gelu")(layers.LayerNormalization()(x))
        x = layers.Add()([x, layers.Dense(size.width)(y)])
    logits = layers.Dense(size.vocab, dtype="float32")(layers.LayerNormalization()(x))
    return K.Model(tokens, logits)


def convnet(K, size):
    """The ResNet-style CNN: stem conv-BN-relu, basic blocks, average pooling, float32 logits."""
    layers = K.layers
    images = K.Input((size.image, size.image, 3))
    x = layers.ReLU()(layers.BatchNormalization()(_conv(K, size.widths[0], 3)(images)))
    for _, n_out, stride in _blocks(size):
        x = _basic_block(K, x, n_out, stride)
    pooled = layers.GlobalAveragePooling2D()(x)
    return K.Model(images, layers.Dense(size.classes, dtype="float32")(pooled))


def _conv(K, filters, kernel, stride=1):
    """A "same" Conv2D of `K` without bias (a batch norm follows)."""
    return K.layers.Conv2D(filters, kernel, strides=stride, padding="same", use_bias=False)


def _basic_block(K, x, n_out, stride):
    """conv-BN-relu-conv-BN plus the shortcut (a strided 1x1 conv when the shape changes), relu."""
    layers = K.layers
    y = layers.ReLU()(layers.BatchNormalization()(_conv(K, n_out, 3, stride)(x)))
    y = layers.BatchNormalization()(_conv(K, n_out, 3)(y))
    changed = stride != 1 or x.shape[-1] != n_out
    shortcut = layers.Conv2D(n_out, 1, strides=stride)(x) if changed else x
    return layers.ReLU()(layers.Add()([y, shortcut]))


BUILDERS = {"transformer": transformer, "convnet": convnet}


# The same models as a hand-written JAX loop.


def _uniform(key, shape, limit):
    """Float32 values drawn uniformly from [-limit, limit]."""
    return jax.random.uniform(key, shape, jnp.float32, -limit, limit)


def _linear_init(key, n_in, n_out):
    """A Glorot-uniform kernel and a zero bias."""
    return {"w": _uniform(key, (n_in, n_out), np.sqrt(6 / (n_in + n_out))), "b": jnp.zeros(n_out)}


def _kernel_init(key, size, n_in, n_out):
    """A Glorot-uniform convolution kernel (HWIO), no bias."""
    return {"w": _uniform(key, (size, size, n_in, n_out), np.sqrt(6 / (size**2 * (n_in + n_out))))}


def _norm_init(width):
    """A norm's scale (ones) and offset (zeros)."""
    return {"gamma": jnp.ones(width), "beta": jnp.zeros(width)}


def _linear(layer, x):
    """`x @ w + b` in bfloat16."""
    return x @ layer["w"].astype(BF16) + layer["b"].astype(BF16)


def _layer_norm(layer, x, epsilon=1e-3):
    """Layer norm in float32, given back in bfloat16."""
    x = x.astype(jnp.float32)
    mean, var = x.mean(-1, keepdims=True), x.var(-1, keepdims=True)
    return ((x - mean) * lax.rsqrt(var + epsilon) * layer["gamma"] + layer["beta"]).astype(BF16)


def _transformer_init(key, size):
    """(params, no statistics) of the decoder LM, q, k and v as one projection."""
    keys = iter(jax.random.split(key, 4 * size.blocks + 3))
    inner, width = size.heads * size.key_dim, size.width
    blocks = [{"norm1": _norm_init(width), "qkv": _linear_init(next(keys), width, 3 * inner),
               "out": _linear_init(next(keys), inner, width), "norm2": _norm_init(width),
               "ffn1": _linear_init(next(keys), width, size.ffn),
               "ffn2": _linear_init(next(keys), size.ffn, width)} for _ in range(size.blocks)]  # fmt: skip
    return {"tokens": _uniform(next(keys), (size.vocab, width), 0.05),
            "positions": _uniform(next(keys), (size.seq, width), 0.05), "blocks": blocks,
            "norm": _norm_init(width), "logits": _linear_init(next(keys), width, size.vocab)}, {}  # fmt: skip


def _attention(block, x, heads):
    """Causal self-attention: bfloat16 heads, float32 logits and softmax inside the fused op."""
    batch, length, _ = x.shape
    qkv = _linear(block["qkv"], x).reshape(batch, length, 3 * heads, -1)
    encoded = jax.nn.dot_product_attention(*jnp.split(qkv, 3, axis=2), is_causal=True)
    return _linear(block["out"], encoded.reshape(batch, length, -1))


def _transformer(params, stats, x, size):
    """(float32 logits, statistics) of the decoder LM."""
    h = (params["tokens"][x] + params["positions"][: x.shape[1]]).astype(BF16)
    for block in params["blocks"]:
        h = h + _attention(block, _layer_norm(block["norm1"], h), size.heads)
        fed = jax.nn.gelu(_linear(block["ffn1"], _layer_norm(block["norm2"], h)), approximate=False)
        h = h + _linear(block["ffn2"], fed)
    h = _layer_norm(params["norm"], h).astype(jnp.float32)
    return h @ params["logits"]["w"] + params["logits"]["b"], stats


def _convnet_init(key, size):
    """(params, batch-norm running statistics) of the CNN."""
    plan, stem = _blocks(size), size.widths[0]
    keys = iter(jax.random.split(key, 3 * len(plan) + 2))
    params = {
        "stem": _kernel_init(next(keys), 3, 3, stem),
        "stem_bn": _norm_init(stem),
        "blocks": [],
    }
    stats = {"stem_bn": _stats_init(stem), "blocks": []}
    for n_in, n_out, stride in plan:
        block = {"conv1": _kernel_init(next(keys), 3, n_in, n_out), "bn1": _norm_init(n_out),
                 "conv2": _kernel_init(next(keys), 3, n_out, n_out), "bn2": _norm_init(n_out)}  # fmt: skip
        if stride != 1 or n_in != n_out:
            block["shortcut"] = {**_kernel_init(next(keys), 1, n_in, n_out), "b": jnp.zeros(n_out)}
        params["blocks"].append(block)
        stats["blocks"].append({"bn1": _stats_init(n_out), "bn2": _stats_init(n_out)})
    params["dense"] = _linear_init(next(keys), size.widths[-1], size.classes)
    return params, stats


def _stats_init(width):
    """A batch norm's running mean (zeros) and variance (ones)."""
    return {"mean": jnp.zeros(width), "var": jnp.ones(width)}


def _convolve(layer, x, stride=1):
    """A "same" convolution of bfloat16 operands (plus the bias, where the layer has one)."""
    y = lax.conv_general_dilated(x, layer["w"].astype(BF16), (stride, stride), "SAME",
                                 dimension_numbers=("NHWC", "HWIO", "NHWC"))  # fmt: skip
    return y + layer["b"].astype(BF16) if "b" in layer else y


def _batch_norm(layer, stats, x, momentum=0.99, epsilon=1e-3):
    """Training-mode batch norm in float32, given back in bfloat16, and the moved statistics."""
    x = x.astype(jnp.float32)
    mean, var = x.mean((0, 1, 2)), x.var((0, 1, 2))
    moved = {"mean": momentum * stats["mean"] + (1 - momentum) * mean,
             "var": momentum * stats["var"] + (1 - momentum) * var}  # fmt: skip
    y = (x - mean) * lax.rsqrt(var + epsilon) * layer["gamma"] + layer["beta"]
    return y.astype(BF16), moved


def _convnet(params, stats, x, size):
    """(float32 logits, new statistics) of the CNN in training mode."""
    x, stem = _batch_norm(
        params["stem_bn"], stats["stem_bn"], _convolve(params["stem"], x.astype(BF16))
    )
    x, new = jax.nn.relu(x), {"stem_bn": stem, "blocks": []}
    for block, old, (_, _, stride) in zip(params["blocks"], stats["blocks"], _blocks(size)):
        y, bn1 = _batch_norm(block["bn1"], old["bn1"], _convolve(block["conv1"], x, stride))
        y, bn2 = _batch_norm(block["bn2"], old["bn2"], _convolve(block["conv2"], jax.nn.relu(y)))
        x = jax.nn.relu(y + (_convolve(block["shortcut"], x, stride) if "shortcut" in block else x))
        new["blocks"].append({"bn1": bn1, "bn2": bn2})
    pooled = x.mean((1, 2)).astype(jnp.float32)
    return pooled @ params["dense"]["w"] + params["dense"]["b"], new


NATIVE = {"transformer": (_transformer_init, _transformer), "convnet": (_convnet_init, _convnet)}


def _cross_entropy(logits, y):
    """Mean softmax cross-entropy of integer labels, in float32 (optax's)."""
    return optax.softmax_cross_entropy_with_integer_labels(logits.astype(jnp.float32), y).mean()


def native_step(model, size):
    """(the jitted training step, its first state (params, statistics, optimizer state))."""
    init, forward = NATIVE[model]
    optimizer = optax.adam(1e-3, eps=1e-7)  # Keras's Adam defaults

    def loss(params, stats, x, y):
        """(mean cross-entropy, new statistics)."""
        logits, stats = forward(params, stats, x, size)
        return _cross_entropy(logits, y), stats

    def step(params, stats, opt_state, x, y):
        """One Adam step: (params, statistics, optimizer state, loss)."""
        (value, stats), grads = jax.value_and_grad(loss, has_aux=True)(params, stats, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), stats, opt_state, value

    params, stats = init(jax.random.PRNGKey(0), size)
    return jax.jit(step, donate_argnums=(0, 1, 2)), (params, stats, optimizer.init(params))


def run_native(model, size, batch, schedule, profile=None):
    """The native side's result; its "flops" are XLA's count for one step."""
    x, y = data(model, size, batch * schedule.steps)
    step, state = native_step(model, size)
    count = sum(leaf.size for leaf in jax.tree.leaves(state[:2]))
    start = time.perf_counter()
    compiled = step.lower(*state, x[:batch], y[:batch]).compile()
    rng, marks, trace = np.random.default_rng(1), [], EpochTrace(profile)
    for epoch in range(1 + schedule.epochs):
        order = rng.permutation(len(x))  # fit shuffles too
        trace.at(epoch)
        for index in np.split(order, schedule.steps):
            *state, loss = compiled(*state, x[index], y[index])
        float(loss)  # waits for the epoch's last step
        marks.append(time.perf_counter())
    trace.at(-1)
    cost = compiled.cost_analysis()
    cost = cost[0] if isinstance(cost, list) else cost
    return _result("native", model, batch, schedule, start, marks, count, flops=cost.get("flops"))


class EpochTrace:
    """With a `profile` folder, jax's profiler trace of the second epoch (the first timed one):
    `at(epoch)` starts it at epoch 1 and stops it at the next call (the next epoch, or -1 at the
    run's end). Writing the trace costs time: a profiled run's ms/step is not a measurement."""

    def __init__(self, profile):
        self.profile = profile
        self.running = False

    def at(self, epoch):
        """Start the trace at epoch 1; stop a running one at any later call."""
        if self.profile is not None and epoch == 1:
            jax.profiler.start_trace(self.profile)
            self.running = True
        elif self.running:
            jax.profiler.stop_trace()
            self.running = False


def _marker(K, marks, trace):
    """A callback of `K` that appends the time at each epoch's end to `marks` (and traces the
    second epoch into a `profile` folder)."""

    class Marker(K.callbacks.Callback):
        def on_epoch_begin(self, epoch, logs=None):
            """Start the trace of the second epoch."""
            trace.at(epoch)

        def on_epoch_end(self, epoch, logs=None):
            """Note the time once the epoch's steps are done."""
            float(logs["loss"])  # waits for the epoch's last step
            marks.append(time.perf_counter())

        def on_train_end(self, logs=None):
            """Stop a trace still running."""
            trace.at(-1)

    return Marker()


def run_library(name, model, size, batch, schedule, profile=None):
    """The result of `fit` on the library `name` (tripod or keras) under mixed_bfloat16."""
    K = importlib.import_module(name)
    K.config.set_dtype_policy("mixed_bfloat16")
    net = BUILDERS[model](K, size)
    net.compile(optimizer="adam", loss=K.losses.SparseCategoricalCrossentropy(from_logits=True),
                steps_per_execution=STEPS_PER_EXECUTION, jit_compile=True)  # fmt: skip
    x, y = data(model, size, batch * schedule.steps)
    marks = []
    start = time.perf_counter()
    net.fit(x, y, batch_size=batch, epochs=1 + schedule.epochs, verbose=0,
            callbacks=[_marker(K, marks, EpochTrace(profile))])  # fmt: skip
    return _result(name, model, batch, schedule, start, marks, net.count_params())


def _result(side, model, batch, schedule, start, marks, params, **extra):
    """One side's JSON result from the times at its epochs' ends."""
    timed = [(end - begin) / schedule.steps for begin, end in itertools.pairwise(marks)]
    device = jax.devices()[0]
    return {"side": side, "model": model, "batch": batch, "params": int(params),
            "first_s": marks[0] - start, "ms_per_step": statistics.median(timed) * 1e3 if timed else None,
            "device_kind": device.device_kind, "platform": device.platform, **extra}  # fmt: skip


def run_side(side, model, batch, smoke, probe, profile=None):
    """One side's result (a --max-batch probe: one execution's epoch, untimed)."""
    size, schedule = SIZES[model][smoke], PROBE if probe else SCHEDULES[smoke]
    if side == "native":
        return run_native(model, size, batch, schedule, profile)
    return run_library(side, model, size, batch, schedule, profile)


# The parent: each side in a fresh process, then the table.


def child(side, model, batch, smoke, probe=False):
    """A side's result from a fresh process, or {"error": its stderr} when it failed."""
    command = [sys.executable, "-m", "benchmarks.accelerators", "--side", side, "--model", model,
               "--batch", str(batch), *["--smoke"] * smoke, *["--probe"] * probe]  # fmt: skip
    env = {**os.environ, "TRIPOD_BACKEND": "jax", "KERAS_BACKEND": "jax"}
    out = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        print(f"{side} {model} batch {batch} failed:\n{out.stderr[-3000:]}", file=sys.stderr)
        return {"error": out.stderr or f"exit status {out.returncode}"}
    print(out.stdout.strip().splitlines()[-1], file=sys.stderr, flush=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def max_batch(side, model, smoke):
    """The largest batch that fits (a table cell): from the default, doubling until out of memory."""
    default = SIZES[model][smoke].batch
    fits, batch = None, default
    while batch <= MAX_BATCH_FACTOR * default:
        result = child(side, model, batch, smoke, probe=True)
        if "error" in result and fits and OOM.search(result["error"]):
            return str(fits)
        if "error" in result:
            return f"{fits} (then failed: {_last_line(result)[:100]})"
        if result["platform"] == "cpu":
            return "n/a (a CPU has no device memory)"
        fits, batch = batch, 2 * batch
    return f">= {fits} (cap)"


def _last_line(result):
    """The last line of a failed run's stderr."""
    return result["error"].strip().splitlines()[-1]


def peak(device_kind):
    """The chip's bf16 peak FLOP/s, or None for a device PEAKS does not name (a CPU)."""
    return next((flops for name, flops in PEAKS if name in device_kind), None)


def _row(model, side, result, flops, chip_peak):
    """One markdown table row."""
    if "error" in result:
        return f"| {model} | {side} | failed: {_last_line(result)[:150]} | | | | | |"
    step_s = result["ms_per_step"] / 1e3
    rate = flops / step_s if flops else None
    share = f"{rate / chip_peak:.1%}" if rate and chip_peak else "n/a"
    rate_cell = f"{rate / 1e12:.2f}" if rate else "n/a"
    cells = [model, side, f"{result['params']:,}", result["batch"], f"{result['ms_per_step']:.2f}",
             f"{result['first_s']:.1f}", rate_cell, share]  # fmt: skip
    return "| " + " | ".join(map(str, cells)) + " |"


def _ratios(model, results):
    """'model: tripod/native 0.98x, tripod/keras 0.80x' from the ms/step of the sides that ran."""
    if "error" in results["tripod"]:
        return f"{model}: no ratios, tripod failed"
    ours = results["tripod"]["ms_per_step"]
    ratios = [f"tripod/{side} {ours / results[side]['ms_per_step']:.2f}x"
              for side in SIDES if side != "tripod" and "error" not in results[side]]  # fmt: skip
    return f"{model}: " + ", ".join(ratios) + " (ms/step; below 1: tripod faster)"


def report(results):
    """The markdown table of every model's sides, then tripod's ratios per model."""
    header = ("| model | side | params | batch | ms/step | compile + first epoch s | model TFLOP/s "
              "| of bf16 peak |")  # fmt: skip
    lines = [header, "|---|---|---|---|---|---|---|---|"]
    for model, sides in results.items():
        flops = sides["native"].get("flops")
        kind = next((r["device_kind"] for r in sides.values() if "error" not in r), "")
        for side, result in sides.items():
            lines.append(_row(model, side, result, flops, peak(kind)))
    lines.append("")
    for model, sides in results.items():
        flops = sides["native"].get("flops")
        lines.append(_ratios(model, sides) + (f"; {flops / 1e9:.3g} GFLOP a step" if flops else ""))
    return "\n".join(lines)


def arguments(argv):
    """The command line: the parent's options, or a child's with --side."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", default=",".join(SIZES), help="comma-separated")
    parser.add_argument(
        "--sides", default=",".join(SIDES), help="comma-separated, with --max-batch"
    )
    parser.add_argument("--smoke", action="store_true", help="tiny models: checks that it runs")
    parser.add_argument(
        "--max-batch", action="store_true", help="find each side's largest batch instead"
    )
    parser.add_argument("--side", choices=SIDES, help="run one side here, print its JSON line")
    parser.add_argument("--model", choices=tuple(SIZES), help="with --side")
    parser.add_argument("--batch", type=int, help="with --side")
    parser.add_argument("--probe", action="store_true", help="with --side: one untimed epoch")
    parser.add_argument(
        "--profile",
        help="with --side: a folder for a trace of the 2nd epoch (its times are then no measurement)",
    )
    args = parser.parse_args(argv)
    if args.side and not args.model:
        parser.error("--side needs --model")
    return args


def main(argv=None):
    """Run one side (--side) or every side of each model and print the table."""
    args = arguments(argv)
    if args.side:
        batch = args.batch or SIZES[args.model][args.smoke].batch
        result = run_side(args.side, args.model, batch, args.smoke, args.probe, args.profile)
        print(json.dumps(result))
        return
    start = time.perf_counter()
    models = args.models.split(",")
    if args.max_batch:
        print("| model | side | largest batch |\n|---|---|---|")
        for model, side in itertools.product(models, args.sides.split(",")):
            print(f"| {model} | {side} | {max_batch(side, model, args.smoke)} |", flush=True)
    else:
        results = {}
        for model in models:
            batch = SIZES[model][args.smoke].batch
            results[model] = {side: child(side, model, batch, args.smoke) for side in SIDES}
        device = next((r for s in results.values() for r in s.values() if "error" not in r), {})
        print(f"device: {device.get('device_kind', 'unknown')}, mixed_bfloat16\n")
        print(report(results))
    print(f"\n{time.perf_counter() - start:.0f} s in all")


if __name__ == "__main__":
    main()
