"""Classify handwritten digits: real data, a train/test split and a small MLP.

scikit-learn's `load_digits` ships 1797 8x8 grey images of the digits 0-9 inside the package (no
download). A quarter is held out; the rest trains Dense(64, relu) -> Dropout -> Dense(10, softmax)
with Adam and sparse categorical cross-entropy. The held-out accuracy is printed (about 0.97).

Needs the `examples` extra: pip install -c constraints.txt -e ".[examples]"
Run: python examples/digits_classification.py   (pick the backend with TRIPOD_BACKEND=...)
"""

import numpy as np
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

import tripod as keras
from tripod import layers


def load_data():
    """Pixels scaled to [0, 1], flattened to 64 features; a stratified 75/25 split."""
    digits = load_digits()
    X = (digits.data / 16.0).astype("float32")
    y = digits.target.astype("int32")
    return train_test_split(X, y, test_size=0.25, stratify=y, random_state=0)


def build_model():
    model = keras.Sequential(
        [
            keras.Input((64,)),
            layers.Dense(64, activation="relu"),
            layers.Dropout(0.1),
            layers.Dense(10, activation="softmax"),
        ]
    )
    model.compile(
        optimizer=keras.optimizers.Adam(0.003),
        loss="sparse_categorical_crossentropy",
        metrics=["accuracy"],
    )
    return model


def main(epochs=30):
    print(f"tripod {keras.__version__} on the {keras.config.backend()} backend")
    keras.utils.set_random_seed(0)
    X_train, X_test, y_train, y_test = load_data()
    model = build_model()
    model.fit(X_train, y_train, batch_size=32, epochs=epochs, verbose=0)
    scores = model.evaluate(X_test, y_test, verbose=0, return_dict=True)
    print(f"{len(X_train)} training images, {len(X_test)} test images")
    print(f"test loss {scores['loss']:.4f}, test accuracy {scores['accuracy']:.4f}")
    predicted = np.argmax(model.predict(X_test[:10], verbose=0), axis=-1)
    print(f"first ten test digits: true {y_test[:10].tolist()}, predicted {predicted.tolist()}")
    return scores["accuracy"]


if __name__ == "__main__":
    main()
