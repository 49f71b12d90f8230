"""Every built-in layer in a small functional model, with example inputs: the rows of the export
coverage table (`scripts/export_coverage.py`) and a check that no public layer is left out.

A `Case` is data: its name (the layer class, or `Class[variant]` for a second use of the same
layer), a function building a fresh `tripod.Model` around the layer, the example inputs that
model is predicted on, and, per backend, a fragment of the error the backend is expected to
raise where the layer cannot run there (string tensors exist only on tensorflow).
"""

import atexit
import inspect
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

import tripod
from tripod import layers as L
from tripod.layers.interop.jax_layer import FlaxLayer, JaxLayer
from tripod.layers.interop.tfsm_layer import TFSMLayer
from tripod.layers.interop.torch_module_wrapper import TorchModuleWrapper

#: rows in every example batch (not 1 or 2, which exporters trace or specialize on)
BATCH = 3
BACKENDS = ("jax", "torch", "tensorflow", "numpy")
#: what a backend without string tensors says when a model takes strings
NO_STRINGS = "string tensors exist only on the tensorflow backend"
STRINGS_ONLY_ON_TF = {b: NO_STRINGS for b in BACKENDS if b != "tensorflow"}
#: {framework: {other backend: its error}}: the interop layers refuse the backends whose
#: framework they do not wrap
ONLY_ON = {
    home: {b: f"needs the {home} backend" for b in BACKENDS if b != home}
    for home in ("jax", "torch", "tensorflow")
}
#: public classes that are bases for other layers, not layers to put in a model
ABSTRACT = ("Layer", "InputLayer", "Wrapper")


@dataclass(frozen=True)
class Case:
    """One row of the coverage table: `build()` gives a model exercising the layer and
    `inputs` is what `model.predict` takes; `expected_errors` maps a backend to a fragment of
    the error it raises instead."""

    name: str
    build: Callable[[], tripod.Model]
    inputs: object
    expected_errors: dict = field(default_factory=dict)

    @property
    def layer(self):
        """The layer class name this case covers (the name without its `[variant]`)."""
        return self.name.partition("[")[0]


# -- example inputs ------------------------------------------------------------------------------
def floats(*shape, low=-1.0, high=1.0, seed=0):
    """A batch of uniform float32 values of the given per-sample shape."""
    rng = np.random.default_rng(seed)
    return rng.uniform(low, high, (BATCH,) + shape).astype("float32")


def ints(*shape, high=10, seed=0):
    """A batch of int32 indices in [0, high)."""
    return np.random.default_rng(seed).integers(0, high, (BATCH,) + shape).astype("int32")


def images(size=8, channels=3, seed=0):
    """A batch of channels-last images with pixel values in [0, 255] (the default value_range)."""
    return floats(size, size, channels, low=0.0, high=255.0, seed=seed)


WORDS = np.array(["the cat sat", "a dog ran", "the bird sang"])
TOKENS = np.array([["the", "cat", "sat"], ["a", "dog", "ran"], ["the", "bird", "sang"]])
SEQUENCE = floats(5, 4)
MASKED_SEQUENCE = np.concatenate([floats(3, 3), np.zeros((BATCH, 2, 3), "float32")], axis=1)


# -- model builders ------------------------------------------------------------------------------
def on(make, shape, dtype="float32"):
    """A builder of `Model(Input(shape, dtype), make()(input))`."""

    def build():
        x = tripod.Input(shape=shape, dtype=dtype)
        return tripod.Model(x, make()(x))

    return build


def then(first, second):
    """`second` applied to `first`'s output: a layer seen through the layer consuming it (masks)."""
    return lambda x: second(first(x))


def adapted(make, data, shape, dtype="float32"):
    """A builder of `on(...)` whose layer is first adapted on `data`."""

    def adapted_layer():
        layer = make()
        layer.adapt(data)
        return layer

    return on(adapted_layer, shape, dtype)


def on_pair(make, first, second, dtype="float32"):
    """A builder of a model with two inputs (a list) merged by `make()([a, b])`."""

    def build():
        a = tripod.Input(shape=first, dtype=dtype)
        b = tripod.Input(shape=second, dtype=dtype)
        return tripod.Model([a, b], make()([a, b]))

    return build


