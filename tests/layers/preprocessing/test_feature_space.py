"""`FeatureSpace`: hand-computed encodings, tf.data, saving, and a structured-data fit."""

import numpy as np
import pytest
import tensorflow as tf

import tripod
from tripod.backends import config
from tripod.layers.preprocessing.feature_space import FeatureSpace

TRAINS = config.backend() != "numpy"

DATA = {
    "f": np.array([1.0, 2.0, 3.0, 4.0]),
    "c": np.array(["a", "b", "a", "c"]),
    "i": np.array([1, 5, 5, 7]),
    "d": np.array([0.1, 0.5, 0.9, 0.3]),
    "r": np.array([2.0, 4.0, 6.0, 8.0]),
    "h": np.array([3, 9, 3, 2]),
}
NUMERIC = ("f", "d", "r", "h")


def to_numpy(x):
    return tripod.ops.convert_to_numpy(x)


def one_hot(index, depth):
    return np.eye(depth, dtype="float32")[index]


def _numeric_space(**kwargs):
    features = {
        "f": "float_normalized",
        "d": FeatureSpace.float_discretized(num_bins=2),
        "r": FeatureSpace.float_rescaled(scale=0.5, offset=1.0),
        "h": FeatureSpace.integer_hashed(4),
    }
    return FeatureSpace(features, **kwargs)


def _numeric(data=DATA):
    return {key: data[key] for key in NUMERIC}


def test_concatenates_hand_computed_encodings_in_name_order():
    space = FeatureSpace(
        {"f": "float_normalized", "c": "string_categorical", "i": "integer_categorical"}
    )
    space.adapt(DATA, verbose=0)
    out = to_numpy(space(DATA))
    # vocabularies by decreasing frequency, ties in decreasing order, after the OOV index 0
    c_index = {"a": 1, "c": 2, "b": 3}
    i_index = {5: 1, 7: 2, 1: 3}
    normalized = (DATA["f"] - 2.5) / np.sqrt(1.25)
    expected = [
        np.concatenate([one_hot(c_index[c], 4), [f], one_hot(i_index[i], 4)])
        for c, f, i in zip(DATA["c"], normalized, DATA["i"])
    ]
    np.testing.assert_allclose(out, np.asarray(expected), rtol=1e-5, atol=1e-6)
    unseen = to_numpy(space({"f": [2.5], "c": ["zzz"], "i": [42]}))
    np.testing.assert_allclose(
        unseen, [np.concatenate([one_hot(0, 4), [0.0], one_hot(0, 4)])], atol=1e-6
    )


def test_numeric_features_discretized_rescaled_and_hashed():
    space = _numeric_space(output_mode="dict")
    space.adapt(_numeric(), verbose=0)
    out = {key: to_numpy(value) for key, value in space(_numeric()).items()}
    assert sorted(out) == ["d", "f", "h", "r"]
    # num_bins=2: one boundary, the "lower" median of [0.1, 0.3, 0.5, 0.9] = 0.3
    np.testing.assert_array_equal(out["d"], one_hot([0, 1, 1, 1], 2))
    np.testing.assert_allclose(out["r"], DATA["r"].reshape(-1, 1) * 0.5 + 1.0)
    assert out["h"].shape == (4, 4) and np.all(out["h"].sum(axis=1) == 1)
    np.testing.assert_array_equal(out["h"][0], out["h"][2])  # equal values hash alike


def test_int_output_mode_and_crosses():
    space = FeatureSpace(
        {"c": FeatureSpace.string_categorical(output_mode="int"), "i": "integer_categorical"},
        output_mode="dict",
        crosses=[FeatureSpace.cross(("c", "i"), crossing_dim=16)],
    )
    space.adapt(DATA, verbose=0)
    out = {key: to_numpy(value) for key, value in space(DATA).items()}
    assert sorted(out) == ["c", "c_X_i", "i"]
    np.testing.assert_array_equal(out["c"], [[1], [3], [1], [2]])
    cross = out["c_X_i"]
    assert cross.shape == (4, 16) and np.all(cross.sum(axis=1) == 1)
    again = to_numpy(space({"c": ["b"], "i": [5]})["c_X_i"])
    np.testing.assert_array_equal(again[0], cross[1])  # the same pair lands in the same bin


def test_a_single_sample_gives_an_unbatched_result():
    space = _numeric_space()
    space.adapt(_numeric(), verbose=0)
    batch = to_numpy(space(_numeric()))
    single = to_numpy(space({key: value[1] for key, value in _numeric().items()}))
    np.testing.assert_allclose(single, batch[1], rtol=1e-6)


