"""Train on any backend, export to ONNX, serve with onnxruntime (no tripod, no framework).

A small classifier learns which of three clusters a 2-D point belongs to; `model.export` writes
it as `classifier.onnx` (opset 18, a dynamic batch named "batch"), and onnxruntime serves it.
`tripod.export.verify` then runs the file in a fresh process without tripod at batch sizes 1
and 5 and reports the largest difference from `model.predict`.

Run: python examples/export_onnx.py   (TRIPOD_BACKEND=jax|torch|tensorflow; needs
`pip install 'tripod[onnx-<backend>]'`)
"""

import os
import tempfile

import numpy as np
import onnxruntime

import tripod as keras
from tripod import layers

CENTERS = np.array([[0.0, 2.0], [2.0, -1.0], [-2.0, -1.0]], "float32")


def make_points(n, rng):
    labels = rng.integers(0, len(CENTERS), n)
    points = CENTERS[labels] + 0.5 * rng.standard_normal((n, 2)).astype("float32")
    return points, labels


def main(epochs=20, folder=None):
    print(f"tripod {keras.__version__} on the {keras.config.backend()} backend")
    keras.utils.set_random_seed(0)
    rng = np.random.default_rng(0)
    points, labels = make_points(600, rng)
    model = keras.Sequential([
        keras.Input((2,), name="point"),
        layers.Dense(16, activation="relu"),
        layers.Dense(len(CENTERS), activation="softmax", name="probabilities"),
    ])  # fmt: skip
    model.compile(optimizer=keras.optimizers.Adam(0.02), loss="sparse_categorical_crossentropy")
    model.fit(points, labels, epochs=epochs, batch_size=32, verbose=0)

    folder = folder or tempfile.mkdtemp()
    path = os.path.join(folder, "classifier.onnx")
    model.export(path, format="onnx")

    session = onnxruntime.InferenceSession(path, providers=["CPUExecutionProvider"])
    print("inputs:", [(i.name, i.shape) for i in session.get_inputs()])
    print("outputs:", [(o.name, o.shape) for o in session.get_outputs()])
    test_points, test_labels = make_points(200, rng)
    (probabilities,) = session.run(None, {"point": test_points})
    accuracy = float(np.mean(probabilities.argmax(axis=1) == test_labels))
    print(f"onnxruntime accuracy on new points: {accuracy:.3f}")

    report = keras.export.verify(path, model, test_points, batch_sizes=(1, 5))
    print(report)
    return accuracy, report.max_abs_diff


if __name__ == "__main__":
    main()
