"""Save on one backend, load on the others: one checkpoint, the same predictions everywhere.

A classifier (Dense, BatchNormalization, Dropout) is trained on the active backend and saved to
`model.keras`. `tripod.testing.check_backend_parity` then loads that file in a fresh process on
the active backend and on every other installed training backend (`TRIPOD_BACKEND=...` in each
subprocess), predicts on the same inputs and reports the largest differences from the active
backend's predictions; they must agree within 1e-5.

Run: TRIPOD_BACKEND=torch python examples/cross_backend.py   (then try jax or tensorflow)
"""

import os
import tempfile

import numpy as np

import tripod as keras
from tripod import layers
from tripod.testing import check_backend_parity, installed_backends

TRAINING_BACKENDS = ("jax", "torch", "tensorflow")
TOLERANCE = 1e-5  # largest absolute difference allowed between two backends' predictions


def make_data(n, rng):
    """Points in 8 dimensions, labelled by which of 3 fixed directions they lean along most."""
    X = rng.standard_normal((n, 8)).astype("float32")
    directions = np.eye(3, 8, dtype="float32") + np.eye(3, 8, k=3, dtype="float32")
    return X, np.argmax(X @ directions.T, axis=-1).astype("int32")


def build_model():
    model = keras.Sequential(
        [
            keras.Input((8,)),
            layers.Dense(32, activation="relu"),
            layers.BatchNormalization(),
            layers.Dropout(0.2),
            layers.Dense(3, activation="softmax"),
        ]
    )
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    return model


def main(epochs=20):
    backend = keras.config.backend()
    print(f"tripod {keras.__version__} on the {backend} backend")
    keras.utils.set_random_seed(0)
    rng = np.random.default_rng(0)
    X, y = make_data(2000, rng)
    X_test, y_test = make_data(200, rng)
    model = build_model()
    if backend == "numpy":
        print("the numpy backend is inference-only: saving the untrained model instead")
    else:
        model.fit(X, y, batch_size=64, epochs=epochs, verbose=0)
    accuracy = model.evaluate(X_test, y_test, verbose=0, return_dict=True)["accuracy"]
    print(f"test accuracy on {backend}: {accuracy:.3f}")

    others = [b for b in installed_backends() if b in TRAINING_BACKENDS and b != backend]
    if not others:
        print("no other training backend is installed: nothing to compare with")
        return None
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "model.keras")
        model.save(path)
        report = check_backend_parity(
            path, X_test, backends=others, reference=backend, atol=TOLERANCE, rtol=0
        )
    print(report)
    return report


if __name__ == "__main__":
    main()
