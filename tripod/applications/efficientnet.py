"""EfficientNet B0-B7 (Tan & Le, ICML 2019, https://arxiv.org/abs/1905.11946), as
`keras.applications.efficientnet`: the same layer names, so Keras's published ImageNet weights load.

The models take pixels in [0, 255]: rescaling and per-channel normalization are layers inside the
model (the normalization's mean and variance are weights of the published files), so
`preprocess_input` passes its input through. The parts shared with EfficientNetV2 (squeeze and
excitation, the drop-connect residual, the classifier head, input checks, weights) live here.
"""

import math

from tripod import layers
from tripod.applications import common, imagenet_utils
from tripod.applications import weights as weights_lib
from tripod.backends import config
from tripod.training.model import Model

BASE_WEIGHTS_PATH = "https://storage.googleapis.com/keras-applications/"

#: md5 of the published files per variant: (with the classifier, without it)
WEIGHTS_HASHES = {
    "b0": ("902e53a9f72be733fc0bcb005b3ebbac", "50bc09e76180e00e4465e1a485ddc09d"),
    "b1": ("1d254153d4ab51201f1646940f018540", "74c4e6b3e1f6a1eea24c589628592432"),
    "b2": ("b15cce36ff4dcbd00b6dd88e7857a6ad", "111f8e2ac8aa800a7a99e3239f7bfb39"),
    "b3": ("ffd1fdc53d0ce67064dc6a9c7960ede0", "af6d107764bb5b1abb91932881670226"),
    "b4": ("18c95ad55216b8f92d7e70b3a046e2fc", "ebc24e6d6c33eaebbd558eafbeedf1ba"),
    "b5": ("ace28f2a6363774853a83a0b21b9421a", "38879255a25d3c92d5e44e04ae6cec6f"),
    "b6": ("165f6e37dce68623721b423839de8be5", "9ecce42647a20130c1f39a5d4cb75743"),
    "b7": ("8c03f828fec3ef71311cd463b6759d99", "cbcfe4450ddf6f3ad90b1b398090fe4a"),
}

#: the B0 stages before scaling: (kernel_size, repeats, filters_in, filters_out, expand_ratio,
#: strides); every block has an identity skip and squeeze-and-excitation ratio 0.25
STAGES = (
    (3, 1, 32, 16, 1, 1),
    (3, 2, 16, 24, 6, 2),
    (5, 2, 24, 40, 6, 2),
    (3, 3, 40, 80, 6, 2),
    (5, 3, 80, 112, 6, 1),
    (5, 4, 112, 192, 6, 2),
    (3, 1, 192, 320, 6, 1),
)
SE_RATIO = 0.25

CONV_KERNEL_INITIALIZER = {
    "class_name": "VarianceScaling",
    "config": {"scale": 2.0, "mode": "fan_out", "distribution": "truncated_normal"},
}
DENSE_KERNEL_INITIALIZER = {
    "class_name": "VarianceScaling",
    "config": {"scale": 1.0 / 3.0, "mode": "fan_out", "distribution": "uniform"},
}

#: ImageNet's RGB standard deviations; the published weights expect inputs divided by their square
#: root once more after the normalization layer (it divides by sqrt(variance) = stddev only)
IMAGENET_STDDEV_RGB = (0.229, 0.224, 0.225)


def conv(filters, kernel_size, name, strides=1, padding="same", **kwargs):
    """A bias-free Conv2D with EfficientNet's kernel initializer (the bias-free convolutions of
    both versions are followed by batch normalization)."""
    return layers.Conv2D(
        filters,
        kernel_size,
        strides=strides,
        padding=padding,
        use_bias=False,
        kernel_initializer=CONV_KERNEL_INITIALIZER,
        name=name,
        **kwargs,
    )


def bn_activation(x, activation, bn_name, activation_name, **bn_kwargs):
    """Batch normalization over the channels, then `activation`, as named layers."""
    x = layers.BatchNormalization(axis=common.channel_axis(), name=bn_name, **bn_kwargs)(x)
    return layers.Activation(activation, name=activation_name)(x)


def squeeze_excite(x, filters_in, filters, se_ratio, activation, name):
    """Squeeze and excitation: rescale `x`'s `filters` channels by gates computed from their
    spatial mean through a bottleneck of `filters_in * se_ratio` channels."""
    filters_se = max(1, int(filters_in * se_ratio))
    se = layers.GlobalAveragePooling2D(name=f"{name}se_squeeze")(x)
    shape = (1, 1, filters) if common.channel_axis() == 3 else (filters, 1, 1)
    se = layers.Reshape(shape, name=f"{name}se_reshape")(se)
    for units, gate, suffix in ((filters_se, activation, "reduce"), (filters, "sigmoid", "expand")):
        se = layers.Conv2D(
            units,
            1,
            padding="same",
            activation=gate,
            kernel_initializer=CONV_KERNEL_INITIALIZER,
            name=f"{name}se_{suffix}",
        )(se)
    return layers.multiply([x, se], name=f"{name}se_excite")


