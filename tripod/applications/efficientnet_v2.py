"""EfficientNetV2 B0-B3, S, M and L (Tan & Le, ICML 2021, https://arxiv.org/abs/2104.00298), as
`keras.applications.efficientnet_v2`: the same layer names, so Keras's published ImageNet weights
load.

With `include_preprocessing` (the default) the models take pixels in [0, 255]: the B variants
rescale to [0, 1] and normalize with ImageNet's channel statistics, S/M/L rescale to [-1, 1].
Without it they take inputs already in [-1, 1]. `preprocess_input` passes its input through.
"""

import math

from tripod import layers
from tripod.applications import common, efficientnet, imagenet_utils
from tripod.layers.initializers import Constant

BASE_WEIGHTS_PATH = "https://storage.googleapis.com/tensorflow/keras-applications/efficientnet_v2/"

#: md5 of the published files per variant: (with the classifier, without it)
WEIGHTS_HASHES = {
    "b0": ("21ecbf6da12460d5c40bb2f29ceb2188", "893217f2bb855e2983157299931e43ff"),
    "b1": ("069f0534ff22adf035c89e2d9547a9dc", "0e80663031ca32d657f9caa404b6ec37"),
    "b2": ("424e49f28180edbde1e94797771950a7", "1dfe2e7a5d45b6632553a8961ea609eb"),
    "b3": ("1f1fc43bd98a6e4fd8fdfd551e02c7a0", "f6abf7b5849ac99a89b50dd3fd532856"),
    "-s": ("e1d88a8495beba45748fedd0cecbe016", "af0682fb74e8c54910f2d4393339c070"),
    "-m": ("a3bf6aa3276309f4fc6a34aa114c95cd", "1b8dc055df72dde80d614482840fe342"),
    "-l": ("27e6d408b53c7ebc868fefa357689935", "b0b66b5c863aef5b46e8608fe1711615"),
}

# Stages before width/depth scaling: (kernel_size, repeats, input_filters, output_filters,
# expand_ratio, se_ratio, strides, fused); fused stages use FusedMBConv blocks, the others MBConv.
_B_STAGES = (
    (3, 1, 32, 16, 1, 0, 1, True),
    (3, 2, 16, 32, 4, 0, 2, True),
    (3, 2, 32, 48, 4, 0, 2, True),
    (3, 3, 48, 96, 4, 0.25, 2, False),
    (3, 5, 96, 112, 6, 0.25, 1, False),
    (3, 8, 112, 192, 6, 0.25, 2, False),
)
#: the stages of each variant, by its weights name
STAGES = {
    "b0": _B_STAGES,
    "b1": _B_STAGES,
    "b2": _B_STAGES,
    "b3": _B_STAGES,
    "-s": (
        (3, 2, 24, 24, 1, 0, 1, True),
        (3, 4, 24, 48, 4, 0, 2, True),
        (3, 4, 48, 64, 4, 0, 2, True),
        (3, 6, 64, 128, 4, 0.25, 2, False),
        (3, 9, 128, 160, 6, 0.25, 1, False),
        (3, 15, 160, 256, 6, 0.25, 2, False),
    ),
    "-m": (
        (3, 3, 24, 24, 1, 0, 1, True),
        (3, 5, 24, 48, 4, 0, 2, True),
        (3, 5, 48, 80, 4, 0, 2, True),
        (3, 7, 80, 160, 4, 0.25, 2, False),
        (3, 14, 160, 176, 6, 0.25, 1, False),
        (3, 18, 176, 304, 6, 0.25, 2, False),
        (3, 5, 304, 512, 6, 0.25, 1, False),
    ),
    "-l": (
        (3, 4, 32, 32, 1, 0, 1, True),
        (3, 7, 32, 64, 4, 0, 2, True),
        (3, 7, 64, 96, 4, 0, 2, True),
        (3, 10, 96, 192, 4, 0.25, 2, False),
        (3, 19, 192, 224, 6, 0.25, 1, False),
        (3, 25, 224, 384, 6, 0.25, 2, False),
        (3, 7, 384, 640, 6, 0.25, 1, False),
    ),
}

