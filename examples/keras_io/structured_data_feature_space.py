# Written for tripod in the style of keras.io's "Structured data classification with FeatureSpace"
# example (https://keras.io/examples/structured_data/structured_data_classification_with_feature_space/).
"""A table of patients (numbers, integer codes, a string code) goes through a `FeatureSpace`
adapted on a `tf.data` pipeline: normalized and discretized floats, one-hot categories and two
hashed crosses, concatenated. A small MLP trains on the encoded vectors in `tf.data`; a raw
sample is encoded and predicted. On TensorFlow (string tensors exist there alone, in Keras 3
too) an end-to-end model from `get_inputs()` takes raw feature dicts and must predict the same.

Synthetic data in place of the Cleveland heart-disease CSV: the label depends on age, a
string category and a numeric measurement.

Run: python examples/keras_io/structured_data_feature_space.py   (real Keras)
     python scripts/run_keras_io_examples.py structured_data_feature_space   (tripod)
"""

import keras
import numpy as np
import tensorflow as tf
from keras.utils import FeatureSpace


def make_table(n, seed):
    rng = np.random.default_rng(seed)
    table = {
        "age": rng.uniform(30, 80, n).astype("float32"),
        "sex": rng.integers(0, 2, n).astype("int64"),
        "cp": rng.integers(0, 4, n).astype("int64"),
        "chol": rng.normal(240, 40, n).astype("float32"),
        "thalach": rng.normal(150, 20, n).astype("float32"),
        "thal": rng.choice(["normal", "fixed", "reversible"], n),
    }
    risk = (
        (table["age"] - 55) / 12
        + 1.5 * (table["thal"] == "reversible")
        + (table["chol"] - 240) / 40
        + 0.5 * table["cp"]
        - 1.2
    )
    target = (risk + rng.normal(0, 0.3, n) > 0).astype("int64")
    return table, target


def to_dataset(table, target, batch_size=32, shuffle=False):
    ds = tf.data.Dataset.from_tensor_slices((dict(table), target))
    if shuffle:
        ds = ds.shuffle(len(target), seed=0)
    return ds.batch(batch_size)


def main(epochs=12, n_train=800, n_val=200):
    keras.utils.set_random_seed(1)
    train_ds = to_dataset(*make_table(n_train, 0), shuffle=True)
    val_ds = to_dataset(*make_table(n_val, 1))

    feature_space = FeatureSpace(
        features={
            "sex": FeatureSpace.integer_categorical(num_oov_indices=0),
            "cp": FeatureSpace.integer_categorical(num_oov_indices=0),
            "thal": FeatureSpace.string_categorical(num_oov_indices=0),
            "age": FeatureSpace.float_discretized(num_bins=10),
            "chol": FeatureSpace.float_normalized(),
            "thalach": FeatureSpace.float_normalized(),
        },
        crosses=[
            FeatureSpace.cross(feature_names=("sex", "age"), crossing_dim=16),
            FeatureSpace.cross(feature_names=("thal", "cp"), crossing_dim=16),
        ],
        output_mode="concat",
    )
    feature_space.adapt(train_ds.map(lambda x, _: x))

    for x, _ in train_ds.take(1):
        encoded_width = int(feature_space(x).shape[-1])

    preprocessed_train = train_ds.map(lambda x, y: (feature_space(x), y)).prefetch(2)
    preprocessed_val = val_ds.map(lambda x, y: (feature_space(x), y)).prefetch(2)

    encoded_features = feature_space.get_encoded_features()
    x = keras.layers.Dense(32, activation="relu")(encoded_features)
    x = keras.layers.Dropout(0.3)(x)
    predictions = keras.layers.Dense(1, activation="sigmoid")(x)
    training_model = keras.Model(inputs=encoded_features, outputs=predictions)
    training_model.compile(optimizer="adam", loss="binary_crossentropy", metrics=["accuracy"])
    history = training_model.fit(
        preprocessed_train, epochs=epochs, validation_data=preprocessed_val, verbose=0
    )

    # preprocess a raw sample in two steps: the feature space, then the model
    sample = {"age": 68.0, "sex": 1, "cp": 3, "chol": 290.0, "thal": "reversible", "thalach": 140.0}
    batch = {name: tf.constant([value]) for name, value in sample.items()}
    two_step = float(np.asarray(training_model.predict(feature_space(batch), verbose=0))[0, 0])
    result = {
        "encoded_width": encoded_width,
        "first_loss": history.history["loss"][0],
        "last_loss": history.history["loss"][-1],
        "val_accuracy": history.history["val_accuracy"][-1],
        "two_step": two_step,
    }
    if keras.backend.backend() == "tensorflow":  # string inputs: TensorFlow models alone
        # the end-to-end inference model, from raw feature dicts to the prediction
        dict_inputs = feature_space.get_inputs()
        inference_model = keras.Model(inputs=dict_inputs, outputs=predictions)
        input_dict = {name: keras.ops.convert_to_tensor([value]) for name, value in sample.items()}
        end_to_end = inference_model.predict(input_dict, verbose=0)
        result["end_to_end"] = float(np.asarray(end_to_end)[0, 0])
    return result


def check(result):
    # 2 + 4 + 3 one-hot categories, 10 age bins, 2 normalized floats, 2 crosses of 16
    assert result["encoded_width"] == 2 + 4 + 3 + 10 + 2 + 16 + 16, result
    assert result["last_loss"] < 0.7 * result["first_loss"], result
    assert result["val_accuracy"] > 0.8, result
    assert result["two_step"] > 0.5, result  # an old patient with a reversible defect
    if "end_to_end" in result:
        assert abs(result["end_to_end"] - result["two_step"]) < 1e-5, result


if __name__ == "__main__":
    outcome = main()
    print(outcome)
    check(outcome)
