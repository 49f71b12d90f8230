"""A benchmark process that stays up and answers one measurement at a time.

`python -m benchmarks.worker BACKEND SIDES [--tiny] [--jit-compile]` serves the sides named
(comma-separated: `tripod`, `native`, `keras`) on BACKEND. Each request on stdin is a JSON line
`{"side": ..., "problem": ..., "task": "fit" | "predict" | "count"}`; each answer is one stdout line,
REPLY followed by the JSON result. `--tiny` shrinks every problem (smoke tests). `--jit-compile`
(torch only) compiles the libraries' models with `jit_compile=True` and the native loop with
`torch.compile`.
"""

import functools
import importlib
import json
import sys

from benchmarks import keras_api, models, problems

NATIVE = {"jax": "native_jax", "torch": "native_torch", "tensorflow": "native_tf"}
REPLY = "@@reply "


def library_tasks(lib):
    """The tasks of a library with the Keras 3 API (the `tripod` or `keras` module)."""
    return {
        "fit": functools.partial(keras_api.fit, lib),
        "predict": lambda name, x, y: keras_api.predict(lib, name, x),
        "count": lambda name, x, y: model_counts(models.build(lib, name)[0]),
    }


def model_counts(model):
    """(trainable scalars, non-trainable scalars) of a tripod or Keras model."""
    return models.trainable_count(model), models.state_count(model)


def native_tasks(backend, jit_compile=False):
    """The tasks of the hand-written loop on `backend` (compiled: torch's loop only)."""
    native = importlib.import_module(f"benchmarks.{NATIVE[backend]}")
    compiled = {"compiled": True} if jit_compile else {}
    return {
        "fit": functools.partial(native.fit, **compiled),
        "predict": lambda name, x, y: native.predict(name, x, **compiled),
        "count": lambda name, x, y: native.count(name),
    }


def tasks(side, backend, jit_compile=False):
    """{task: function(problem, x, y)} for one side."""
    if side == "native":
        return native_tasks(backend, jit_compile)
    return library_tasks(importlib.import_module(side))


@functools.cache
def cached_data(name):
    """The problem's data, made once per process."""
    return problems.data(name)


def serve(backend, sides, tiny, jit_compile=False):
    """Answer requests from stdin until it closes."""
    if tiny:
        problems.shrink_all()
    if jit_compile:
        models.COMPILE_OPTIONS["jit_compile"] = True
    served = {side: tasks(side, backend, jit_compile) for side in sides}
    for line in sys.stdin:
        request = json.loads(line)
        x, y = cached_data(request["problem"])
        result = served[request["side"]][request["task"]](request["problem"], x, y)
        print(REPLY + json.dumps(result), flush=True)


if __name__ == "__main__":
    serve(
        sys.argv[1],
        sys.argv[2].split(","),
        "--tiny" in sys.argv[3:],
        "--jit-compile" in sys.argv[3:],
    )
