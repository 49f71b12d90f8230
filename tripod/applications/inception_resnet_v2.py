"""InceptionResNetV2 (Szegedy et al., "Inception-v4, Inception-ResNet and the Impact of Residual
Connections on Learning", AAAI 2017), with Keras 3's layer names so its published ImageNet weights
load."""

from tripod import layers
from tripod.applications import common, imagenet_utils
from tripod.applications.inception_v3 import build_classic

_URL_STEM = (
    "https://storage.googleapis.com/tensorflow/keras-applications/inception_resnet_v2/"
    "inception_resnet_v2_weights_tf_dim_ordering_tf_kernels"
)
_HASHES = {True: "e693bd0210a403b3192acc6073ad2e96", False: "d19885ff4a710c122648d3b5c3b684e4"}


class CustomScaleLayer(layers.Layer):
    """`inputs[0] + inputs[1] * scale`: adds a scaled residual branch to its shortcut (the layer
    Keras's InceptionResNetV2 uses, saved under the same class name and module)."""

    _keras_module = "keras.src.applications.inception_resnet_v2"

    def __init__(self, scale, **kwargs):
        super().__init__(**kwargs)
        self.scale = scale

    def call(self, inputs):
        """The shortcut `inputs[0]` plus `scale` times the residual `inputs[1]`."""
        return inputs[0] + inputs[1] * self.scale

    def compute_output_shape(self, input_shape):
        """The shape of the shortcut."""
        return input_shape[0]

    def get_config(self):
        """The base config plus `scale`."""
        return {**super().get_config(), "scale": self.scale}


def conv2d_bn(
    x, filters, kernel_size, strides=1, padding="same", activation="relu", use_bias=False, name=None
):
    """Conv2D (named `name`), then BatchNormalization without scale (`<name>_bn`, only without
    a bias) and `activation` (`<name>_ac`, unless None); unnamed layers get default names."""
    x = layers.Conv2D(
        filters, kernel_size, strides=strides, padding=padding, use_bias=use_bias, name=name
    )(x)
    if not use_bias:
        bn_name = None if name is None else f"{name}_bn"
        x = layers.BatchNormalization(axis=common.channel_axis(), scale=False, name=bn_name)(x)
    if activation is not None:
        x = layers.Activation(activation, name=None if name is None else f"{name}_ac")(x)
    return x


def _chain(x, specs):
    """`conv2d_bn` layers one after the other, each spec `(filters, kernel_size)`."""
    for filters, kernel_size in specs:
        x = conv2d_bn(x, filters, kernel_size)
    return x


#: the branches of each residual block type, each a chain of `(filters, kernel_size)`
_BRANCHES = {
    "block35": [[(32, 1)], [(32, 1), (32, 3)], [(32, 1), (48, 3), (64, 3)]],
    "block17": [[(192, 1)], [(128, 1), (160, (1, 7)), (192, (7, 1))]],
    "block8": [[(192, 1)], [(192, 1), (224, (1, 3)), (256, (3, 1))]],
}


def inception_resnet_block(x, scale, block_type, block_idx, activation="relu"):
    """A residual Inception block (`block_type` "block35", "block17" or "block8"): its
    concatenated branches, projected back by a 1x1 conv, are added to `x` times `scale`; layers
    are named `<block_type>_<block_idx>_...`."""
    if block_type not in _BRANCHES:
        raise ValueError(
            'Unknown Inception-ResNet block type. Expects "block35", "block17" or "block8", '
            f"but got: {block_type}"
        )
    axis = common.channel_axis()
    block_name = f"{block_type}_{block_idx}"
    branches = [_chain(x, specs) for specs in _BRANCHES[block_type]]
    mixed = layers.Concatenate(axis=axis, name=f"{block_name}_mixed")(branches)
    up = conv2d_bn(
        mixed, x.shape[axis], 1, activation=None, use_bias=True, name=f"{block_name}_conv"
    )
    x = CustomScaleLayer(scale)([x, up])
    if activation is not None:
        x = layers.Activation(activation, name=f"{block_name}_ac")(x)
    return x


