"""ResNet50V2, ResNet101V2 and ResNet152V2 (He et al., "Identity Mappings in Deep Residual
Networks", 2016): pre-activation residual blocks, as `keras.applications.resnet_v2` builds them.

The constructors take the arguments of `tripod.applications.resnet`'s; inputs are preprocessed
with `preprocess_input` ("tf": scaled to [-1, 1]).
"""

from tripod.applications import imagenet_utils
from tripod.applications.resnet import batch_norm, build_resnet
from tripod.layers import Activation, Add, Conv2D, MaxPooling2D, ZeroPadding2D

_FILTERS = (64, 128, 256, 512)


def _bottleneck_v2(x, filters, stride, conv_shortcut, name):
    """Pre-activation bottleneck block: batch norm and relu first, then 1x1, 3x3 (strided) and
    1x1 (4x filters) convolutions added to the shortcut (projected, subsampled or identity)."""
    preact = Activation("relu", name=f"{name}_preact_relu")(batch_norm(x, f"{name}_preact_bn"))
    if conv_shortcut:
        shortcut = Conv2D(4 * filters, 1, strides=stride, name=f"{name}_0_conv")(preact)
    elif stride > 1:
        shortcut = MaxPooling2D(1, strides=stride)(x)  # unnamed in Keras too
    else:
        shortcut = x
    x = Conv2D(filters, 1, use_bias=False, name=f"{name}_1_conv")(preact)
    x = Activation("relu", name=f"{name}_1_relu")(batch_norm(x, f"{name}_1_bn"))
    x = ZeroPadding2D(padding=((1, 1), (1, 1)), name=f"{name}_2_pad")(x)
    x = Conv2D(filters, 3, strides=stride, use_bias=False, name=f"{name}_2_conv")(x)
    x = Activation("relu", name=f"{name}_2_relu")(batch_norm(x, f"{name}_2_bn"))
    x = Conv2D(4 * filters, 1, name=f"{name}_3_conv")(x)
    return Add(name=f"{name}_out")([shortcut, x])


def stack_v2(blocks):
    """The residual stages of ResNet v2 with `blocks[i]` blocks in stage i (named conv2..conv5):
    each stage opens with a projection and, but for the last, halves the resolution in its last
    block."""

    def stack_fn(x):
        last_stage = len(blocks) - 1
        for stage, (filters, count) in enumerate(zip(_FILTERS, blocks, strict=True)):
            name = f"conv{stage + 2}"
            x = _bottleneck_v2(x, filters, 1, True, f"{name}_block1")
            for i in range(2, count):
                x = _bottleneck_v2(x, filters, 1, False, f"{name}_block{i}")
            stride = 1 if stage == last_stage else 2
            x = _bottleneck_v2(x, filters, stride, False, f"{name}_block{count}")
        return x

    return stack_fn


def ResNet50V2(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="resnet50v2",
):
    """ResNet50V2 (stages of 3, 4, 6, 3 pre-activation blocks; 25.6M parameters with the top)."""
    return build_resnet(stack_v2((3, 4, 6, 3)), True, "resnet50v2", **locals())


def ResNet101V2(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="resnet101v2",
):
    """ResNet101V2 (stages of 3, 4, 23, 3 pre-activation blocks; 44.7M parameters with the
    top)."""
    return build_resnet(stack_v2((3, 4, 23, 3)), True, "resnet101v2", **locals())


def ResNet152V2(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="resnet152v2",
):
    """ResNet152V2 (stages of 3, 8, 36, 3 pre-activation blocks; 60.4M parameters with the
    top)."""
    return build_resnet(stack_v2((3, 8, 36, 3)), True, "resnet152v2", **locals())


def preprocess_input(x, data_format=None):
    """Preprocess images (0-255 RGB) for ResNetV2: scale to [-1, 1] ("tf" mode); NumPy in,
    NumPy out; tensor in, tensor out."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")


#: the ImageNet classes of predictions, as every application module exposes them
decode_predictions = imagenet_utils.decode_predictions
