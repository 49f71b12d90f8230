"""String inputs: end-to-end text models (`Input(dtype="string")` -> TextVectorization /
StringLookup -> a classifier) on the tensorflow backend — symbolic specs, fit / evaluate / predict
on NumPy arrays, lists and tf.data datasets of strings, save / load round trips — and the clear
error every other backend gives, as Keras 3 does."""

import numpy as np
import pytest

import tripod
from tripod.backends import config, dtypes
from tripod.layers.input_layer import InputLayer
from tripod.layers.preprocessing.string_lookup import StringLookup
from tripod.layers.preprocessing.text_vectorization import TextVectorization
from tripod.training.data_adapters import get_data_adapter

ON_TF = config.backend() == "tensorflow"
tf_only = pytest.mark.skipif(not ON_TF, reason="string tensors exist only on tensorflow")
not_tf = pytest.mark.skipif(ON_TF, reason="the tensorflow backend has string tensors")

DOCS = ["The cat sat.", "the dog sat!", "A cat"]
# counts: the 2, sat 2, cat 2, dog 1, a 1 -> ties in decreasing token order, as Keras
VOCAB = ["", "[UNK]", "the", "sat", "cat", "dog", "a"]
TEXTS = np.array(
    ["good great fine", "great good", "fine good nice", "bad awful", "awful poor bad", "poor bad"]
    * 2
)
LABELS = np.array([1, 1, 1, 0, 0, 0] * 2, "float32")
PROBE = ["good nice", "awful bad", "unknown words"]


def vectorizer(**kwargs):
    layer = TextVectorization(**kwargs)
    layer.adapt(DOCS)
    return layer


def text_classifier():
    """The keras.io end-to-end model: raw strings in, a probability out."""
    vectorize = TextVectorization(max_tokens=20, output_sequence_length=4)
    vectorize.adapt(TEXTS)
    inputs = tripod.Input(shape=(1,), dtype="string")
    x = tripod.layers.Embedding(20, 8)(vectorize(inputs))
    x = tripod.layers.GlobalAveragePooling1D()(x)
    outputs = tripod.layers.Dense(1, activation="sigmoid")(x)
    model = tripod.Model(inputs, outputs)
    model.compile(
        optimizer=tripod.optimizers.Adam(0.05), loss="binary_crossentropy", metrics=["accuracy"]
    )
    return model


@pytest.fixture(scope="module")
def trained():
    model = text_classifier()
    history = model.fit(TEXTS, LABELS, batch_size=6, epochs=6, verbose=0)
    return model, history.history


# -- dtypes and data adapters (every backend) ----------------------------------------------------
def test_string_is_a_dtype_name_without_arithmetic():
    assert dtypes.standardize_dtype("string") == "string"
    assert dtypes.to_numpy("string") == np.dtype(object)
    assert not dtypes.is_float("string") and not dtypes.is_int("string")
    with pytest.raises(TypeError, match="no arithmetic"):
        dtypes.result_type("string", "int32")
    with pytest.raises(TypeError, match="Unknown dtype"):
        dtypes.standardize_dtype("text")


def test_data_adapters_pass_strings_through_untouched():
    x = np.array(["a b", "c", "d e f"])
    y = np.array([1.0, 0.0, 1.0])
    batches = list(get_data_adapter(x, y, batch_size=2).get_iterator())
    assert batches[0][0].dtype == x.dtype and list(batches[0][0]) == ["a b", "c"]
    assert batches[0][1].dtype == np.float32  # floats still go to floatx
    (listed,) = get_data_adapter(["a b", "c"], batch_size=4).get_iterator()
    assert isinstance(listed, np.ndarray) and listed.tolist() == ["a b", "c"]

    def generator():
        yield ["x y", "z"], np.array([0.0, 1.0])

    (batch,) = get_data_adapter(generator()).get_iterator()
    assert batch[0].tolist() == ["x y", "z"] and batch[1].dtype == np.float32


def test_tf_data_string_batches_stay_bytes():
    tf = pytest.importorskip("tensorflow")
    dataset = tf.data.Dataset.from_tensor_slices((TEXTS[:4], LABELS[:4])).batch(4)
    (batch,) = get_data_adapter(dataset).get_iterator()
    assert batch[0].dtype == object and batch[0][0] == b"good great fine"


# -- the clear error where there are no string tensors ------------------------------------------
@not_tf
def test_string_input_is_a_clear_error_off_tensorflow():
    message = f"only on the tensorflow backend .*backend is '{config.backend()}'.*tf.data map"
    with pytest.raises(TypeError, match=message):
        tripod.Input(shape=(1,), dtype="string")
    with pytest.raises(TypeError, match=message):
        InputLayer.from_config({"batch_shape": [None, 1], "dtype": "string", "name": "text"})
    inverse = StringLookup(vocabulary=["a", "b"], invert=True)
    with pytest.raises(TypeError, match=message):  # its output would be a string tensor
        inverse(tripod.Input(shape=(2,), dtype="int64"))


def test_text_layers_refuse_symbolic_inputs_that_are_not_strings():
    for layer in (vectorizer(), StringLookup(vocabulary=["a"])):
        with pytest.raises(TypeError, match="dtype 'string'.*input pipeline"):
            layer(tripod.Input(shape=(1,)))
    with pytest.raises(TypeError, match="dtype int"):
        StringLookup(vocabulary=["a"], invert=True)(tripod.Input(shape=(1,)))


