"""TextVectorization against hand-computed vocabularies and outputs: standardize / split / ngrams /
output modes, adapt sources, vocabulary files, tf-idf values, the tf.Tensor (tf.data) path equal to
the host path, config round trips and a small text-classification fit fed by a tf.data map."""

import json

import numpy as np
import pytest

import tripod
from tests.backends.ops.harness import stored_dtype
from tests.layers.harness import TRAINS, to_numpy
from tripod.backends import active
from tripod.layers.preprocessing.string_lookup import StringLookup
from tripod.layers.preprocessing.text_vectorization import TextVectorization
from tripod.saving import serialization

ops = active()

DOCS = ["The cat sat.", "the dog sat!", "A cat"]
# counts: the 2, sat 2, cat 2, dog 1, a 1 -> ties in decreasing order, as Keras
VOCAB = ["", "[UNK]", "the", "sat", "cat", "dog", "a"]


def adapted(**kwargs):
    layer = TextVectorization(**kwargs)
    layer.adapt(DOCS)
    return layer


def out(layer, x):
    result = layer(x)
    assert ops.is_tensor(result)
    return to_numpy(result)


def test_default_adapt_int_outputs():
    layer = adapted()
    assert layer.get_vocabulary() == VOCAB and layer.vocabulary_size() == 7
    assert layer.get_vocabulary(include_special_tokens=False) == VOCAB[2:]
    result = layer(np.array([["The cat, sat"], ["unknown dog"]]))
    assert ops.dtype(result) == stored_dtype("int64")
    np.testing.assert_array_equal(to_numpy(result), [[2, 4, 3], [1, 5, 0]])
    np.testing.assert_array_equal(
        out(layer, ["a", "cat cat cat cat"]), [[6, 0, 0, 0], [4, 4, 4, 4]]
    )
    np.testing.assert_array_equal(out(layer, "the dog"), [2, 5])


def test_output_sequence_length_pads_and_truncates():
    layer = adapted(output_sequence_length=3)
    np.testing.assert_array_equal(out(layer, ["a", "the cat sat the dog"]), [[6, 0, 0], [2, 4, 3]])


@pytest.mark.parametrize(
    "standardize, expected",
    [
        (None, ["", "[UNK]", "sat", "the", "dog,", "cat", "The"]),
        ("lower", ["", "[UNK]", "the", "sat", "dog,", "cat"]),
        ("strip_punctuation", ["", "[UNK]", "sat", "the", "dog", "cat", "The"]),
        ("lower_and_strip_punctuation", ["", "[UNK]", "the", "sat", "dog", "cat"]),
    ],
)
def test_standardize_presets(standardize, expected):
    layer = TextVectorization(standardize=standardize)
    layer.adapt(["The cat sat", "the dog, sat"])
    assert layer.get_vocabulary() == expected


def test_lower_is_ascii_only_as_keras():
    layer = TextVectorization(vocabulary=["école", "École"], standardize="lower")
    # "ÉCOLE" -> "École" (É is not ASCII), not "école"
    np.testing.assert_array_equal(out(layer, ["ÉCOLE école"]), [[3, 2]])


def _shout(strings):
    """A standardize callable: the host path gives it a NumPy str array."""
    return np.char.upper(strings)


def _on_commas(documents):
    """A split callable on the host path: one list of tokens per document."""
    return [doc.split(",") for doc in documents]


def test_callables_and_character_split():
    layer = TextVectorization(standardize=_shout, split=_on_commas)
    layer.adapt(["a,b", "b,c,b"])
    assert layer.get_vocabulary() == ["", "[UNK]", "B", "C", "A"]
    np.testing.assert_array_equal(out(layer, ["c,a,z"]), [[3, 4, 1]])
    chars = TextVectorization(split="character", standardize=None)
    chars.adapt(["abca", "éa"])
    assert chars.get_vocabulary() == ["", "[UNK]", "a", "é", "c", "b"]
    np.testing.assert_array_equal(out(chars, ["bé", "x"]), [[5, 3], [1, 0]])


def test_no_split_maps_whole_strings():
    layer = TextVectorization(split=None, vocabulary=["hello world", "b"])
    np.testing.assert_array_equal(out(layer, ["Hello, World!", "b", "c"]), [[2], [3], [1]])
    np.testing.assert_array_equal(out(layer, [["b", "b"]]), [[3, 3]])


def test_ngrams_int_and_tuple():
    layer = TextVectorization(ngrams=2, vocabulary=["a", "b", "a b", "b c"])
    # unigrams first, then bigrams: a b c | a b, b c
    np.testing.assert_array_equal(out(layer, ["a b c"]), [[2, 3, 1, 4, 5]])
    only_bigrams = TextVectorization(ngrams=(2,), vocabulary=["a b", "b c"])
    np.testing.assert_array_equal(out(only_bigrams, ["a b c", "a"]), [[2, 3], [0, 0]])
    counts = TextVectorization(ngrams=(1, 3), output_mode="count", vocabulary=["x", "x x x"])
    np.testing.assert_array_equal(out(counts, ["x x x x"]), [[0, 4, 2]])