#: per variant: (default model name, also the published file's stem; weights name; width and
#: depth coefficients; default input size)
VARIANTS = {
    "EfficientNetV2B0": ("efficientnetv2-b0", "b0", 1.0, 1.0, 224),
    "EfficientNetV2B1": ("efficientnetv2-b1", "b1", 1.0, 1.1, 240),
    "EfficientNetV2B2": ("efficientnetv2-b2", "b2", 1.1, 1.2, 260),
    "EfficientNetV2B3": ("efficientnetv2-b3", "b3", 1.2, 1.4, 300),
    "EfficientNetV2S": ("efficientnetv2-s", "-s", 1.0, 1.0, 384),
    "EfficientNetV2M": ("efficientnetv2-m", "-m", 1.0, 1.0, 480),
    "EfficientNetV2L": ("efficientnetv2-l", "-l", 1.0, 1.0, 480),
}

BN_MOMENTUM = 0.9
DROPOUT_RATE = 0.2
DROP_CONNECT_RATE = 0.2
IMAGENET_MEAN_RGB = (0.485, 0.456, 0.406)


def round_filters(filters, width, divisor=8):
    """`filters` scaled by `width`, rounded to the nearest multiple of `divisor` (at least it)."""
    return int(max(divisor, int(filters * width + divisor / 2) // divisor * divisor))


def _bn(x, name):
    return layers.BatchNormalization(axis=common.channel_axis(), momentum=BN_MOMENTUM, name=name)(x)


def _bn_activation(x, name, activation_name):
    return efficientnet.bn_activation(x, "swish", name, activation_name, momentum=BN_MOMENTUM)


def _expand(x, block, name, kernel_size=1, strides=1):
    """The expansion convolution (to `input_filters * expand_ratio` channels), when any."""
    if block["expand_ratio"] == 1:
        return x
    filters = block["input_filters"] * block["expand_ratio"]
    x = efficientnet.conv(filters, kernel_size, f"{name}expand_conv", strides=strides)(x)
    return _bn_activation(x, f"{name}expand_bn", f"{name}expand_activation")


def _squeeze_excite(x, block, name):
    """Squeeze and excitation when the block's `se_ratio` is in (0, 1]."""
    if not 0 < block["se_ratio"] <= 1:
        return x
    filters = block["input_filters"] * block["expand_ratio"]
    return efficientnet.squeeze_excite(
        x, block["input_filters"], filters, block["se_ratio"], "swish", name
    )


def _skip(x, inputs, block, drop_rate, name):
    """The drop-connect residual when the block keeps the shape of its input."""
    if block["strides"] == 1 and block["input_filters"] == block["output_filters"]:
        return efficientnet.residual(x, inputs, drop_rate, name)
    return x


def mb_conv(inputs, block, drop_rate, name):
    """MBConv: 1x1 expansion, depthwise convolution, squeeze and excitation, 1x1 projection."""
    x = _expand(inputs, block, name)
    x = layers.DepthwiseConv2D(
        block["kernel_size"],
        strides=block["strides"],
        padding="same",
        use_bias=False,
        depthwise_initializer=efficientnet.CONV_KERNEL_INITIALIZER,
        name=f"{name}dwconv2",
    )(x)
    x = _bn_activation(x, f"{name}bn", f"{name}activation")
    x = _squeeze_excite(x, block, name)
    x = efficientnet.conv(block["output_filters"], 1, f"{name}project_conv")(x)
    x = _bn(x, f"{name}project_bn")
    return _skip(x, inputs, block, drop_rate, name)


def fused_mb_conv(inputs, block, drop_rate, name):
    """FusedMBConv: one strided KxK expansion convolution in place of the 1x1 expansion and the
    depthwise convolution; without expansion the projection itself is the KxK convolution."""
    kernel_size, strides = block["kernel_size"], block["strides"]
    x = _expand(inputs, block, name, kernel_size, strides)
    x = _squeeze_excite(x, block, name)
    expanded = block["expand_ratio"] != 1
    x = efficientnet.conv(
        block["output_filters"],
        1 if expanded else kernel_size,
        f"{name}project_conv",
        strides=1 if expanded else strides,
    )(x)
    if expanded:
        x = _bn(x, f"{name}project_bn")
    else:
        x = _bn_activation(x, f"{name}project_bn", f"{name}project_activation")
    return _skip(x, inputs, block, drop_rate, name)


def _preprocessing(x, weights_name, channels):
    """The in-model preprocessing: B variants (3 channels) rescale to [0, 1] and normalize with
    ImageNet's statistics; the others rescale to [-1, 1]."""
    if weights_name.startswith("b") and channels == 3:
        x = layers.Rescaling(scale=1.0 / 255)(x)
        variance = [std**2 for std in efficientnet.IMAGENET_STDDEV_RGB]
        return layers.Normalization(
            mean=list(IMAGENET_MEAN_RGB), variance=variance, axis=common.channel_axis()
        )(x)
    return layers.Rescaling(scale=1.0 / 128.0, offset=-1)(x)


def _blocks(x, stages, width, depth):
    """The scaled stages; block `j` of stage `i` is named `block{i}{a,b,...}_`, its drop-connect
    rate growing linearly with its index over the unscaled block count (as Keras counts)."""
    total, index = float(sum(stage[1] for stage in stages)), 0
    for i, (kernel_size, repeats, filters_in, filters_out, expand, se, strides, fused) in enumerate(
        stages
    ):
        filters_in, filters_out = (
            round_filters(filters_in, width),
            round_filters(filters_out, width),
        )
        make = fused_mb_conv if fused else mb_conv
        for j in range(math.ceil(depth * repeats)):
            block = {
                "kernel_size": kernel_size,
                "input_filters": filters_in if j == 0 else filters_out,
                "output_filters": filters_out,
                "expand_ratio": expand,
                "se_ratio": se,
                "strides": strides if j == 0 else 1,
            }
            x = make(x, block, DROP_CONNECT_RATE * index / total, f"block{i + 1}{chr(j + 97)}_")
            index += 1
    return x


def _builder(file_stem, weights_name, width, depth, default_size):
    """The builder of one EfficientNetV2 variant, taking the public constructor's arguments."""
    stages = STAGES[weights_name]

    def build(**spec):
        img_input = efficientnet.image_input(spec, default_size)
        x = img_input
        if spec["include_preprocessing"]:
            x = _preprocessing(x, weights_name, x.shape[common.channel_axis()])
        x = efficientnet.conv(round_filters(stages[0][2], width), 3, "stem_conv", strides=2)(x)
        x = _bn_activation(x, "stem_bn", "stem_activation")
        x = _blocks(x, stages, width, depth)
        x = efficientnet.conv(round_filters(1280, width), 1, "top_conv")(x)
        x = _bn_activation(x, "top_bn", "top_activation")
        x = efficientnet.head(x, spec, DROPOUT_RATE, bias_initializer=Constant(0.0))
        hashes = WEIGHTS_HASHES[weights_name]
        return efficientnet.finish(img_input, x, spec, file_stem, BASE_WEIGHTS_PATH, hashes)

    return build


DOCSTRING = """Build {name} (EfficientNetV2, https://arxiv.org/abs/2104.00298), optionally with
weights trained on ImageNet.

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
    include_preprocessing: bool; True: the model takes pixels in [0, 255] and rescales them
        itself; False: it takes inputs already scaled to [-1, 1].
    name: the model's name.

Returns:
    A functional `tripod.Model`.
"""


def _variant(function_name):
    """The public constructor of one variant, with Keras's signature and defaults."""
    default_name = VARIANTS[function_name][0]
    build = _builder(*VARIANTS[function_name])

    def constructor(
        include_top=True,
        weights="imagenet",
        input_tensor=None,
        input_shape=None,
        pooling=None,
        classes=1000,
        classifier_activation="softmax",
        include_preprocessing=True,
        name=default_name,
    ):
        return build(**locals())

    constructor.__name__ = constructor.__qualname__ = function_name
    constructor.__doc__ = DOCSTRING.format(name=function_name)
    return constructor


EfficientNetV2B0 = _variant("EfficientNetV2B0")
EfficientNetV2B1 = _variant("EfficientNetV2B1")
EfficientNetV2B2 = _variant("EfficientNetV2B2")
EfficientNetV2B3 = _variant("EfficientNetV2B3")
EfficientNetV2S = _variant("EfficientNetV2S")
EfficientNetV2M = _variant("EfficientNetV2M")
EfficientNetV2L = _variant("EfficientNetV2L")


def preprocess_input(x, data_format=None):
    """Return `x` unchanged: EfficientNetV2 preprocesses inside the model (kept for Keras's API)."""
    return x


#: the ImageNet classes of predictions, as every application module exposes them
decode_predictions = imagenet_utils.decode_predictions