def residual(x, inputs, drop_rate, name):
    """`x + inputs`, with drop-connect (dropping whole examples of `x` at `drop_rate` in
    training) when the rate is positive."""
    if drop_rate > 0:
        x = layers.Dropout(drop_rate, noise_shape=(None, 1, 1, 1), name=f"{name}drop")(x)
    return layers.add([x, inputs], name=f"{name}add")


def head(x, spec, dropout_rate, **dense):
    """The classifier (global average pooling, dropout, Dense "predictions") when
    `spec["include_top"]`, else the optional global `spec["pooling"]` ("avg" or "max")."""
    if spec["include_top"]:
        x = layers.GlobalAveragePooling2D(name="avg_pool")(x)
        if dropout_rate > 0:
            x = layers.Dropout(dropout_rate, name="top_dropout")(x)
        imagenet_utils.validate_activation(spec["classifier_activation"], spec["weights"])
        return layers.Dense(
            spec["classes"],
            activation=spec["classifier_activation"],
            kernel_initializer=DENSE_KERNEL_INITIALIZER,
            name="predictions",
            **dense,
        )(x)
    return common.pool(x, spec["pooling"], "avg_pool", "max_pool")


def finish(inputs, outputs, spec, file_stem, base_url, hashes):
    """The model named `spec["name"]`, with `spec["weights"]` loaded: for "imagenet" the
    published file `<file_stem>.h5` (`<file_stem>_notop.h5` without the classifier)."""
    model = Model(common.model_inputs(spec["input_tensor"], inputs), outputs, name=spec["name"])
    top = spec["include_top"]
    file_name = file_stem + (".h5" if top else "_notop.h5")
    weights_lib.load_weights(model, spec["weights"], base_url + file_name, hashes[0 if top else 1])
    return model


def image_input(spec, default_size):
    """Check the weights/classes arguments and the input shape as Keras does; the image input."""
    weights_lib.validate_arguments(spec["weights"], spec["include_top"], spec["classes"])
    input_shape = imagenet_utils.obtain_input_shape(
        spec["input_shape"],
        default_size=default_size,
        min_size=32,
        data_format=config.image_data_format(),
        require_flatten=spec["include_top"],
        weights=spec["weights"],
    )
    return common.image_input(spec["input_tensor"], input_shape)


