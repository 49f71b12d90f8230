"""KerasHub on tripod through `tripod.use_as_keras()`, unchanged, from small configs (random
weights, token ids or images in, nothing downloaded): a GPT-2 CausalLM fits, generates through
its KV cache, saves and loads back, and trains LoRA weights alone once LoRA is enabled; a BERT
classifier and a ResNet image classifier fit and load back.

One subprocess per backend and test run (tests/ecosystem/conftest.py) takes 30-60 s: KerasHub
imports TensorFlow for its data pipelines and compiles its generate loop. The tripod paths it runs have fast tests on every
backend: `_compute_attention` (tests/layers/attention/test_multi_head_attention.py), samplers'
`deserialize_keras_object` (tests/saving/test_roundtrip.py), `DTypePolicyMap` and
`Layer.quantization_mode` (tests/layers/test_dtype_policies.py), per-variable `trainable` under a
frozen layer (tests/layers/test_layer.py) and `slice_update` in a compiled loop
(tests/backends/ops), and assets read outside safe mode (tests/saving/test_assets.py). A GPT-2
LM, a BERT classifier and a Gemma LM from raw strings, through KerasHub's byte-pair, WordPiece
and SentencePiece tokenizers, need `tensorflow-text` (docs/ecosystem.md; CI installs it) and
skip without it.
"""

import importlib.util

import numpy as np
import pytest

from tripod.backends import config

if importlib.util.find_spec("keras_hub") is None:  # not imported here: it imports Keras
    pytest.skip("keras-hub is not installed", allow_module_level=True)
if config.backend() == "numpy":
    pytest.skip("the numpy reference does not train", allow_module_level=True)