def attending(make, query=(5, 4), value=(6, 4)):
    """A builder of `make()(query, value)`, the call of the multi-head attention layers."""

    def build():
        q, v = tripod.Input(shape=query), tripod.Input(shape=value)
        return tripod.Model([q, v], make()(q, v))

    return build


def crossing(make):
    """A builder of `make()((a, b))` on two int feature columns (HashedCrossing's call)."""

    def build():
        a = tripod.Input(shape=(1,), dtype="int32")
        b = tripod.Input(shape=(1,), dtype="int32")
        return tripod.Model([a, b], make()((a, b)))

    return build


def on_boxes(make):
    """A builder of a model taking `{"images", "bounding_boxes": {"boxes", "labels"}}`."""

    def build():
        inputs = {
            "images": tripod.Input(shape=(8, 8, 3)),
            "bounding_boxes": {
                "boxes": tripod.Input(shape=(3, 4)),
                "labels": tripod.Input(shape=(3,), dtype="int32"),
            },
        }
        return tripod.Model(inputs, make()(inputs))

    return build


BOXES = {
    "images": images(),
    "bounding_boxes": {"boxes": floats(3, 4, low=0, high=8), "labels": ints(3, high=4)},
}


#: the (4, 3) kernel of the interop layers whose weights are given
WEIGHTS = np.linspace(-1.0, 1.0, 12, dtype="float32").reshape(4, 3)


def torch_linear():
    """A TorchModuleWrapper around a `torch.nn.Linear(4, 3)` (torch is imported only here)."""
    import torch

    return TorchModuleWrapper(torch.nn.Linear(4, 3))


def jax_dense():
    """A JaxLayer computing `inputs @ w + b` with given params (array operators only)."""
    params = {"w": WEIGHTS, "b": np.full(3, 0.5, "float32")}
    return JaxLayer(lambda params, inputs: inputs @ params["w"] + params["b"], params=params)


def flax_dense():
    """A FlaxLayer around `flax.linen.Dense(3)` (flax is imported only here)."""
    import flax.linen

    return FlaxLayer(flax.linen.Dense(3))


def saved_model_layer():
    """A TFSMLayer over a SavedModel written with TensorFlow itself (`serve`: x @ w, x of shape
    (None, 4)), in a folder removed at exit."""
    import tensorflow as tf

    folder = tempfile.mkdtemp(prefix="tfsm_")
    atexit.register(shutil.rmtree, folder, True)
    module = tf.Module()
    module.w = tf.Variable(WEIGHTS)
    module.serve = tf.function(
        lambda x: tf.matmul(x, module.w), input_signature=[tf.TensorSpec((None, 4), tf.float32)]
    )
    tf.saved_model.save(module, folder, signatures={"serve": module.serve})
    return TFSMLayer(folder)


# -- the catalog ---------------------------------------------------------------------------------
IMG = (8, 8, 3)
VOLUME = (4, 4, 4, 2)


def image_case(name, make):
    """A case applying an image layer to one batch of 8x8 RGB images."""
    return Case(name, on(make, IMG), images())


