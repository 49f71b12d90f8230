"""Xception (Chollet, "Xception: Deep Learning with Depthwise Separable Convolutions", CVPR
2017), with Keras 3's layer names so its published ImageNet weights load."""

from tripod import layers
from tripod.applications import common, imagenet_utils
from tripod.applications.inception_v3 import build_classic

_URL_STEM = (
    "https://storage.googleapis.com/tensorflow/keras-applications/xception/"
    "xception_weights_tf_dim_ordering_tf_kernels"
)
_HASHES = {True: "0a58e3b7378bc2990ea3b43d5981f1f6", False: "b0042744bf5b25fce3cb969f33bebb97"}


def _bn(x, name=None):
    """BatchNormalization over the channels."""
    return layers.BatchNormalization(axis=common.channel_axis(), name=name)(x)


def _sepconv_bn(x, filters, name):
    """SeparableConv2D 3x3 without bias (`name`) then BatchNormalization (`<name>_bn`)."""
    x = layers.SeparableConv2D(filters, (3, 3), padding="same", use_bias=False, name=name)(x)
    return _bn(x, f"{name}_bn")


def _relu(x, name):
    """ReLU activation layer `name`."""
    return layers.Activation("relu", name=name)(x)


def _shortcut(x, filters):
    """The strided 1x1 projection (unnamed Conv2D + BatchNormalization) a downsampling block adds
    to its output."""
    x = layers.Conv2D(filters, (1, 1), strides=(2, 2), padding="same", use_bias=False)(x)
    return _bn(x)


def _downsample_block(x, filters, block, first_relu=True):
    """Entry / exit flow block `block<block>`: [ReLU] sepconv, ReLU, sepconv, strided 3x3 max
    pooling, plus the projected shortcut; `filters` is the two sepconvs' widths."""
    residual = _shortcut(x, filters[1])
    prefix = f"block{block}"
    if first_relu:
        x = _relu(x, f"{prefix}_sepconv1_act")
    x = _sepconv_bn(x, filters[0], f"{prefix}_sepconv1")
    x = _relu(x, f"{prefix}_sepconv2_act")
    x = _sepconv_bn(x, filters[1], f"{prefix}_sepconv2")
    x = layers.MaxPooling2D((3, 3), strides=(2, 2), padding="same", name=f"{prefix}_pool")(x)
    return layers.add([x, residual])


def _middle_block(x, block):
    """Middle flow block `block<block>`: three ReLU + 728-wide sepconv, added to its input."""
    residual = x
    for i in range(1, 4):
        x = _relu(x, f"block{block}_sepconv{i}_act")
        x = _sepconv_bn(x, 728, f"block{block}_sepconv{i}")
    return layers.add([x, residual])


def _features(img_input):
    """Entry flow, 8 middle blocks, exit flow."""
    x = layers.Conv2D(32, (3, 3), strides=(2, 2), use_bias=False, name="block1_conv1")(img_input)
    x = _relu(_bn(x, "block1_conv1_bn"), "block1_conv1_act")
    x = layers.Conv2D(64, (3, 3), use_bias=False, name="block1_conv2")(x)
    x = _relu(_bn(x, "block1_conv2_bn"), "block1_conv2_act")
    x = _downsample_block(x, (128, 128), 2, first_relu=False)
    x = _downsample_block(x, (256, 256), 3)
    x = _downsample_block(x, (728, 728), 4)
    for block in range(5, 13):
        x = _middle_block(x, block)
    x = _downsample_block(x, (728, 1024), 13)
    x = _sepconv_bn(x, 1536, "block14_sepconv1")
    x = _relu(x, "block14_sepconv1_act")
    x = _sepconv_bn(x, 2048, "block14_sepconv2")
    return _relu(x, "block14_sepconv2_act")


def Xception(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="xception",
):
    """Xception (23M parameters), optionally with ImageNet weights; inputs through
    `xception.preprocess_input`, default size 299x299, at least 71x71."""
    return build_classic(
        _features,
        include_top,
        weights,
        input_tensor,
        input_shape,
        pooling,
        classes,
        classifier_activation,
        name,
        sizes=(299, 71),
        url_stem=_URL_STEM,
        hashes=_HASHES,
    )


def preprocess_input(x, data_format=None):
    """Scale pixels in [0, 255] to [-1, 1] ("tf" mode), as the Xception weights expect."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")


#: the ImageNet classes of predictions, as every application module exposes them
decode_predictions = imagenet_utils.decode_predictions