def test_multi_hot_count_and_pad_to_max_tokens():
    multi = adapted(output_mode="multi_hot")
    assert multi.get_vocabulary() == VOCAB[1:]  # no padding index outside "int"
    expected = [[0, 1, 1, 1, 0, 0], [1, 0, 0, 0, 1, 0]]
    result = multi(np.array(["The cat, sat", "unknown dog unknown"]))
    assert ops.dtype(result) == "float32"
    np.testing.assert_array_equal(to_numpy(result), expected)
    count = adapted(output_mode="count", max_tokens=8, pad_to_max_tokens=True)
    np.testing.assert_array_equal(out(count, ["cat cat x y a"]), [[2, 0, 0, 2, 0, 1, 0, 0]])
    capped = adapted(max_tokens=4)
    assert capped.get_vocabulary() == VOCAB[:4]


def test_tf_idf_values():
    layer = adapted(output_mode="tf_idf")
    idf = {
        t: np.log(1 + 3 / (1 + df))
        for t, df in {"the": 2, "sat": 2, "cat": 2, "dog": 1, "a": 1}.items()
    }
    weights = [idf[t] for t in VOCAB[2:]]
    np.testing.assert_allclose(layer.get_config()["idf_weights"], weights)
    oov = np.mean(weights)
    expected = [[0, 2 * idf["the"], 0, idf["cat"], 0, 0], [2 * oov, 0, 0, 0, idf["dog"], 0]]
    np.testing.assert_allclose(out(layer, ["the cat the", "x dog y"]), expected, rtol=1e-6)
    given = TextVectorization(output_mode="tf_idf", vocabulary=["a", "b"], idf_weights=[0.5, 2.0])
    np.testing.assert_allclose(out(given, ["b b a z"]), [[1.25, 0.5, 4.0]], rtol=1e-6)


def test_adapt_sources_agree():
    data = np.array(DOCS)
    batches = (data[i : i + 2] for i in range(0, 3, 2))
    for source in (data, data[:, None], list(DOCS), batches):
        layer = TextVectorization()
        layer.adapt(source)
        assert layer.get_vocabulary() == VOCAB
    first_only = TextVectorization()
    first_only.adapt((data[i : i + 1] for i in range(3)), steps=1)
    assert first_only.get_vocabulary() == ["", "[UNK]", "the", "sat", "cat"]


def test_adapt_on_tf_data():
    tf = pytest.importorskip("tensorflow")
    dataset = tf.data.Dataset.from_tensor_slices((DOCS, [0, 1, 0])).batch(2)
    layer = TextVectorization()
    layer.adapt(dataset)
    assert layer.get_vocabulary() == VOCAB
    unlabelled = TextVectorization()
    unlabelled.adapt(tf.data.Dataset.from_tensor_slices(DOCS).batch(2))
    assert unlabelled.get_vocabulary() == VOCAB


def test_vocabulary_file_and_set_vocabulary(tmp_path):
    plain = tmp_path / "plain.txt"
    plain.write_text("the\ncat\nsat\n", encoding="utf-8")
    layer = TextVectorization(vocabulary=str(plain))
    assert layer.get_vocabulary() == ["", "[UNK]", "the", "cat", "sat"]
    np.testing.assert_array_equal(out(layer, ["cat dog the"]), [[3, 1, 2]])
    with_specials = tmp_path / "specials.txt"
    with_specials.write_text("\n".join(layer.get_vocabulary()), encoding="utf-8")
    again = TextVectorization()
    again.set_vocabulary(str(with_specials))
    assert again.get_vocabulary() == layer.get_vocabulary()
    again.set_vocabulary(["x", "y"])
    assert again.vocabulary_size() == 4


def test_errors():
    with pytest.raises(ValueError, match="standardize"):
        TextVectorization(standardize="upper")
    with pytest.raises(ValueError, match="split"):
        TextVectorization(split="comma")
    with pytest.raises(ValueError, match="output_mode"):
        TextVectorization(output_mode="one_hot")
    with pytest.raises(ValueError, match="ngrams"):
        TextVectorization(ngrams=0)
    with pytest.raises(ValueError, match="output_sequence_length"):
        TextVectorization(output_mode="count", output_sequence_length=3)
    with pytest.raises(ValueError, match="ragged"):
        TextVectorization(ragged=True)
    with pytest.raises(ValueError, match="adapt"):
        TextVectorization()(["a"])
    with pytest.raises(ValueError, match="last dimension of 1"):
        adapted()(np.array([["a", "b"]]))
    with pytest.raises(ValueError, match="repeated"):
        TextVectorization(vocabulary=["a", "a"])
    with pytest.raises(TypeError, match="input pipeline"):
        adapted()(tripod.Input((1,)))