CASES = [
    # core
    Case("Dense", on(lambda: L.Dense(3), (4,)), floats(4)),
    Case("EinsumDense", on(lambda: L.EinsumDense("ab,bc->ac", 3, bias_axes="c"), (4,)), floats(4)),
    Case("Embedding", on(lambda: L.Embedding(10, 3), (5,), "int32"), ints(5)),
    Case("ReversibleEmbedding", on(lambda: L.ReversibleEmbedding(10, 4), (5,), "int32"), ints(5)),
    Case("Identity", on(L.Identity, (4,)), floats(4)),
    Case("Lambda", on(lambda: L.Lambda(lambda x: x * 2.0 + 1.0), (4,)), floats(4)),
    Case("Masking", on(lambda: then(L.Masking(0.0), L.SimpleRNN(2)), (5, 3)), MASKED_SEQUENCE),
    # activations
    Case("Activation", on(lambda: L.Activation("tanh"), (4,)), floats(4)),
    Case("ELU", on(L.ELU, (4,)), floats(4)),
    Case("LeakyReLU", on(L.LeakyReLU, (4,)), floats(4)),
    Case("PReLU", on(L.PReLU, (4,)), floats(4)),
    Case("ReLU", on(lambda: L.ReLU(max_value=0.5), (4,)), floats(4)),
    Case("Softmax", on(L.Softmax, (4,)), floats(4)),
    # attention
    Case("Attention", on_pair(L.Attention, (5, 4), (6, 4)), [floats(5, 4), floats(6, 4, seed=1)]),
    Case(
        "AdditiveAttention",
        on_pair(L.AdditiveAttention, (5, 4), (6, 4)),
        [floats(5, 4), floats(6, 4, seed=1)],
    ),
    Case(
        "MultiHeadAttention",
        attending(lambda: L.MultiHeadAttention(2, 3)),
        [floats(5, 4), floats(6, 4, seed=1)],
    ),
    Case(
        "GroupedQueryAttention",
        attending(lambda: L.GroupedQueryAttention(2, 4, 2)),
        [floats(5, 4), floats(6, 4, seed=1)],
    ),
    # convolution
    Case("Conv1D", on(lambda: L.Conv1D(2, 3), (8, 3)), floats(8, 3)),
    Case("Conv2D", on(lambda: L.Conv2D(2, 3, padding="same"), IMG), floats(*IMG)),
    Case("Conv3D", on(lambda: L.Conv3D(2, 2), VOLUME), floats(*VOLUME)),
    Case("Conv1DTranspose", on(lambda: L.Conv1DTranspose(2, 3, strides=2), (8, 3)), floats(8, 3)),
    Case("Conv2DTranspose", on(lambda: L.Conv2DTranspose(2, 3, strides=2), IMG), floats(*IMG)),
    Case("Conv3DTranspose", on(lambda: L.Conv3DTranspose(2, 2), VOLUME), floats(*VOLUME)),
    Case("DepthwiseConv1D", on(lambda: L.DepthwiseConv1D(3), (8, 3)), floats(8, 3)),
    Case("DepthwiseConv2D", on(lambda: L.DepthwiseConv2D(3), IMG), floats(*IMG)),
    Case("SeparableConv1D", on(lambda: L.SeparableConv1D(2, 3), (8, 3)), floats(8, 3)),
    Case("SeparableConv2D", on(lambda: L.SeparableConv2D(2, 3), IMG), floats(*IMG)),
    # merging
    Case("Add", on_pair(L.Add, (4,), (4,)), [floats(4), floats(4, seed=1)]),
    Case("Subtract", on_pair(L.Subtract, (4,), (4,)), [floats(4), floats(4, seed=1)]),
    Case("Multiply", on_pair(L.Multiply, (4,), (4,)), [floats(4), floats(4, seed=1)]),
    Case("Average", on_pair(L.Average, (4,), (4,)), [floats(4), floats(4, seed=1)]),
    Case("Maximum", on_pair(L.Maximum, (4,), (4,)), [floats(4), floats(4, seed=1)]),
    Case("Minimum", on_pair(L.Minimum, (4,), (4,)), [floats(4), floats(4, seed=1)]),
    Case("Concatenate", on_pair(L.Concatenate, (4,), (3,)), [floats(4), floats(3, seed=1)]),
    Case(
        "Dot",
        on_pair(lambda: L.Dot(axes=1, normalize=True), (4,), (4,)),
        [floats(4), floats(4, seed=1)],
    ),
    # normalization
    Case("BatchNormalization", on(L.BatchNormalization, (4,)), floats(4)),
    Case("GroupNormalization", on(lambda: L.GroupNormalization(groups=2), (4, 4)), floats(4, 4)),
    Case("LayerNormalization", on(L.LayerNormalization, (5, 4)), SEQUENCE),
    Case("RMSNormalization", on(L.RMSNormalization, (5, 4)), SEQUENCE),
    Case("UnitNormalization", on(L.UnitNormalization, (4,)), floats(4)),
    Case("SpectralNormalization", on(lambda: L.SpectralNormalization(L.Dense(3)), (4,)), floats(4)),
    # pooling
    Case("AveragePooling1D", on(lambda: L.AveragePooling1D(2), (8, 3)), floats(8, 3)),
    Case("AveragePooling2D", on(lambda: L.AveragePooling2D(2), IMG), floats(*IMG)),
    Case("AveragePooling3D", on(lambda: L.AveragePooling3D(2), VOLUME), floats(*VOLUME)),
    Case("MaxPooling1D", on(L.MaxPooling1D, (8, 3)), floats(8, 3)),
    Case("MaxPooling2D", on(L.MaxPooling2D, IMG), floats(*IMG)),
    Case("MaxPooling3D", on(L.MaxPooling3D, VOLUME), floats(*VOLUME)),
    Case("GlobalAveragePooling1D", on(L.GlobalAveragePooling1D, (8, 3)), floats(8, 3)),
    Case("GlobalAveragePooling2D", on(L.GlobalAveragePooling2D, IMG), floats(*IMG)),
    Case("GlobalAveragePooling3D", on(L.GlobalAveragePooling3D, VOLUME), floats(*VOLUME)),
    Case("GlobalMaxPooling1D", on(L.GlobalMaxPooling1D, (8, 3)), floats(8, 3)),
    Case("GlobalMaxPooling2D", on(L.GlobalMaxPooling2D, IMG), floats(*IMG)),
    Case("GlobalMaxPooling3D", on(L.GlobalMaxPooling3D, VOLUME), floats(*VOLUME)),
    Case(
        "AdaptiveAveragePooling1D", on(lambda: L.AdaptiveAveragePooling1D(3), (8, 3)), floats(8, 3)
    ),
    Case("AdaptiveAveragePooling2D", on(lambda: L.AdaptiveAveragePooling2D(3), IMG), floats(*IMG)),
    Case(
        "AdaptiveAveragePooling3D",
        on(lambda: L.AdaptiveAveragePooling3D(3), VOLUME),
        floats(*VOLUME),
    ),
    Case("AdaptiveMaxPooling1D", on(lambda: L.AdaptiveMaxPooling1D(3), (8, 3)), floats(8, 3)),
    Case("AdaptiveMaxPooling2D", on(lambda: L.AdaptiveMaxPooling2D(3), IMG), floats(*IMG)),
    Case("AdaptiveMaxPooling3D", on(lambda: L.AdaptiveMaxPooling3D(3), VOLUME), floats(*VOLUME)),
    # regularization: identity at inference
    Case("ActivityRegularization", on(lambda: L.ActivityRegularization(l1=0.1), (4,)), floats(4)),
    Case("AlphaDropout", on(lambda: L.AlphaDropout(0.2), (4,)), floats(4)),
    Case("Dropout", on(lambda: L.Dropout(0.5), (4,)), floats(4)),
    Case("GaussianDropout", on(lambda: L.GaussianDropout(0.3), (4,)), floats(4)),
    Case("GaussianNoise", on(lambda: L.GaussianNoise(0.1), (4,)), floats(4)),
    Case("SpatialDropout1D", on(lambda: L.SpatialDropout1D(0.5), (8, 3)), floats(8, 3)),
    Case("SpatialDropout2D", on(lambda: L.SpatialDropout2D(0.5), IMG), floats(*IMG)),
    Case("SpatialDropout3D", on(lambda: L.SpatialDropout3D(0.5), VOLUME), floats(*VOLUME)),
    # reshaping
    Case("Cropping1D", on(lambda: L.Cropping1D(1), (8, 3)), floats(8, 3)),
    Case("Cropping2D", on(lambda: L.Cropping2D(1), IMG), floats(*IMG)),
    Case("Cropping3D", on(lambda: L.Cropping3D(1), VOLUME), floats(*VOLUME)),
    Case("Flatten", on(L.Flatten, (3, 4)), floats(3, 4)),
    Case("Permute", on(lambda: L.Permute((2, 1)), (3, 4)), floats(3, 4)),
    Case("RepeatVector", on(lambda: L.RepeatVector(3), (4,)), floats(4)),
    Case("Reshape", on(lambda: L.Reshape((2, 6)), (3, 4)), floats(3, 4)),
    Case("UpSampling1D", on(L.UpSampling1D, (8, 3)), floats(8, 3)),
    Case("UpSampling2D", on(lambda: L.UpSampling2D(interpolation="bilinear"), IMG), floats(*IMG)),
    Case("UpSampling3D", on(L.UpSampling3D, VOLUME), floats(*VOLUME)),
    Case("ZeroPadding1D", on(L.ZeroPadding1D, (8, 3)), floats(8, 3)),
    Case("ZeroPadding2D", on(L.ZeroPadding2D, IMG), floats(*IMG)),
    Case("ZeroPadding3D", on(L.ZeroPadding3D, VOLUME), floats(*VOLUME)),
    # recurrent
    Case("SimpleRNN", on(lambda: L.SimpleRNN(3), (5, 4)), SEQUENCE),
    Case("LSTM", on(lambda: L.LSTM(3, return_sequences=True), (5, 4)), SEQUENCE),
    Case("GRU", on(lambda: L.GRU(3), (5, 4)), SEQUENCE),
    Case("RNN", on(lambda: L.RNN(L.SimpleRNNCell(3), go_backwards=True), (5, 4)), SEQUENCE),
    Case("SimpleRNNCell", on(lambda: L.RNN(L.SimpleRNNCell(3)), (5, 4)), SEQUENCE),
    Case("LSTMCell", on(lambda: L.RNN(L.LSTMCell(3)), (5, 4)), SEQUENCE),
    Case("GRUCell", on(lambda: L.RNN(L.GRUCell(3)), (5, 4)), SEQUENCE),
    Case(
        "StackedRNNCells",
        on(lambda: L.RNN(L.StackedRNNCells([L.SimpleRNNCell(3), L.GRUCell(2)])), (5, 4)),
        SEQUENCE,
    ),
    Case("Bidirectional", on(lambda: L.Bidirectional(L.LSTM(3)), (5, 4)), SEQUENCE),
    Case("TimeDistributed", on(lambda: L.TimeDistributed(L.Dense(3)), (5, 4)), SEQUENCE),
    Case("ConvLSTM1D", on(lambda: L.ConvLSTM1D(2, 3), (4, 8, 3)), floats(4, 8, 3)),
    Case("ConvLSTM2D", on(lambda: L.ConvLSTM2D(2, 3), (3, 6, 6, 2)), floats(3, 6, 6, 2)),
    Case("ConvLSTM3D", on(lambda: L.ConvLSTM3D(2, 2), (3, 4, 4, 4, 1)), floats(3, 4, 4, 4, 1)),
    # preprocessing: numbers, integers and strings
    Case("Normalization", adapted(L.Normalization, floats(4, seed=5), (4,)), floats(4)),
    Case(
        "Discretization",
        adapted(lambda: L.Discretization(num_bins=4), floats(4, seed=5), (4,)),
        floats(4),
    ),
    Case("CategoryEncoding", on(lambda: L.CategoryEncoding(6), (3,), "int32"), ints(3, high=6)),
    Case("Hashing", on(lambda: L.Hashing(8), (3,), "int32"), ints(3)),
    Case(
        "Hashing[string]",
        on(lambda: L.Hashing(8), (3,), "string"),
        TOKENS,
        {**STRINGS_ONLY_ON_TF, "tensorflow": "string tensors are not supported"},
    ),
    Case("HashedCrossing", crossing(lambda: L.HashedCrossing(8)), [ints(1), ints(1, seed=1)]),
    Case("IntegerLookup", adapted(L.IntegerLookup, ints(3, seed=5), (3,), "int32"), ints(3)),
    Case(
        "StringLookup",
        adapted(L.StringLookup, TOKENS[:2], (3,), "string"),
        TOKENS,
        STRINGS_ONLY_ON_TF,
    ),
    Case(
        "TextVectorization",
        adapted(lambda: L.TextVectorization(output_sequence_length=4), WORDS, (1,), "string"),
        WORDS[:, None],
        STRINGS_ONLY_ON_TF,
    ),
    # preprocessing: audio
    Case(
        "MelSpectrogram",
        on(lambda: L.MelSpectrogram(64, 16, num_mel_bins=8, sampling_rate=8000), (256,)),
        floats(256),
    ),
    Case(
        "STFTSpectrogram",
        on(lambda: L.STFTSpectrogram(frame_length=32, frame_step=8), (128, 1)),
        floats(128, 1),
    ),
    # preprocessing: images (the random augmentations are identity at inference)
    image_case("Rescaling", lambda: L.Rescaling(1 / 255.0)),
    image_case("Resizing", lambda: L.Resizing(4, 6)),
    image_case("CenterCrop", lambda: L.CenterCrop(4, 6)),
    image_case("Pipeline", lambda: L.Pipeline([L.Rescaling(0.5), L.CenterCrop(4, 4)])),
    image_case("AutoContrast", L.AutoContrast),
    image_case("Equalization", L.Equalization),
    image_case("Solarization", lambda: L.Solarization(threshold_factor=(0.5, 0.5))),
    image_case(
        "ContrastLimitedAdaptiveHistogramEqualization",
        lambda: L.ContrastLimitedAdaptiveHistogramEqualization(tile_grid_size=(2, 2)),
    ),
    image_case("AugMix", lambda: L.AugMix(seed=1)),
    image_case("CutMix", lambda: L.CutMix(seed=1)),
    image_case("MixUp", lambda: L.MixUp(seed=1)),
    image_case("RandAugment", lambda: L.RandAugment(seed=1)),
    image_case("RandomBrightness", lambda: L.RandomBrightness(0.2, seed=1)),
    image_case("RandomColorDegeneration", lambda: L.RandomColorDegeneration(0.5, seed=1)),
    image_case("RandomColorJitter", lambda: L.RandomColorJitter(brightness_factor=0.2, seed=1)),
    image_case("RandomContrast", lambda: L.RandomContrast(0.2, seed=1)),
    image_case("RandomCrop", lambda: L.RandomCrop(4, 6, seed=1)),
    image_case("RandomElasticTransform", lambda: L.RandomElasticTransform(seed=1)),
    image_case("RandomErasing", lambda: L.RandomErasing(seed=1)),
    image_case("RandomFlip", lambda: L.RandomFlip(seed=1)),
    image_case("RandomGaussianBlur", lambda: L.RandomGaussianBlur(seed=1)),
    image_case("RandomGrayscale", lambda: L.RandomGrayscale(seed=1)),
    image_case("RandomHue", lambda: L.RandomHue(0.2, seed=1)),
    image_case("RandomInvert", lambda: L.RandomInvert(seed=1)),
    image_case("RandomPerspective", lambda: L.RandomPerspective(seed=1)),
    image_case("RandomPosterization", lambda: L.RandomPosterization(4, seed=1)),
    image_case("RandomRotation", lambda: L.RandomRotation(0.1, seed=1)),
    image_case("RandomSaturation", lambda: L.RandomSaturation(0.2, seed=1)),
    image_case("RandomSharpness", lambda: L.RandomSharpness(0.2, seed=1)),
    image_case("RandomShear", lambda: L.RandomShear(x_factor=0.1, seed=1)),
    image_case("RandomTranslation", lambda: L.RandomTranslation(0.1, 0.1, seed=1)),
    image_case("RandomZoom", lambda: L.RandomZoom(0.1, seed=1)),
    Case("MaxNumBoundingBoxes", on_boxes(lambda: L.MaxNumBoundingBoxes(5)), BOXES),
    # interop: a native module inside a model, on its own framework's backend only
    Case("TorchModuleWrapper", on(torch_linear, (4,)), floats(4), ONLY_ON["torch"]),
    Case("JaxLayer", on(jax_dense, (4,)), floats(4), ONLY_ON["jax"]),
    Case("FlaxLayer", on(flax_dense, (4,)), floats(4), ONLY_ON["jax"]),
    Case("TFSMLayer", on(saved_model_layer, (4,)), floats(4), ONLY_ON["tensorflow"]),
]


def public_layers():
    """{class name: class} of every public, concrete layer class in `tripod.layers` (aliases such
    as `Convolution2D` fold into the class they name)."""
    found = {}
    for name in dir(L):
        value = getattr(L, name)
        if inspect.isclass(value) and issubclass(value, L.Layer) and name not in ABSTRACT:
            found[value.__name__] = value
    return found


def missing_layers():
    """Names of public layer classes that no case covers (the coverage table must have none)."""
    covered = {case.layer for case in CASES}
    return sorted(set(public_layers()) - covered)


def unknown_cases():
    """Names of cases whose layer is not a public layer class (stale after a rename)."""
    known = public_layers()
    return sorted(case.name for case in CASES if case.layer not in known)