def test_adapts_on_a_dataset_of_batches_or_samples():
    expected = _numeric_space()
    expected.adapt(_numeric(), verbose=0)
    for dataset in (
        tf.data.Dataset.from_tensor_slices(_numeric()).batch(3),
        tf.data.Dataset.from_tensor_slices(_numeric()),
    ):
        space = _numeric_space()
        space.adapt(dataset, verbose=0)
        np.testing.assert_allclose(
            to_numpy(space(_numeric())), to_numpy(expected(_numeric())), rtol=1e-6
        )


def test_adapts_string_features_on_a_dataset():
    """A tf.data pipeline yields strings as bytes; the vocabulary learnt from it is the one a
    dict of NumPy strings gives."""
    features = {"c": "string_categorical", "i": "integer_categorical"}
    expected = FeatureSpace(features)
    expected.adapt({"c": DATA["c"], "i": DATA["i"]}, verbose=0)
    space = FeatureSpace(features)
    space.adapt(tf.data.Dataset.from_tensor_slices({"c": DATA["c"], "i": DATA["i"]}).batch(3))
    np.testing.assert_array_equal(to_numpy(space(DATA)), to_numpy(expected(DATA)))


def test_runs_in_a_tf_data_map():
    space = _numeric_space()
    space.adapt(_numeric(), verbose=0)
    eager = to_numpy(space(_numeric()))
    batched = tf.data.Dataset.from_tensor_slices(_numeric()).batch(3).map(space)
    np.testing.assert_allclose(
        np.concatenate(list(batched.as_numpy_iterator())), eager, rtol=1e-5, atol=1e-6
    )
    samples = tf.data.Dataset.from_tensor_slices(_numeric()).map(space)
    np.testing.assert_allclose(
        np.stack(list(samples.as_numpy_iterator())), eager, rtol=1e-5, atol=1e-6
    )


def test_lookups_run_in_a_tf_data_map():
    space = FeatureSpace({"c": "string_categorical", "i": "integer_categorical"})
    space.adapt(DATA, verbose=0)
    eager = to_numpy(space(DATA))
    data = {"c": DATA["c"], "i": DATA["i"]}
    piped = tf.data.Dataset.from_tensor_slices(data).batch(2).map(space)
    np.testing.assert_allclose(np.concatenate(list(piped.as_numpy_iterator())), eager)


def test_encoded_features_are_symbolic_inputs_of_the_output_shape():
    space = _numeric_space()
    space.adapt(_numeric(), verbose=0)
    encoded = space.get_encoded_features()
    assert tuple(encoded.shape) == (None, 1 + 2 + 4 + 1) and encoded.dtype == "float32"
    assert space.get_encoded_features() is encoded
    assert sorted(space.get_inputs()) == sorted(NUMERIC)


def test_encoded_features_of_lookups_without_oov_indices():
    """keras.io's FeatureSpace example: categories with `num_oov_indices=0`, whose vocabularies
    hold neither "" nor 0 (the encoded features were traced on such a row: an OOV error)."""
    space = FeatureSpace(
        {
            "c": FeatureSpace.string_categorical(num_oov_indices=0),
            "i": FeatureSpace.integer_categorical(num_oov_indices=0),
        }
    )
    space.adapt({"c": DATA["c"], "i": DATA["i"]}, verbose=0)
    encoded = space.get_encoded_features()
    assert tuple(encoded.shape) == (None, 3 + 3) and encoded.dtype == "float32"


@pytest.mark.skipif(config.backend() == "tensorflow", reason="tensorflow has string tensors")
def test_get_inputs_refuses_string_features():
    space = FeatureSpace({"c": "string_categorical"})
    with pytest.raises(TypeError, match="string features \\['c'\\] cannot be model inputs"):
        space.get_inputs()


@pytest.mark.skipif(config.backend() != "tensorflow", reason="string tensors: tensorflow alone")
def test_a_model_on_the_raw_inputs_takes_string_features():
    """keras.io's structured-data pattern: a model on the encoded features, then one from
    `get_inputs()` (strings too) through the space to it, predicting from raw columns."""
    space = FeatureSpace({"f": "float_normalized", "c": "string_categorical"})
    space.adapt(tf.data.Dataset.from_tensor_slices({k: DATA[k] for k in ("f", "c")}), verbose=0)
    inputs = space.get_inputs()
    assert inputs["c"].dtype == "string" and tuple(inputs["c"].shape) == (None, 1)
    encoded = space.get_encoded_features()
    head = tripod.Model(encoded, tripod.layers.Dense(1)(encoded))
    raw_model = tripod.Model(inputs, head(space(inputs)))
    raw = {"f": DATA["f"][:3, None], "c": DATA["c"][:3, None]}
    expected = head.predict(space(raw), verbose=0)
    np.testing.assert_allclose(raw_model.predict(raw, verbose=0), expected, rtol=1e-6)