# -- string models on tensorflow -----------------------------------------------------------------
@tf_only
def test_string_input_and_symbolic_output_specs():
    inputs = tripod.Input(shape=(1,), dtype="string", name="text")
    assert inputs.dtype == "string" and inputs.shape == (None, 1)
    cases = [
        (vectorizer(output_sequence_length=5), (None, 5), "int64"),
        (vectorizer(), (None, None), "int64"),
        (vectorizer(output_mode="multi_hot"), (None, 6), "float32"),  # no mask index
        (vectorizer(output_mode="tf_idf"), (None, 6), "float32"),
        (StringLookup(vocabulary=["a", "b"]), (None, 1), "int64"),
        (StringLookup(vocabulary=["a", "b"], output_mode="one_hot"), (None, 3), "float32"),
    ]
    for layer, shape, dtype in cases:
        out = layer(inputs)
        assert (out.shape, out.dtype) == (shape, dtype), layer.name
    indices = StringLookup(vocabulary=["a", "b"])(inputs)
    inverted = StringLookup(vocabulary=["a", "b"], invert=True)(indices)
    assert (inverted.shape, inverted.dtype) == ((None, 1), "string")


@tf_only
def test_vectorizing_model_gives_hand_computed_indices():
    layer = vectorizer(output_sequence_length=4)
    assert layer.get_vocabulary() == VOCAB
    expected = [[2, 4, 3, 0], [1, 5, 0, 0], [6, 6, 6, 6]]  # the cat sat / ?? dog / a a a a a
    texts = ["The cat, sat", "unknown dog", "a a a a a"]
    # (batch, 1) and (batch,) strings feed Input((1,)); a model each: a traced step relaxes a
    # second input rank to an unknown one
    for data in (np.array(texts)[:, None], np.array(texts), texts):
        inputs = tripod.Input(shape=(1,), dtype="string")
        model = tripod.Model(inputs, layer(inputs))
        np.testing.assert_array_equal(model.predict(data, verbose=0), expected)
    lookup = StringLookup(vocabulary=["x", "y"])
    tokens = tripod.Input(shape=(3,), dtype="string")
    indices = lookup(tokens)
    back = StringLookup(vocabulary=["x", "y"], invert=True)(indices)
    indices_out, back_out = tripod.Model(tokens, [indices, back]).predict(
        np.array([["x", "y", "q"]]), verbose=0
    )
    np.testing.assert_array_equal(indices_out, [[1, 2, 0]])
    assert back_out.astype(str).tolist() == [["x", "y", "[UNK]"]]


@tf_only
def test_end_to_end_model_trains_and_predicts_on_every_string_source(trained):
    tf = pytest.importorskip("tensorflow")
    model, history = trained
    assert history["loss"][-1] < history["loss"][0]
    assert history["accuracy"][-1] == 1.0
    predictions = model.predict(np.array(PROBE), verbose=0)
    assert predictions.shape == (3, 1) and predictions[0, 0] > 0.5 > predictions[1, 0]
    np.testing.assert_allclose(model.predict(PROBE, verbose=0), predictions, rtol=1e-6)
    np.testing.assert_allclose(model.predict(tf.constant(PROBE), verbose=0), predictions, rtol=1e-6)
    dataset = tf.data.Dataset.from_tensor_slices(PROBE).batch(2)
    np.testing.assert_allclose(model.predict(dataset, verbose=0), predictions, rtol=1e-6)


@tf_only
def test_evaluate_on_a_tf_data_dataset_of_strings_matches_arrays(trained):
    tf = pytest.importorskip("tensorflow")
    model, _ = trained
    dataset = tf.data.Dataset.from_tensor_slices((TEXTS, LABELS)).batch(4)
    from_dataset = model.evaluate(dataset, verbose=0, return_dict=True)
    from_arrays = model.evaluate(TEXTS, LABELS, batch_size=4, verbose=0, return_dict=True)
    assert from_dataset["accuracy"] == 1.0
    np.testing.assert_allclose(from_dataset["loss"], from_arrays["loss"], rtol=1e-5)


@tf_only
def test_fit_on_a_tf_data_dataset_and_a_generator_of_strings():
    tf = pytest.importorskip("tensorflow")
    model = text_classifier()
    dataset = tf.data.Dataset.from_tensor_slices((TEXTS, LABELS)).batch(6)
    first = model.fit(dataset, epochs=2, verbose=0).history["loss"]

    def batches():
        while True:
            yield TEXTS[:6].tolist(), LABELS[:6]

    again = model.fit(batches(), steps_per_epoch=2, epochs=1, verbose=0).history["loss"]
    assert again[-1] < first[0]


@tf_only
def test_save_and_load_round_trip_gives_equal_predictions(trained, tmp_path):
    model, _ = trained
    path = str(tmp_path / "end_to_end.keras")
    model.save(path)
    loaded = tripod.saving.load_model(path)
    assert loaded.inputs[0].dtype == "string"
    vectorize = next(layer for layer in loaded.layers if isinstance(layer, TextVectorization))
    original = next(layer for layer in model.layers if isinstance(layer, TextVectorization))
    assert vectorize.get_vocabulary() == original.get_vocabulary()
    np.testing.assert_allclose(
        loaded.predict(PROBE, verbose=0), model.predict(PROBE, verbose=0), rtol=1e-6
    )