_CAUSAL_LM = """
import json, os, tempfile
import numpy as np, tripod
tripod.use_as_keras()
import keras, keras_hub

keras.utils.set_random_seed(0)
backbone = keras_hub.models.GPT2Backbone(vocabulary_size=9, num_layers=2, num_heads=2,
                                        hidden_dim=16, intermediate_dim=32, max_sequence_length=16)
lm = keras_hub.models.GPT2CausalLM(backbone=backbone, preprocessor=None)
ids = np.random.default_rng(0).integers(1, 9, (16, 8)).astype("int32")
x, y = {"token_ids": ids[:, :-1], "padding_mask": np.ones((16, 7), bool)}, ids[:, 1:]
loss = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
lm.compile(optimizer=keras.optimizers.SGD(0.1), loss=loss, sampler="greedy")
history = lm.fit(x=x, y=y, batch_size=4, epochs=2, verbose=0)

prompt = {"token_ids": np.array([[1, 2, 3, 0, 0, 0, 0, 0]], "int32"),
          "padding_mask": np.array([[1, 1, 1, 0, 0, 0, 0, 0]], bool)}
generated = np.asarray(lm.generate(prompt, max_length=8, stop_token_ids=None)["token_ids"])
full = {"token_ids": generated, "padding_mask": np.ones_like(generated, bool)}
logits = lm.predict(full, verbose=0)

path = os.path.join(tempfile.mkdtemp(), "lm.keras")
lm.save(path)
reloaded = keras.saving.load_model(path)

kernels = [w for w in backbone.weights if w.path.endswith("query/kernel")]
before = [np.asarray(w) for w in kernels]
backbone.enable_lora(2)
lm.compile(optimizer=keras.optimizers.SGD(0.1), loss=loss)
# B starts at zero, so A's gradients are B-sized (~1e-6) in one epoch: B is what must move
lora = [w for w in backbone.trainable_weights if "lora_kernel_b" in w.path]
lora_before = [np.asarray(w) for w in lora]
lm.fit(x=x, y=y, batch_size=4, epochs=1, verbose=0)
bert = keras_hub.models.BertTextClassifier(
    keras_hub.models.BertBackbone(vocabulary_size=9, num_layers=2, num_heads=2, hidden_dim=16,
                                  intermediate_dim=32, max_sequence_length=8),
    num_classes=2, preprocessor=None)
tokens = {"token_ids": ids, "segment_ids": np.zeros_like(ids), "padding_mask": np.ones((16, 8), bool)}
labels = (ids[:, 0] > 4).astype("int32")
bert.compile(optimizer=keras.optimizers.Adam(1e-2), loss=loss)
bert_history = bert.fit(tokens, labels, batch_size=4, epochs=3, verbose=0)

resnet = keras_hub.models.ResNetImageClassifier(
    keras_hub.models.ResNetBackbone(input_conv_filters=[64], input_conv_kernel_sizes=[3],
                                    stackwise_num_filters=[64, 32], stackwise_num_blocks=[1, 1],
                                    stackwise_num_strides=[1, 2], block_type="basic_block",
                                    use_pre_activation=False, image_shape=(16, 16, 3)),
    num_classes=3)
images = np.random.default_rng(1).random((8, 16, 16, 3)).astype("float32")
resnet.compile(optimizer=keras.optimizers.Adam(1e-2), loss=loss)
resnet_history = resnet.fit(images, np.arange(8) % 3, batch_size=4, epochs=3, verbose=0)
reloads = {}
for name, model, data in (("bert", bert, tokens), ("resnet", resnet, images)):
    model_path = os.path.join(tempfile.mkdtemp(), name + ".keras")
    model.save(model_path)
    back = keras.saving.load_model(model_path).predict(data, verbose=0)
    reloads[name] = float(np.abs(back - model.predict(data, verbose=0)).max())
results = {
    "bert": [float(v) for v in bert_history.history["loss"]],
    "resnet": [float(v) for v in resnet_history.history["loss"]],
    "reloads": reloads,
    "losses": [float(v) for v in history.history["loss"]],
    "generated": generated.tolist(), "logits": logits.tolist(),
    "reloaded": reloaded.predict(full, verbose=0).tolist(),
    "trainable": [w.path for w in backbone.trainable_weights],
    "kernels_kept": all(np.array_equal(a, np.asarray(w)) for a, w in zip(before, kernels)),
    "lora_moved": all(not np.array_equal(a, np.asarray(w)) for a, w in zip(lora_before, lora)),
}
text = None  # from raw strings: KerasHub's byte-pair tokenizer runs on tensorflow-text
try:
    import tensorflow_text
except ImportError:
    pass
else:
    keras.utils.set_random_seed(0)
    vocabulary = {"<|endoftext|>": 0, "a": 1, "b": 2, "c": 3, "Ġ": 4, "Ġa": 5, "ab": 6, "Ġab": 7,
                  "Ġb": 8, "Ġc": 9}
    merges = ["Ġ a", "a b", "Ġa b", "Ġ b", "Ġ c"]
    tokenizer = keras_hub.models.GPT2Tokenizer(vocabulary=vocabulary, merges=merges)
    preprocessor = keras_hub.models.GPT2CausalLMPreprocessor(tokenizer=tokenizer, sequence_length=8)
    backbone = keras_hub.models.GPT2Backbone(vocabulary_size=10, num_layers=2, num_heads=2,
                                            hidden_dim=16, intermediate_dim=32, max_sequence_length=16)
    lm = keras_hub.models.GPT2CausalLM(backbone=backbone, preprocessor=preprocessor)
    lm.compile(optimizer=keras.optimizers.SGD(0.1), sampler="greedy")
    history = lm.fit(x=["ab ab c", "a b c ab", "ab c", "c ab ab"] * 4, batch_size=4, epochs=2,
                     verbose=0)
    path = os.path.join(tempfile.mkdtemp(), "lm.keras")
    lm.save(path)
    back = keras.saving.load_model(path)
    text = {"bpe": {
        "losses": [float(v) for v in history.history["loss"]],
        "tokens": np.asarray(tokenizer("ab ab c")).tolist(),
        "vocabulary": list(back.preprocessor.tokenizer.get_vocabulary()),
        "merges": list(back.preprocessor.tokenizer.merges),
        "generated": [list(lm.generate(["ab c"], max_length=8)),
                      list(back.generate(["ab c"], max_length=8))],
        "predicted": [lm.predict(["ab c"], verbose=0).tolist(),
                      back.predict(["ab c"], verbose=0).tolist()],
    }}

    # WordPiece: a BERT classifier from raw strings
    sentences = ["the cat sat", "a dog ran", "the dog sat", "a cat ran"] * 4
    words = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "the", "a", "cat", "dog", "sat", "ran",
             "##s"]
    pieces = keras_hub.models.BertTokenizer(vocabulary=words)
    classifier = keras_hub.models.BertTextClassifier(
        keras_hub.models.BertBackbone(vocabulary_size=len(words), num_layers=1, num_heads=2,
                                      hidden_dim=8, intermediate_dim=16, max_sequence_length=8),
        num_classes=2,
        preprocessor=keras_hub.models.BertTextClassifierPreprocessor(pieces, sequence_length=8))
    classifier.compile(optimizer=keras.optimizers.Adam(1e-2), loss=loss)
    classifier.fit(sentences, np.array([0, 1] * 8), batch_size=4, epochs=2, verbose=0)
    path = os.path.join(tempfile.mkdtemp(), "bert.keras")
    classifier.save(path)
    classifier_back = keras.saving.load_model(path)
    text["wordpiece"] = {
        "tokens": np.asarray(pieces("the cats sat")).tolist(),
        "reloaded": float(np.abs(classifier.predict(sentences[:4], verbose=0)
                                 - classifier_back.predict(sentences[:4], verbose=0)).max()),
    }

    # SentencePiece: a Gemma causal LM from raw strings, its tokenizer trained here
    import io
    import sentencepiece
    proto = io.BytesIO()
    sentencepiece.SentencePieceTrainer.train(
        sentence_iterator=iter(sentences), model_writer=proto, vocab_size=10, model_type="WORD",
        pad_id=0, bos_id=1, eos_id=2, unk_id=3, pad_piece="<pad>", bos_piece="<bos>",
        eos_piece="<eos>", unk_piece="<unk>", minloglevel=2)
    spm = keras_hub.models.GemmaTokenizer(proto=proto.getvalue())
    gemma = keras_hub.models.GemmaCausalLM(
        keras_hub.models.GemmaBackbone(vocabulary_size=10, num_layers=1, num_query_heads=2,
                                       num_key_value_heads=1, hidden_dim=8, intermediate_dim=16,
                                       head_dim=4),
        preprocessor=keras_hub.models.GemmaCausalLMPreprocessor(spm, sequence_length=8))
    gemma.compile(optimizer=keras.optimizers.Adam(1e-2), sampler="greedy")
    gemma_history = gemma.fit(sentences, batch_size=4, epochs=2, verbose=0)
    path = os.path.join(tempfile.mkdtemp(), "gemma.keras")
    gemma.save(path)
    gemma_back = keras.saving.load_model(path)
    text["sentencepiece"] = {
        "losses": [float(v) for v in gemma_history.history["loss"]],
        "tokens": [np.asarray(spm("the cat sat")).tolist(),
                   np.asarray(gemma_back.preprocessor.tokenizer("the cat sat")).tolist()],
        "detokenized": str(spm.detokenize(spm("the dog ran"))),
        "generated": [str(gemma.generate(["the cat"], max_length=6)),
                      str(gemma_back.generate(["the cat"], max_length=6))],
    }
results["text"] = text

# Backbones whose layers build unusually (no build() but compute_output_shape; a build() called
# directly; self.layers on a plain layer; compute_mask(mask=); an unnamed weight): their size,
# and whether the weights set into a second instance are the ones its forward uses
M = keras_hub.models
rng = np.random.default_rng(2)
image = rng.standard_normal((2, 32, 32, 3)).astype("float32")
words = {"token_ids": rng.integers(2, 32, (2, 8)).astype("int32"),
         "padding_mask": np.array([[1] * 8, [1] * 5 + [0] * 3], "int32")}
backbones = {
    "swin": (lambda: M.SwinTransformerBackbone(image_shape=(32, 32, 3), embed_dim=16,
             depths=[2, 2], num_heads=[2, 2], window_size=4, patch_size=4, drop_path=0.0), image),
    "deberta": (lambda: M.DebertaV3Backbone(vocabulary_size=32, num_layers=2, num_heads=2,
                hidden_dim=16, intermediate_dim=32, max_sequence_length=16, bucket_size=4), words),
    "dinov2": (lambda: M.DINOV2Backbone(patch_size=4, num_layers=2, hidden_dim=16, num_heads=2,
               intermediate_dim=32, num_register_tokens=2, image_shape=(32, 32, 3),
               position_embedding_shape=(32, 32, 3)), image),
    "siglip": (lambda: M.SigLIPBackbone(
        vision_encoder=M.SigLIPVisionEncoder(patch_size=8, hidden_dim=16, num_layers=2,
            num_heads=2, intermediate_dim=32, image_shape=(32, 32, 3)),
        text_encoder=M.SigLIPTextEncoder(vocabulary_size=32, embedding_dim=16, hidden_dim=16,
            num_layers=2, num_heads=2, intermediate_dim=32, max_sequence_length=8)),
        {"images": image, "token_ids": words["token_ids"]}),
}
results["backbones"] = {}
for name, (build, data) in backbones.items():
    keras.utils.set_random_seed(0)
    first = build()
    keras.utils.set_random_seed(1)
    second = build()
    second.set_weights(first.get_weights())
    outputs = [[np.asarray(y) for y in keras.tree.flatten(model.predict(data, verbose=0))]
               for model in (first, second)]
    results["backbones"][name] = {
        "params": first.count_params(), "weights": [w.path for w in first.weights],
        "same_outputs": all(np.array_equal(a, b) for a, b in zip(*outputs)),
    }
print(json.dumps(results))
"""