def _concat(branches, name):
    """Concatenate `branches` along the channels as layer `name`."""
    return layers.Concatenate(axis=common.channel_axis(), name=name)(branches)


def _stem(img_input):
    """The stem and `mixed_5b` (Inception-A), 35x35x320 at the default size."""
    x = conv2d_bn(img_input, 32, 3, strides=2, padding="valid")
    x = conv2d_bn(x, 32, 3, padding="valid")
    x = conv2d_bn(x, 64, 3)
    x = layers.MaxPooling2D(3, strides=2)(x)
    x = conv2d_bn(x, 80, 1, padding="valid")
    x = conv2d_bn(x, 192, 3, padding="valid")
    x = layers.MaxPooling2D(3, strides=2)(x)
    branch_0 = conv2d_bn(x, 96, 1)
    branch_1 = _chain(x, [(48, 1), (64, 5)])
    branch_2 = _chain(x, [(64, 1), (96, 3), (96, 3)])
    branch_pool = layers.AveragePooling2D(3, strides=1, padding="same")(x)
    branch_pool = conv2d_bn(branch_pool, 64, 1)
    return _concat([branch_0, branch_1, branch_2, branch_pool], "mixed_5b")


def _reduction_a(x):
    """`mixed_6a`: 35x35 -> 17x17."""
    branch_0 = conv2d_bn(x, 384, 3, strides=2, padding="valid")
    branch_1 = _chain(x, [(256, 1), (256, 3)])
    branch_1 = conv2d_bn(branch_1, 384, 3, strides=2, padding="valid")
    branch_pool = layers.MaxPooling2D(3, strides=2, padding="valid")(x)
    return _concat([branch_0, branch_1, branch_pool], "mixed_6a")


def _reduction_b(x):
    """`mixed_7a`: 17x17 -> 8x8."""
    branch_0 = conv2d_bn(conv2d_bn(x, 256, 1), 384, 3, strides=2, padding="valid")
    branch_1 = conv2d_bn(conv2d_bn(x, 256, 1), 288, 3, strides=2, padding="valid")
    branch_2 = _chain(x, [(256, 1), (288, 3)])
    branch_2 = conv2d_bn(branch_2, 320, 3, strides=2, padding="valid")
    branch_pool = layers.MaxPooling2D(3, strides=2, padding="valid")(x)
    return _concat([branch_0, branch_1, branch_2, branch_pool], "mixed_7a")


def _features(img_input):
    """Stem, 10 x block35, reduction, 20 x block17, reduction, 10 x block8, `conv_7b`."""
    x = _stem(img_input)
    for block_idx in range(1, 11):
        x = inception_resnet_block(x, 0.17, "block35", block_idx)
    x = _reduction_a(x)
    for block_idx in range(1, 21):
        x = inception_resnet_block(x, 0.1, "block17", block_idx)
    x = _reduction_b(x)
    for block_idx in range(1, 10):
        x = inception_resnet_block(x, 0.2, "block8", block_idx)
    x = inception_resnet_block(x, 1.0, "block8", 10, activation=None)
    return conv2d_bn(x, 1536, 1, name="conv_7b")


def InceptionResNetV2(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="inception_resnet_v2",
):
    """InceptionResNetV2 (56M parameters), optionally with ImageNet weights; inputs through
    `inception_resnet_v2.preprocess_input`, default size 299x299, at least 75x75."""
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
        sizes=(299, 75),
        url_stem=_URL_STEM,
        hashes=_HASHES,
    )


def preprocess_input(x, data_format=None):
    """Scale pixels in [0, 255] to [-1, 1] ("tf" mode), as the InceptionResNetV2 weights
    expect."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")


#: the ImageNet classes of predictions, as every application module exposes them
decode_predictions = imagenet_utils.decode_predictions