# -- EfficientNet (v1) ----------------------------------------------------------------------------
def _round_filters(filters, width, divisor=8):
    """`filters` scaled by `width`, rounded to a multiple of `divisor` and never more than 10%
    below the scaled value."""
    filters *= width
    rounded = max(divisor, int(filters + divisor / 2) // divisor * divisor)
    if rounded < 0.9 * filters:
        rounded += divisor
    return int(rounded)


def _block(
    inputs, activation, drop_rate, name, filters_in, filters_out, kernel_size, strides, expand_ratio
):
    """An inverted residual block: 1x1 expansion, depthwise convolution, squeeze and excitation,
    1x1 projection, and the identity skip when shapes allow."""
    filters = filters_in * expand_ratio
    x = inputs
    if expand_ratio != 1:
        x = conv(filters, 1, f"{name}expand_conv")(x)
        x = bn_activation(x, activation, f"{name}expand_bn", f"{name}expand_activation")
    padding = "same"
    if strides == 2:
        pad = imagenet_utils.correct_pad(x, kernel_size)
        x = layers.ZeroPadding2D(padding=pad, name=f"{name}dwconv_pad")(x)
        padding = "valid"
    x = layers.DepthwiseConv2D(
        kernel_size,
        strides=strides,
        padding=padding,
        use_bias=False,
        depthwise_initializer=CONV_KERNEL_INITIALIZER,
        name=f"{name}dwconv",
    )(x)
    x = bn_activation(x, activation, f"{name}bn", f"{name}activation")
    x = squeeze_excite(x, filters_in, filters, SE_RATIO, activation, name)
    x = conv(filters_out, 1, f"{name}project_conv")(x)
    x = layers.BatchNormalization(axis=common.channel_axis(), name=f"{name}project_bn")(x)
    if strides == 1 and filters_in == filters_out:
        x = residual(x, inputs, drop_rate, name)
    return x


def _stem(img_input, width, weights, activation):
    """Rescaling to [0, 1], per-channel normalization (and the published weights' extra division
    by sqrt(stddev)), then the strided 3x3 convolution."""
    x = layers.Rescaling(1.0 / 255.0)(img_input)
    x = layers.Normalization(axis=common.channel_axis())(x)
    if weights == "imagenet":
        x = layers.Rescaling([1.0 / math.sqrt(stddev) for stddev in IMAGENET_STDDEV_RGB])(x)
    x = layers.ZeroPadding2D(padding=imagenet_utils.correct_pad(x, 3), name="stem_conv_pad")(x)
    x = conv(_round_filters(32, width), 3, "stem_conv", strides=2, padding="valid")(x)
    return bn_activation(x, activation, "stem_bn", "stem_activation")


def _blocks(x, width, depth, activation, drop_connect_rate=0.2):
    """The seven scaled stages; block `j` of stage `i` is named `block{i}{a,b,...}_` and its
    drop-connect rate grows linearly with its index."""
    repeats = [math.ceil(depth * stage[1]) for stage in STAGES]
    total, index = float(sum(repeats)), 0
    for i, ((kernel_size, _, filters_in, filters_out, expand_ratio, strides), count) in enumerate(
        zip(STAGES, repeats)
    ):
        filters_in, filters_out = (
            _round_filters(filters_in, width),
            _round_filters(filters_out, width),
        )
        for j in range(count):
            x = _block(
                x,
                activation,
                drop_connect_rate * index / total,
                f"block{i + 1}{chr(j + 97)}_",
                filters_in if j == 0 else filters_out,
                filters_out,
                kernel_size,
                strides if j == 0 else 1,
                expand_ratio,
            )
            index += 1
    return x


def _builder(weights_name, width, depth, default_size, dropout_rate):
    """The builder of one EfficientNet variant, taking the public constructor's arguments."""

    def build(**spec):
        img_input = image_input(spec, default_size)
        x = _stem(img_input, width, spec["weights"], "swish")
        x = _blocks(x, width, depth, "swish")
        x = conv(_round_filters(1280, width), 1, "top_conv")(x)
        x = bn_activation(x, "swish", "top_bn", "top_activation")
        x = head(x, spec, dropout_rate)
        stem = f"efficientnet{weights_name}"
        return finish(img_input, x, spec, stem, BASE_WEIGHTS_PATH, WEIGHTS_HASHES[weights_name])

    return build


DOCSTRING = """Build {name} (EfficientNet, https://arxiv.org/abs/1905.11946), optionally with
weights trained on ImageNet.

The model takes float pixels in [0, 255]: rescaling and normalization are its first layers.

Args:
    include_top: bool, whether to end with the 1000-way (or `classes`-way) classifier.
    weights: None (random initialization), "imagenet" (Keras's published weights, fetched into
        `~/.keras/models`), or the path of a weights file to load.
    input_tensor: optional tensor (e.g. from `tripod.Input`) to use as the image input.
    input_shape: optional `(height, width, 3)` (channels last) shape, at least 32x32; fixed to
        the default size with ImageNet weights and the classifier.
    pooling: without the classifier, None (4D feature maps), "avg" or "max" global pooling.
    classes: the number of classes of the classifier (1000 with ImageNet weights).
    classifier_activation: the classifier's activation (None or "softmax" with ImageNet
        weights); None returns logits.
    name: the model's name.

Returns:
    A functional `tripod.Model`.
"""

#: per variant: (weights name, width and depth coefficients, default input size, dropout rate)
VARIANTS = {
    "EfficientNetB0": ("b0", 1.0, 1.0, 224, 0.2),
    "EfficientNetB1": ("b1", 1.0, 1.1, 240, 0.2),
    "EfficientNetB2": ("b2", 1.1, 1.2, 260, 0.3),
    "EfficientNetB3": ("b3", 1.2, 1.4, 300, 0.3),
    "EfficientNetB4": ("b4", 1.4, 1.8, 380, 0.4),
    "EfficientNetB5": ("b5", 1.6, 2.2, 456, 0.4),
    "EfficientNetB6": ("b6", 1.8, 2.6, 528, 0.5),
    "EfficientNetB7": ("b7", 2.0, 3.1, 600, 0.5),
}


def _variant(function_name):
    """The public constructor of one variant, with Keras's signature and defaults."""
    weights_name = VARIANTS[function_name][0]
    build = _builder(*VARIANTS[function_name])

    def constructor(
        include_top=True,
        weights="imagenet",
        input_tensor=None,
        input_shape=None,
        pooling=None,
        classes=1000,
        classifier_activation="softmax",
        name=f"efficientnet{weights_name}",
    ):
        return build(**locals())

    constructor.__name__ = constructor.__qualname__ = function_name
    constructor.__doc__ = DOCSTRING.format(name=function_name)
    return constructor


EfficientNetB0 = _variant("EfficientNetB0")
EfficientNetB1 = _variant("EfficientNetB1")
EfficientNetB2 = _variant("EfficientNetB2")
EfficientNetB3 = _variant("EfficientNetB3")
EfficientNetB4 = _variant("EfficientNetB4")
EfficientNetB5 = _variant("EfficientNetB5")
EfficientNetB6 = _variant("EfficientNetB6")
EfficientNetB7 = _variant("EfficientNetB7")


def preprocess_input(x, data_format=None):
    """Return `x` unchanged: EfficientNet preprocesses inside the model (kept for Keras's API)."""
    return x


#: the ImageNet classes of predictions, as every application module exposes them
decode_predictions = imagenet_utils.decode_predictions