@pytest.fixture(scope="module")
def run(script_json):
    return script_json("keras-hub", _CAUSAL_LM)


def test_the_causal_lm_trains(run):
    assert run["losses"][-1] < run["losses"][0]


def test_a_bert_classifier_and_a_resnet_classifier_train_and_load_back(run):
    assert run["bert"][-1] < run["bert"][0] and run["resnet"][-1] < run["resnet"][0]
    assert run["reloads"] == {"bert": 0.0, "resnet": 0.0}


def test_greedy_generation_through_the_cache_matches_the_uncached_forward(run):
    """Each generated token is the argmax of the full (uncached) forward's logits one step
    before: the KV-cache loop (`ops.slice_update` in a compiled while loop) computes the same."""
    generated, logits = np.asarray(run["generated"])[0], np.asarray(run["logits"])[0]
    assert generated[:3].tolist() == [1, 2, 3]
    np.testing.assert_array_equal(generated[3:], logits[2:-1].argmax(-1))


def test_the_model_saves_and_loads_back(run):
    np.testing.assert_allclose(run["reloaded"], run["logits"], rtol=1e-6)


def test_lora_trains_its_own_weights_alone(run):
    """KerasHub's `enable_lora` freezes the backbone but the query and value projections, whose
    kernels freeze beside two trainable factors (a per-variable flag, as in Keras; their biases
    stay trainable): fit moves the B factors and leaves the kernels."""
    trainable = run["trainable"]
    assert sum("lora_kernel" in path for path in trainable) == 8  # 2 layers x (query, value) x 2
    assert not [p for p in trainable if "lora" not in p and not p.endswith("/bias")]
    assert run["kernels_kept"] and run["lora_moved"]