def test_config_round_trip_and_save_load(tmp_path):
    space = FeatureSpace(
        {"f": "float_normalized", "c": "string_categorical", "h": "integer_hashed"},
        crosses=[("c", "h")],
        crossing_dim=8,
        hashing_dim=4,
    )
    space.adapt(DATA, verbose=0)
    config_ = space.get_config()
    assert FeatureSpace.from_config(config_).get_config() == config_
    path = str(tmp_path / "space.keras")
    space.save(path)
    loaded = tripod.saving.load_model(path)
    assert isinstance(loaded, FeatureSpace)
    data = {key: DATA[key] for key in ("f", "c", "h")}
    np.testing.assert_allclose(to_numpy(loaded(data)), to_numpy(space(data)), rtol=1e-6)


def test_clear_errors():
    with pytest.raises(ValueError, match="cannot be None or empty"):
        FeatureSpace({})
    with pytest.raises(ValueError, match="invalid feature type 'floaty' for feature 'x'"):
        FeatureSpace({"x": "floaty"})
    with pytest.raises(ValueError, match="names features \\['y'\\] that are not in `features`"):
        FeatureSpace({"x": "float"}, crosses=[("x", "y")])
    with pytest.raises(ValueError, match="output_mode must be one of"):
        FeatureSpace({"x": "float"}, output_mode="list")
    space = FeatureSpace({"f": "float_normalized"}, name="fs")
    with pytest.raises(ValueError, match="FeatureSpace 'fs': call `.adapt\\(dataset\\)`"):
        space({"f": DATA["f"]})
    space.adapt({"f": DATA["f"]}, verbose=0)
    with pytest.raises(ValueError, match="can only be called on a dict"):
        space(DATA["f"])
    with pytest.raises(ValueError, match="lacks the features \\['f'\\]"):
        space({"g": DATA["f"]})
    ints = FeatureSpace({"i": FeatureSpace.integer_hashed(4, output_mode="int")})
    with pytest.raises(ValueError, match="cannot concatenate feature 'i'"):
        ints({"i": DATA["i"]})


@pytest.mark.skipif(not TRAINS, reason="numpy is inference-only")
def test_a_structured_data_model_fits_from_a_tf_data_pipeline():
    rng = np.random.RandomState(0)
    n = 64
    data = {
        "f": rng.normal(size=n),
        "d": rng.uniform(size=n),
        "r": rng.uniform(0, 10, size=n),
        "h": rng.randint(0, 5, n),
    }
    target = (data["f"] > 0).astype("float32").reshape(-1, 1)
    space = _numeric_space()
    space.adapt(data, verbose=0)
    encoded = space.get_encoded_features()
    outputs = tripod.layers.Dense(1, activation="sigmoid")(
        tripod.layers.Dense(8, activation="relu")(encoded)
    )
    model = tripod.Model(encoded, outputs)
    model.compile(optimizer=tripod.optimizers.Adam(0.05), loss="binary_crossentropy")
    dataset = (
        tf.data.Dataset.from_tensor_slices((data, target)).batch(16).map(lambda x, y: (space(x), y))
    )
    history = model.fit(dataset, epochs=15, verbose=0)
    assert history.history["loss"][-1] < 0.5 * history.history["loss"][0]
    predictions = model.predict(space(data), verbose=0)
    assert np.mean((predictions > 0.5) == target) > 0.9


def test_a_model_from_the_inputs_to_predictions_on_the_encoded_features():
    """keras.io's pattern: a model trained on `get_encoded_features()`, and an end-to-end one
    from `get_inputs()` to the same predictions, which take raw feature dicts (on every backend
    without string features) and predict as the two steps do."""
    space = tripod.utils.FeatureSpace(
        features={
            "code": tripod.utils.FeatureSpace.integer_categorical(num_oov_indices=0),
            "size": tripod.utils.FeatureSpace.float_normalized(),
        },
        output_mode="concat",
    )
    data = {"code": np.array([1, 2, 3, 2]), "size": np.array([1.0, 2.0, 3.0, 4.0], "float32")}
    space.adapt(data)
    encoded = space.get_encoded_features()
    predictions = tripod.layers.Dense(1, kernel_initializer="ones")(encoded)
    trained_on_features = tripod.Model(encoded, predictions)
    end_to_end = tripod.Model(space.get_inputs(), predictions)
    raw = {key: value.reshape(-1, 1) for key, value in data.items()}
    two_steps = trained_on_features.predict(space(raw), verbose=0)
    np.testing.assert_allclose(end_to_end.predict(raw, verbose=0), two_steps, rtol=1e-6)
    assert space.get_inputs() is space.get_inputs()
