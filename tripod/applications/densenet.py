"""DenseNet121, DenseNet169 and DenseNet201 (Huang et al., "Densely Connected Convolutional
Networks", CVPR 2017), with Keras 3's layer names so its published ImageNet weights load."""

import functools

from tripod import layers
from tripod.applications import imagenet_utils
from tripod.applications.inception_v3 import build_classic
from tripod.backends.config import image_data_format

_BASE_URL = "https://storage.googleapis.com/tensorflow/keras-applications/densenet/"

#: blocks per dense stage -> (file stem, hash with top, hash without top)
_WEIGHTS = {
    (6, 12, 24, 16): (
        "densenet121",
        "9d60b8095a5708f2dcce2bca79d332c7",
        "30ee3e1110167f948a6b9946edeeb738",
    ),
    (6, 12, 32, 32): (
        "densenet169",
        "d699b8f76981ab1b30698df4c175e90b",
        "b8c4d4c20dd625c148057b9ff1c1176b",
    ),
    (6, 12, 48, 32): (
        "densenet201",
        "1ceb130c1ea1b78c3bf6114dbdfd8807",
        "c13680b51ded0fb44dff2d8f86ac8bb1",
    ),
}

_GROWTH_RATE = 32
_EPSILON = 1.001e-5
_AXIS = 3  # DenseNet is channels_last only, as in Keras


def _bn_relu(x, name):
    """Batch normalization then ReLU, named `<name>_bn` and `<name>_relu`."""
    x = layers.BatchNormalization(axis=_AXIS, epsilon=_EPSILON, name=f"{name}_bn")(x)
    return layers.Activation("relu", name=f"{name}_relu")(x)


def _conv_block(x, name):
    """One dense layer: a 1x1 bottleneck then a 3x3 conv whose `growth rate` channels are
    concatenated to the input."""
    y = _bn_relu(x, f"{name}_0")
    y = layers.Conv2D(4 * _GROWTH_RATE, 1, use_bias=False, name=f"{name}_1_conv")(y)
    y = _bn_relu(y, f"{name}_1")
    y = layers.Conv2D(_GROWTH_RATE, 3, padding="same", use_bias=False, name=f"{name}_2_conv")(y)
    return layers.Concatenate(axis=_AXIS, name=f"{name}_concat")([x, y])


def _dense_block(x, blocks, name):
    """`blocks` dense layers in a row."""
    for i in range(blocks):
        x = _conv_block(x, f"{name}_block{i + 1}")
    return x


def _transition_block(x, name):
    """Halve the channels with a 1x1 conv and the resolution with 2x2 average pooling."""
    x = _bn_relu(x, name)
    x = layers.Conv2D(x.shape[_AXIS] // 2, 1, use_bias=False, name=f"{name}_conv")(x)
    return layers.AveragePooling2D(2, strides=2, name=f"{name}_pool")(x)


def _features(img_input, blocks):
    """The stem and the four dense stages, up to the final BN + ReLU."""
    x = layers.ZeroPadding2D(padding=((3, 3), (3, 3)))(img_input)
    x = layers.Conv2D(64, 7, strides=2, use_bias=False, name="conv1_conv")(x)
    x = _bn_relu(x, "conv1")
    x = layers.ZeroPadding2D(padding=((1, 1), (1, 1)))(x)
    x = layers.MaxPooling2D(3, strides=2, name="pool1")(x)
    for stage, count in enumerate(blocks[:-1], start=2):
        x = _dense_block(x, count, f"conv{stage}")
        x = _transition_block(x, f"pool{stage}")
    x = _dense_block(x, blocks[-1], "conv5")
    x = layers.BatchNormalization(axis=_AXIS, epsilon=_EPSILON, name="bn")(x)
    return layers.Activation("relu", name="relu")(x)


def _densenet(
    blocks,
    include_top,
    weights,
    input_tensor,
    input_shape,
    pooling,
    classes,
    classifier_activation,
    name,
):
    """Build a DenseNet with `blocks` dense layers per stage and load `weights`."""
    if image_data_format() == "channels_first":
        raise ValueError(
            "DenseNet does not support the `channels_first` image data format. Switch to "
            "`channels_last` with `tripod.config.set_image_data_format('channels_last')`."
        )
    stem, top_hash, notop_hash = _WEIGHTS[blocks]
    return build_classic(
        functools.partial(_features, blocks=blocks),
        include_top,
        weights,
        input_tensor,
        input_shape,
        pooling,
        classes,
        classifier_activation,
        name,
        sizes=(224, 32),
        url_stem=f"{_BASE_URL}{stem}_weights_tf_dim_ordering_tf_kernels",
        hashes={True: top_hash, False: notop_hash},
        pool_names=("avg_pool", "max_pool"),
    )


def DenseNet121(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="densenet121",
):
    """DenseNet121 (8M parameters), optionally with ImageNet weights; inputs through
    `densenet.preprocess_input`, default size 224x224, at least 32x32."""
    return _densenet(
        (6, 12, 24, 16),
        include_top,
        weights,
        input_tensor,
        input_shape,
        pooling,
        classes,
        classifier_activation,
        name,
    )


def DenseNet169(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="densenet169",
):
    """DenseNet169 (14M parameters), optionally with ImageNet weights; inputs through
    `densenet.preprocess_input`, default size 224x224, at least 32x32."""
    return _densenet(
        (6, 12, 32, 32),
        include_top,
        weights,
        input_tensor,
        input_shape,
        pooling,
        classes,
        classifier_activation,
        name,
    )


def DenseNet201(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="densenet201",
):
    """DenseNet201 (20M parameters), optionally with ImageNet weights; inputs through
    `densenet.preprocess_input`, default size 224x224, at least 32x32."""
    return _densenet(
        (6, 12, 48, 32),
        include_top,
        weights,
        input_tensor,
        input_shape,
        pooling,
        classes,
        classifier_activation,
        name,
    )


def preprocess_input(x, data_format=None):
    """Scale pixels in [0, 255] to [0, 1] and normalize each channel with ImageNet's mean and
    standard deviation ("torch" mode), as the DenseNet weights expect."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="torch")


#: the ImageNet classes of predictions, as every application module exposes them
decode_predictions = imagenet_utils.decode_predictions