def test_config_round_trip_through_json():
    tripod.saving.register_keras_serializable("text_tests")(_shout)
    layer = adapted(output_mode="tf_idf", ngrams=(1, 2), standardize=_shout, max_tokens=20)
    config = layer.get_config()
    assert config["ngrams"] == (1, 2) and config["vocabulary_size"] == layer.vocabulary_size()
    payload = json.loads(json.dumps(serialization.serialize_keras_object(layer)))
    clone = serialization.deserialize_keras_object(payload)
    assert isinstance(clone, TextVectorization) and clone.get_config() == config
    x = ["the cat sat", "A DOG"]
    np.testing.assert_allclose(out(clone, x), out(layer, x))


# -- the tf.Tensor (tf.data) path -------------------------------------------------------------
CASES = [
    {},
    {"output_sequence_length": 4},
    {"ngrams": 2, "output_sequence_length": 6},
    {"split": "character", "standardize": "lower", "output_sequence_length": 8},
    {"split": None},
    {"output_mode": "multi_hot"},
    {"output_mode": "count", "ngrams": (1, 2)},
    {"output_mode": "tf_idf"},
    {"output_mode": "count", "max_tokens": 12, "pad_to_max_tokens": True},
]
INPUTS = np.array([["The cat, sat"], ["unknown dog dog"], [""], ["a b c d e f g"]])


@pytest.mark.parametrize("kwargs", CASES, ids=[json.dumps(c) for c in CASES])
def test_tf_path_equals_host_path(kwargs):
    tf = pytest.importorskip("tensorflow")
    layer = adapted(**kwargs)
    host = out(layer, INPUTS)
    eager = layer(tf.constant(INPUTS))
    assert isinstance(eager, tf.Tensor)
    np.testing.assert_allclose(eager.numpy(), host, rtol=1e-6)
    mapped = tf.data.Dataset.from_tensor_slices(INPUTS[:, 0]).batch(4).map(layer)
    (batch,) = list(mapped)
    np.testing.assert_allclose(batch.numpy(), out(layer, INPUTS[:, 0]), rtol=1e-6)
    np.testing.assert_allclose(
        layer(tf.constant("the cat")).numpy(), out(layer, "the cat"), rtol=1e-6
    )


def test_string_lookup_tf_path():
    tf = pytest.importorskip("tensorflow")
    x = np.array([["a", "zz", ""], ["b", "q", "a"]])
    for kwargs in (
        {},
        {"num_oov_indices": 3, "mask_token": ""},
        {"output_mode": "count", "mask_token": ""},
    ):
        layer = StringLookup(vocabulary=["a", "b"], **kwargs)
        np.testing.assert_array_equal(layer(tf.constant(x)).numpy(), to_numpy(layer(x)))
    three = StringLookup(vocabulary=["a", "b"], num_oov_indices=3)
    many = np.array([f"unknown{i}" for i in range(40)])
    indices = to_numpy(three(many))
    assert set(indices) == {0, 1, 2}  # the FNV-1a hash spreads unknown tokens over the OOV indices
    np.testing.assert_array_equal(three(tf.constant(many)).numpy(), indices)
    inverse = StringLookup(vocabulary=["a", "b"], invert=True)
    np.testing.assert_array_equal(
        inverse(tf.constant([[1, 0, 2, 5]])).numpy().astype(str), [["a", "[UNK]", "b", "[UNK]"]]
    )


@pytest.mark.skipif(not TRAINS, reason="the numpy backend does not train")
def test_text_classification_fit_with_tf_data_map(tmp_path):
    tf = pytest.importorskip("tensorflow")
    texts = [
        "good great fine",
        "great good",
        "fine good nice",
        "bad awful",
        "awful poor bad",
        "poor bad",
    ] * 4
    labels = np.array([1, 1, 1, 0, 0, 0] * 4, "float32")
    vectorize = TextVectorization(max_tokens=20, output_sequence_length=4)
    vectorize.adapt(tf.data.Dataset.from_tensor_slices(texts).batch(8))
    dataset = tf.data.Dataset.from_tensor_slices((texts, labels)).batch(6)
    dataset = dataset.map(lambda x, y: (vectorize(x), y))
    model = tripod.Sequential(
        [
            tripod.Input((4,), dtype="int64"),
            tripod.layers.Embedding(20, 8),
            tripod.layers.GlobalAveragePooling1D(),
            tripod.layers.Dense(1, activation="sigmoid"),
        ]
    )
    model.compile(
        optimizer=tripod.optimizers.Adam(0.05), loss="binary_crossentropy", metrics=["accuracy"]
    )
    history = model.fit(dataset, epochs=8, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]
    assert history.history["accuracy"][-1] == 1.0
    # the host path feeds the trained model the same indices the tf.data map did
    probe = ["good nice", "awful bad"]
    predictions = to_numpy(model.predict(vectorize(probe), verbose=0))
    assert predictions[0, 0] > 0.5 > predictions[1, 0]
    path = str(tmp_path / "classifier.keras")
    model.save(path)
    loaded = tripod.saving.load_model(path)
    np.testing.assert_allclose(
        to_numpy(loaded.predict(vectorize(probe), verbose=0)), predictions, rtol=1e-5
    )
