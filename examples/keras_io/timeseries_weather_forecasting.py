# Written for tripod in the style of keras.io's "Timeseries forecasting for weather prediction"
# example (https://keras.io/examples/timeseries/timeseries_weather_forecasting/).
"""Hourly readings of a few weather features, normalized with the training split's statistics,
cut into windows by `keras.utils.timeseries_dataset_from_array` (one sample every 3 hours over
the past 3 days), and an LSTM that predicts the temperature 12 hours after each window.
`ModelCheckpoint` keeps the best weights, `EarlyStopping` watches the validation loss.

Synthetic data in place of the Jena climate CSV: a daily and a slow seasonal cycle, a pressure
that leads the temperature, and noise. The model must beat the naive forecast "the same as the
last reading".

Run: python examples/keras_io/timeseries_weather_forecasting.py   (real Keras)
"""

import os
import tempfile

import keras
import numpy as np

PAST, FUTURE, STEP = 72, 12, 3


def make_readings(hours, seed=0):
    rng = np.random.default_rng(seed)
    t = np.arange(hours, dtype="float64")
    pressure = np.sin(2 * np.pi * (t + 12) / 240) + 0.1 * rng.standard_normal(hours)
    temperature = (
        8 * np.sin(2 * np.pi * t / 24)
        + 5 * np.sin(2 * np.pi * t / 240)
        + 0.5 * rng.standard_normal(hours)
    )
    humidity = -0.5 * temperature + rng.standard_normal(hours)
    wind = np.abs(rng.standard_normal(hours))
    return np.stack([temperature, pressure, humidity, wind], axis=1).astype("float32")


def main(epochs=6, hours=4000, batch_size=64):
    keras.utils.set_random_seed(2)
    features = make_readings(hours)
    split = int(0.7 * hours)
    mean, std = features[:split].mean(axis=0), features[:split].std(axis=0)
    features = (features - mean) / std
    train_data, val_data = features[:split], features[split:]

    start = PAST + FUTURE
    x_train = train_data[: len(train_data) - start]
    y_train = train_data[start:, 0]
    x_val = val_data[: len(val_data) - start]
    y_val = val_data[start:, 0]
    sequence_length = PAST // STEP

    dataset_train = keras.utils.timeseries_dataset_from_array(
        x_train,
        y_train,
        sequence_length=sequence_length,
        sampling_rate=STEP,
        batch_size=batch_size,
    )
    dataset_val = keras.utils.timeseries_dataset_from_array(
        x_val,
        y_val,
        sequence_length=sequence_length,
        sampling_rate=STEP,
        batch_size=batch_size,
    )
    for batch in dataset_train.take(1):
        inputs, targets = batch
    input_shape, target_shape = tuple(inputs.shape), tuple(targets.shape)

    inputs = keras.layers.Input(shape=(input_shape[1], input_shape[2]))
    lstm_out = keras.layers.LSTM(32)(inputs)
    outputs = keras.layers.Dense(1)(lstm_out)
    model = keras.Model(inputs=inputs, outputs=outputs)
    model.compile(optimizer=keras.optimizers.Adam(learning_rate=0.005), loss="mse")

    path_checkpoint = os.path.join(tempfile.mkdtemp(), "model_checkpoint.weights.h5")
    es_callback = keras.callbacks.EarlyStopping(monitor="val_loss", min_delta=0, patience=3)
    modelckpt_callback = keras.callbacks.ModelCheckpoint(
        monitor="val_loss",
        filepath=path_checkpoint,
        verbose=0,
        save_weights_only=True,
        save_best_only=True,
    )
    history = model.fit(
        dataset_train,
        epochs=epochs,
        validation_data=dataset_val,
        callbacks=[es_callback, modelckpt_callback],
        verbose=0,
    )
    model.load_weights(path_checkpoint)
    val_mse = model.evaluate(dataset_val, verbose=0)

    # the naive forecast: the temperature of the last reading in each window
    last = x_val[(sequence_length - 1) * STEP : len(x_val), 0][: len(y_val)]
    naive = y_val[: len(last)]
    naive_mse = float(np.mean((last[: len(naive)] - naive) ** 2))
    return {
        "input_shape": input_shape,
        "target_shape": target_shape,
        "first_loss": history.history["loss"][0],
        "last_loss": history.history["loss"][-1],
        "best_val_loss": min(history.history["val_loss"]),
        "val_mse": float(val_mse),
        "naive_mse": naive_mse,
    }


def check(result):
    assert result["input_shape"] == (64, PAST // STEP, 4), result
    assert result["target_shape"] == (64,), result
    assert result["last_loss"] < result["first_loss"], result
    assert abs(result["val_mse"] - result["best_val_loss"]) < 1e-4, result  # best weights loaded
    assert result["val_mse"] < 0.5 * result["naive_mse"], result


if __name__ == "__main__":
    outcome = main()
    print(outcome)
    check(outcome)
