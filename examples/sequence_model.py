"""Recurrent networks on variable-length sequences: an LSTM and a bidirectional GRU.

Each sample is 3 to 12 digits (1-9), padded with zeros to length 12; the target is their sum.
`Embedding(mask_zero=True)` marks the padding, so the recurrent layers skip it: the models take
sequences of any length (`Input((None,))`) and predict the same for a sequence with or without its
padding. Both models are trained on the same data and their mean absolute error on held-out
sequences is printed next to that of always guessing the mean sum.

Run: python examples/sequence_model.py   (pick the backend with TRIPOD_BACKEND=...)
"""

import numpy as np

import tripod as keras
from tripod import layers

MAX_LEN = 12
SCALE = 50.0  # targets are sum / SCALE, so they sit near 1


def make_sequences(n, rng):
    """`n` zero-padded int sequences (n, MAX_LEN) and their sums."""
    lengths = rng.integers(3, MAX_LEN + 1, n)
    sequences = [rng.integers(1, 10, length).tolist() for length in lengths]
    padded = keras.utils.pad_sequences(sequences, maxlen=MAX_LEN, padding="post")
    sums = np.array([sum(s) for s in sequences], dtype="float32")
    return padded.astype("int32"), sums


def build_model(recurrent, name):
    model = keras.Sequential(
        [
            keras.Input((None,), dtype="int32"),
            layers.Embedding(10, 8, mask_zero=True),
            recurrent,
            layers.Dense(1),
        ],
        name=name,
    )
    model.compile(optimizer=keras.optimizers.Adam(0.01), loss="mse", metrics=["mae"])
    return model


def main(epochs=15, train_size=2000):
    print(f"tripod {keras.__version__} on the {keras.config.backend()} backend")
    keras.utils.set_random_seed(0)
    rng = np.random.default_rng(0)
    X_train, sums_train = make_sequences(train_size, rng)
    X_test, sums_test = make_sequences(500, rng)
    baseline = float(np.mean(np.abs(sums_test - sums_train.mean())))
    print(f"guessing the mean sum: test MAE {baseline:.2f}")
    models = [
        build_model(layers.LSTM(32), "lstm"),
        build_model(layers.Bidirectional(layers.GRU(16)), "bidirectional_gru"),
    ]
    shortest = int(np.argmin(np.count_nonzero(X_test, axis=1)))
    unpadded = X_test[shortest : shortest + 1, X_test[shortest] > 0]
    errors, padding_effects = {}, {}
    for model in models:
        model.fit(X_train, sums_train / SCALE, batch_size=64, epochs=epochs, verbose=0)
        predicted = SCALE * model.predict(X_test, verbose=0)[:, 0]
        errors[model.name] = float(np.mean(np.abs(predicted - sums_test)))
        without_padding = SCALE * model.predict(unpadded, verbose=0)[0, 0]
        padding_effects[model.name] = abs(float(without_padding - predicted[shortest]))
        print(f"{model.name}: test MAE {errors[model.name]:.2f}; {unpadded[0].tolist()} sums to "
              f"{sums_test[shortest]:.0f}; predicted {predicted[shortest]:.2f} with padding, "
              f"{without_padding:.2f} without")  # fmt: skip
    return baseline, errors, padding_effects


if __name__ == "__main__":
    main()
