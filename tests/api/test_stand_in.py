"""`tripod.use_as_keras()`: `import keras` resolves to tripod, in a fresh interpreter per test
(the finder is process-wide and must come before any `import keras`)."""

import json

import pytest

from tests.saving.helpers import run_python
from tripod.backends import config

BACKEND = config.backend()

_RESOLVES = """
import json, sys, tripod
tripod.use_as_keras()
import keras
from keras import layers
from keras.src.ops import *
from keras.src.saving import serialization_lib
import keras.src.backend as private_backend
model = keras.Sequential([keras.Input((3,)), layers.Dense(2)])
found = {
    "version": [keras.__version__, keras.version()],
    "same_classes": keras.layers.Dense is tripod.layers.Dense and isinstance(model, tripod.Model),
    "star_import": matmul is tripod.ops.matmul,
    "safe_mode": serialization_lib.in_safe_mode(),
    "shape": list(private_backend.standardize_shape((None, 3))),
    "hasattr_missing": hasattr(keras, "no_such_name"),
}
if tripod.backend.backend() == "tensorflow":
    import tensorflow as tf
    found["tf_keras"] = tf.keras.layers.Dense is tripod.layers.Dense
errors = []
for path in ("keras.src.engine.base_layer", "keras.no_such_namespace"):
    try:
        __import__(path)
    except ImportError as error:
        errors.append(str(error))
found["errors"] = errors
print(json.dumps(found))
"""


def test_keras_and_its_private_paths_resolve_to_tripod():
    found = json.loads(run_python(_RESOLVES, BACKEND).strip().splitlines()[-1])
    assert found.pop("version") == ["3.15.0", "3.15.0"]
    private, public = found.pop("errors")
    assert private == (
        "keras.src.engine is a private Keras path that the tripod stand-in does not provide "
        "(imported from <string>:24); the paths it maps are listed in tripod/api/keras_src.py."
    )
    assert public == (
        "keras.no_such_namespace: tripod has no tripod.no_such_namespace (the stand-in for Keras "
        "maps keras.<name> to tripod.<name>; imported from <string>:24)."
    )
    expected = {
        "same_classes": True,
        "star_import": True,
        "safe_mode": True,
        "shape": [None, 3],
        "hasattr_missing": False,
    }
    if BACKEND == "tensorflow":
        expected["tf_keras"] = True  # TensorFlow's tf.keras is the stand-in, not the real Keras
    assert found == expected


@pytest.mark.skipif(BACKEND != "numpy", reason="the refusal precedes every backend: one run")
def test_refused_once_the_real_keras_came_first():
    pytest.importorskip("keras")
    code = (
        "import keras, tripod\n"
        "try:\n    tripod.use_as_keras()\nexcept RuntimeError as e:\n    print(e)"
    )
    out = run_python(code, BACKEND, env={"KERAS_BACKEND": "jax"})
    assert "use_as_keras() must run before `keras` is imported" in out
