"""ResNet50, ResNet101 and ResNet152 (He et al., "Deep Residual Learning for Image Recognition",
2015), as `keras.applications.resnet` builds them, plus the builder ResNetV2 shares.

Every constructor takes Keras's arguments: `include_top` (the average pooling and `classes`-way
classifier on top), `weights` (None, "imagenet" or a weights file), `input_tensor` (a tensor to
build on), `input_shape` (default `(224, 224, 3)`; at least 32x32), `pooling` (None, "avg" or
"max" when `include_top` is False), `classes`, `classifier_activation` and `name`. Inputs are
preprocessed with `preprocess_input` ("caffe": BGR, mean-centred).
"""

from tripod.applications import imagenet_utils
from tripod.applications.common import (
    channel_axis,
    checked_image_input,
    classifier,
    model_inputs,
    pool,
)
from tripod.applications.weights import load_weights
from tripod.layers import Activation, Add, BatchNormalization, Conv2D, MaxPooling2D, ZeroPadding2D
from tripod.training.model import Model

BASE_WEIGHTS_PATH = "https://storage.googleapis.com/tensorflow/keras-applications/resnet/"
#: md5 of Keras's published files: (with the top classifier, without it)
WEIGHTS_HASHES = {
    "resnet50": ("2cb95161c43110f7111970584f804107", "4d473c1dd8becc155b73f8504c6f6626"),
    "resnet101": ("f1aeb4b969a6efcfb50fad2f0c20cfc5", "88cf7a10940856eca736dc7b7e228a21"),
    "resnet152": ("100835be76be38e30d865e96f2aaae62", "ee4c566cf9a93f14d82f913c2dc6dd0c"),
    "resnet50v2": ("3ef43a0b657b3be2300d5770ece849e0", "fac2f116257151a9d068a22e544a4917"),
    "resnet101v2": ("6343647c601c52e1368623803854d971", "c0ed64b8031c3730f411d2eb4eea35b5"),
    "resnet152v2": ("a49b44d1979771252814e80f8ec446f9", "ed17cf2e0169df9d443503ef94b23b33"),
}
_FILTERS = (64, 128, 256, 512)
_EPSILON = 1.001e-5


def batch_norm(x, name):
    """The batch normalization every ResNet uses (over the channels, epsilon 1.001e-5)."""
    return BatchNormalization(axis=channel_axis(), epsilon=_EPSILON, name=name)(x)


def _bottleneck_v1(x, filters, stride, conv_shortcut, name):
    """Post-activation bottleneck block: 1x1 (strided), 3x3, 1x1 (4x filters) convolutions, each
    batch-normalized, added to the (projected) shortcut, then relu."""
    shortcut = x
    if conv_shortcut:
        shortcut = Conv2D(4 * filters, 1, strides=stride, name=f"{name}_0_conv")(x)
        shortcut = batch_norm(shortcut, f"{name}_0_bn")
    x = Conv2D(filters, 1, strides=stride, name=f"{name}_1_conv")(x)
    x = Activation("relu", name=f"{name}_1_relu")(batch_norm(x, f"{name}_1_bn"))
    x = Conv2D(filters, 3, padding="same", name=f"{name}_2_conv")(x)
    x = Activation("relu", name=f"{name}_2_relu")(batch_norm(x, f"{name}_2_bn"))
    x = batch_norm(Conv2D(4 * filters, 1, name=f"{name}_3_conv")(x), f"{name}_3_bn")
    x = Add(name=f"{name}_add")([shortcut, x])
    return Activation("relu", name=f"{name}_out")(x)


def stack_v1(blocks):
    """The residual stages of ResNet v1 with `blocks[i]` blocks in stage i (named conv2..conv5);
    each stage but the first halves the resolution in its first block."""

    def stack_fn(x):
        for stage, (filters, count) in enumerate(zip(_FILTERS, blocks, strict=True)):
            name = f"conv{stage + 2}"
            stride = 1 if stage == 0 else 2
            x = _bottleneck_v1(x, filters, stride, True, f"{name}_block1")
            for i in range(2, count + 1):
                x = _bottleneck_v1(x, filters, 1, False, f"{name}_block{i}")
        return x

    return stack_fn


def _stem(x, preact):
    """7x7/2 convolution (batch norm and relu unless pre-activated), then 3x3/2 max pooling."""
    x = ZeroPadding2D(padding=((3, 3), (3, 3)), name="conv1_pad")(x)
    x = Conv2D(64, 7, strides=2, name="conv1_conv")(x)
    if not preact:
        x = Activation("relu", name="conv1_relu")(batch_norm(x, "conv1_bn"))
    x = ZeroPadding2D(padding=((1, 1), (1, 1)), name="pool1_pad")(x)
    return MaxPooling2D(3, strides=2, name="pool1_pool")(x)


def _weights_file(weights_name, include_top):
    """(URL, md5) of Keras's published ImageNet weights for `weights_name`."""
    suffix = "" if include_top else "_notop"
    file_name = f"{weights_name}_weights_tf_dim_ordering_tf_kernels{suffix}.h5"
    return BASE_WEIGHTS_PATH + file_name, WEIGHTS_HASHES[weights_name][0 if include_top else 1]


def build_resnet(
    stack_fn,
    preact,
    weights_name,
    include_top,
    weights,
    input_tensor,
    input_shape,
    pooling,
    classes,
    classifier_activation,
    name,
):
    """A ResNet (v1, or v2 when `preact`) around the residual stages `stack_fn`, with the
    arguments of the public constructors; loads the weights `weights_name` publishes."""
    img_input = checked_image_input(input_tensor, input_shape, weights, include_top, classes)
    x = stack_fn(_stem(img_input, preact))
    if preact:
        x = Activation("relu", name="post_relu")(batch_norm(x, "post_bn"))
    if include_top:
        x = pool(x, "avg", avg_name="avg_pool")
        x = classifier(x, classes, classifier_activation, weights)
    else:
        x = pool(x, pooling, avg_name="avg_pool", max_name="max_pool")
    model = Model(model_inputs(input_tensor, img_input), x, name=name)
    load_weights(model, weights, *_weights_file(weights_name, include_top))
    return model


def ResNet50(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="resnet50",
):
    """ResNet50 (stages of 3, 4, 6, 3 bottleneck blocks; 25.6M parameters with the top)."""
    return build_resnet(stack_v1((3, 4, 6, 3)), False, "resnet50", **locals())


def ResNet101(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="resnet101",
):
    """ResNet101 (stages of 3, 4, 23, 3 bottleneck blocks; 44.7M parameters with the top)."""
    return build_resnet(stack_v1((3, 4, 23, 3)), False, "resnet101", **locals())


def ResNet152(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="resnet152",
):
    """ResNet152 (stages of 3, 8, 36, 3 bottleneck blocks; 60.4M parameters with the top)."""
    return build_resnet(stack_v1((3, 8, 36, 3)), False, "resnet152", **locals())


def preprocess_input(x, data_format=None):
    """Preprocess images (0-255 RGB) for ResNet: RGB->BGR, then subtract ImageNet's channel
    means, no scaling ("caffe" mode); NumPy in, NumPy out; tensor in, tensor out."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="caffe")


#: the ImageNet classes of predictions, as every application module exposes them
decode_predictions = imagenet_utils.decode_predictions
