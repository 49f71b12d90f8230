"""int8 inference: `predict` time and weight memory of an MLP of `Dense` layers, float32 against
the same model after `model.quantize("int8")`, on the active backend (`TRIPOD_BACKEND`).

Usage: TRIPOD_BACKEND=jax python -m benchmarks.int8_predict [width] [depth] [batch] [runs]
"""

import sys
import time
import warnings

import numpy as np

import tripod


def mlp(width, depth):
    """`depth` Dense layers of `width` units (relu between them) over `width` inputs."""
    hidden = [tripod.layers.Dense(width, activation="relu") for _ in range(depth - 1)]
    return tripod.Sequential([tripod.Input((width,)), *hidden, tripod.layers.Dense(width)])


def weight_bytes(model):
    """Bytes held by the model's weights."""
    return sum(int(np.prod(v.shape)) * np.dtype(v.dtype).itemsize for v in model.weights)


def time_predict(model, x, batch, runs):
    """Best seconds of `runs` predict passes over `x`, after one warm-up pass (tracing)."""
    model.predict(x, batch_size=batch, verbose=0)
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        model.predict(x, batch_size=batch, verbose=0)
        best = min(best, time.perf_counter() - start)
    return best


def measure(width=1024, depth=4, batch=256, runs=5, batches=8):
    """{"float32": (seconds, bytes), "int8": (seconds, bytes), "max_abs_diff": float}."""
    x = np.random.default_rng(0).normal(size=(batch * batches, width)).astype("float32")
    model = mlp(width, depth)
    result = {"float32": (time_predict(model, x, batch, runs), weight_bytes(model))}
    reference = model.predict(x, batch_size=batch, verbose=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the InputLayer has no quantize
        model.quantize("int8")
    result["int8"] = (time_predict(model, x, batch, runs), weight_bytes(model))
    result["max_abs_diff"] = float(
        np.abs(model.predict(x, batch_size=batch, verbose=0) - reference).max()
    )
    return result


def main(argv):
    """Print the float32 / int8 table for the sizes in `argv`."""
    width, depth, batch, runs = ([int(a) for a in argv] + [1024, 4, 256, 5][len(argv) :])[:4]
    result = measure(width, depth, batch, runs)
    print(f"backend {tripod.config.backend()}: MLP {depth} x Dense({width}), batch {batch}")
    print("| weights | predict s | weight MiB |")
    print("|---|---|---|")
    for kind in ("float32", "int8"):
        seconds, size = result[kind]
        print(f"| {kind} | {seconds:.4f} | {size / 2**20:.2f} |")
    print(f"int8 vs float32 outputs: max abs difference {result['max_abs_diff']:.4g}")


if __name__ == "__main__":
    main(sys.argv[1:])
