"""A benchmark process that stays up and answers one measurement at a time.

`python -m benchmarks.worker BACKEND SIDES [--tiny]` serves the sides named (comma-separated:
`tripod`, `native`, `keras`) on BACKEND. Each request on stdin is a JSON line
`{"side": ..., "problem": ..., "task": "fit" | "predict" | "count"}`; each answer is one stdout line,
REPLY followed by the JSON result. `--tiny` shrinks every problem (smoke tests).
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


def native_tasks(backend):
    """The tasks of the hand-written loop on `backend`."""
    native = importlib.import_module(f"benchmarks.{NATIVE[backend]}")
    return {
        "fit": native.fit,
        "predict": lambda name, x, y: native.predict(name, x),
        "count": lambda name, x, y: native.count(name),
    }


def tasks(side, backend):
    """{task: function(problem, x, y)} for one side."""
    return (
        native_tasks(backend) if side == "native" else library_tasks(importlib.import_module(side))
    )


@functools.cache
def cached_data(name):
    """The problem's data, made once per process."""
    return problems.data(name)


def serve(backend, sides, tiny):
    """Answer requests from stdin until it closes."""
    if tiny:
        problems.shrink_all()
    served = {side: tasks(side, backend) for side in sides}
    for line in sys.stdin:
        request = json.loads(line)
        x, y = cached_data(request["problem"])
        result = served[request["side"]][request["task"]](request["problem"], x, y)
        print(REPLY + json.dumps(result), flush=True)


if __name__ == "__main__":
    serve(sys.argv[1], sys.argv[2].split(","), "--tiny" in sys.argv[3:])