def test_a_causal_lm_from_text_keeps_its_tokenizer_through_save_and_load(run):
    """From raw strings through KerasHub's byte-pair tokenizer (tensorflow-text): fit, then the
    reloaded model's tokenizer holds the vocabulary and merges its asset files carried, and it
    generates and predicts as the original does."""
    run = _text(run)["bpe"]
    assert run["tokens"] == [6, 7, 9]  # "ab", " ab", " c" by the merges
    assert run["losses"][-1] < run["losses"][0]
    assert run["vocabulary"] == ["<|endoftext|>", "a", "b", "c", "Ġ", "Ġa", "ab", "Ġab", "Ġb", "Ġc"]
    assert run["merges"] == ["Ġ a", "a b", "Ġa b", "Ġ b", "Ġ c"]
    assert run["generated"][0] == run["generated"][1]
    np.testing.assert_allclose(*run["predicted"], rtol=1e-6)


def test_a_bert_classifier_from_text_tokenizes_by_wordpiece_and_loads_back(run):
    """KerasHub's WordPiece tokenizer splits "cats" into "cat" + "##s" by the vocabulary given;
    the classifier fits from raw strings and its reload predicts the same."""
    wordpiece = _text(run)["wordpiece"]
    assert wordpiece["tokens"] == [5, 7, 11, 9]
    assert wordpiece["reloaded"] == 0.0


def test_a_gemma_lm_from_text_tokenizes_by_sentencepiece_and_loads_back(run):
    """A SentencePiece model trained on the spot: the Gemma LM fits from raw strings, and its
    reload tokenizes and generates as the original does."""
    sentencepiece = _text(run)["sentencepiece"]
    assert sentencepiece["losses"][-1] < sentencepiece["losses"][0]
    tokens, reloaded_tokens = sentencepiece["tokens"]
    assert len(tokens) == 3 and tokens == reloaded_tokens
    assert sentencepiece["detokenized"] == "the dog ran"
    assert sentencepiece["generated"][0] == sentencepiece["generated"][1]


def _text(run):
    """The runs from raw strings, which need tensorflow-text."""
    if run["text"] is None:
        pytest.skip("needs tensorflow-text (docs/ecosystem.md)")
    return run["text"]


#: Keras 3.15.1's count_params() and weight count for the backbones of the script, and some
#: weights at their places in Keras's order
_KERAS_BACKBONES = {
    "swin": (35416, 61, {0: "patch_embedding/conv_projection/kernel"}),
    "deberta": (5152, 38, {4: "rel_embedding/rel_embeddings_layer_norm/gamma"}),
    "dinov2": (7472, 45, {3: "embeddings/interpolated_position_embeddings"}),
    "siglip": (15450, 94, {0: "embedding/position_ids"}),
}


@pytest.mark.parametrize("name", sorted(_KERAS_BACKBONES))
def test_backbones_that_build_unusually_have_keras_weights_and_use_the_ones_set(run, name):
    """Swin's stages and DeBERTa's relative embedding have no build() (tracing their call builds
    them), DINOv2 builds its patch layer by calling build() and keeps self.layers, SigLIP's text
    embedding calls compute_mask(mask=) and makes an unnamed weight: each backbone has Keras's
    weights, in Keras's order, and its forward reads the weights set into it."""
    params, count, places = _KERAS_BACKBONES[name]
    got = run["backbones"][name]
    assert (got["params"], len(got["weights"])) == (params, count)
    assert {i: got["weights"][i] for i in places} == places
    assert got["same_outputs"]
