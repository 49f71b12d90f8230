"""The functional API: two inputs, two outputs, one loss per output.

A made-up shop data set: each row has 6 numeric features and the id of one of 20 stores. Each
store has a hidden effect of its own. The model reads the features through Dense layers and the
store id through an Embedding, concatenates them and predicts two things: the day's `sales`
(regression, mean squared error) and whether the day is `busy` (yes/no, binary cross-entropy).
`compile` takes a dict of losses, a dict of loss weights and a dict of metrics keyed by output
name; `fit` takes dicts of inputs and targets keyed by input and output name.

Run: python examples/functional_multi_input.py   (pick the backend with TRIPOD_BACKEND=...)
"""

import numpy as np

import tripod as keras
from tripod import layers

FEATURES = 6
STORES = 20


def make_data(n, rng, store_effect, weights):
    """Inputs and targets as dicts keyed by the model's input and output names."""
    features = rng.standard_normal((n, FEATURES)).astype("float32")
    store_id = rng.integers(0, STORES, (n, 1)).astype("int32")
    sales = features @ weights + store_effect[store_id[:, 0]] + 0.1 * rng.standard_normal(n)
    inputs = {"features": features, "store_id": store_id}
    targets = {
        "sales": sales[:, None].astype("float32"),
        "busy": (sales > 1.0)[:, None].astype("float32"),
    }
    return inputs, targets


def build_model():
    features = keras.Input((FEATURES,), name="features")
    store_id = keras.Input((1,), dtype="int32", name="store_id")
    store = layers.Flatten()(layers.Embedding(STORES, 4, name="store_embedding")(store_id))
    hidden = layers.Dense(32, activation="relu")(layers.Concatenate()([features, store]))
    hidden = layers.Dense(32, activation="relu")(hidden)
    sales = layers.Dense(1, name="sales")(hidden)
    busy = layers.Dense(1, activation="sigmoid", name="busy")(hidden)
    model = keras.Model(
        {"features": features, "store_id": store_id}, {"sales": sales, "busy": busy}
    )
    model.compile(
        optimizer=keras.optimizers.Adam(0.005),
        loss={"sales": "mse", "busy": "binary_crossentropy"},
        loss_weights={"sales": 1.0, "busy": 0.5},
        metrics={"sales": ["mae"], "busy": ["accuracy"]},
    )
    return model


def main(epochs=30, train_size=4000):
    print(f"tripod {keras.__version__} on the {keras.config.backend()} backend")
    keras.utils.set_random_seed(0)
    rng = np.random.default_rng(0)
    store_effect = 2.0 * rng.standard_normal(STORES)
    weights = rng.standard_normal(FEATURES) / np.sqrt(FEATURES)
    x_train, y_train = make_data(train_size, rng, store_effect, weights)
    x_test, y_test = make_data(1000, rng, store_effect, weights)
    model = build_model()
    model.summary()
    model.fit(x_train, y_train, batch_size=64, epochs=epochs, verbose=0)
    scores = model.evaluate(x_test, y_test, verbose=0, return_dict=True)
    guess_mae = float(np.mean(np.abs(y_test["sales"] - y_train["sales"].mean())))
    guess_accuracy = float(max(y_test["busy"].mean(), 1 - y_test["busy"].mean()))
    print(f"sales: test MAE {scores['sales_mae']:.3f} (guessing the mean: {guess_mae:.3f})")
    print(f"busy: test accuracy {scores['busy_accuracy']:.3f} "
          f"(guessing the majority: {guess_accuracy:.3f})")  # fmt: skip
    return scores, guess_mae


if __name__ == "__main__":
    main()
