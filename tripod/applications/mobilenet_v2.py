"""MobileNetV2, as `keras.applications.mobilenet_v2`: inverted residual blocks with linear
bottlenecks, with Keras's layer names so Keras's published ImageNet weights load."""

from tripod import layers
from tripod.applications import common, imagenet_utils
from tripod.applications import weights as weight_files
from tripod.applications.mobilenet import (
    batch_norm,
    default_size,
    imagenet_rows,
    spatial_size,
)
from tripod.backends.common.keras_tensor import is_keras_tensor
from tripod.backends.config import image_data_format
from tripod.training.model import Model

BASE_WEIGHT_PATH = "https://storage.googleapis.com/tensorflow/keras-applications/mobilenet_v2/"
WEIGHT_SIZES = (96, 128, 160, 192, 224)
WEIGHT_ALPHAS = (0.35, 0.50, 0.75, 1.0, 1.3, 1.4)
# (output filters before alpha, stride, expansion) of the 17 inverted residual blocks
_BLOCKS = (
    (16, 1, 1),
    (24, 2, 6),
    (24, 1, 6),
    (32, 2, 6),
    (32, 1, 6),
    (32, 1, 6),
    (64, 2, 6),
    (64, 1, 6),
    (64, 1, 6),
    (64, 1, 6),
    (96, 1, 6),
    (96, 1, 6),
    (96, 1, 6),
    (160, 2, 6),
    (160, 1, 6),
    (160, 1, 6),
    (320, 1, 6),
)
_BN = {"epsilon": 1e-3, "momentum": 0.999}


def make_divisible(value, divisor=8, min_value=None):
    """`value` rounded to a multiple of `divisor` (at least `min_value`), never more than 10%
    below `value`: the channel rounding of the TensorFlow MobileNet reference."""
    min_value = divisor if min_value is None else min_value
    rounded = max(min_value, int(value + divisor / 2) // divisor * divisor)
    return rounded + divisor if rounded < 0.9 * value else rounded


def check_input_tensor(input_tensor, input_shape):
    """Keras's check that an `input_tensor` given with an `input_shape` is a symbolic tensor whose
    width agrees with `input_shape` (Keras compares the channels with the rows under
    channels_first, a slip not copied: the widths are compared there too)."""
    if not is_keras_tensor(input_tensor):
        raise ValueError(
            f"input_tensor is not a Keras tensor; Received `input_tensor={input_tensor}`"
        )
    axis = 3 if image_data_format() == "channels_first" else 2
    if input_tensor.shape[axis] != input_shape[axis - 1]:
        raise ValueError(
            f"input_tensor.shape[{axis}] must equal input_shape[{axis - 1}]; Received "
            f"`input_tensor.shape={input_tensor.shape}`, `input_shape={input_shape}`"
        )


def _default_size(input_shape, input_tensor):
    """The default input size: the given (or `input_tensor`'s) square size when weights exist for
    it, else 224."""
    if input_shape is not None:
        return default_size(*spatial_size(input_shape), WEIGHT_SIZES)
    if input_tensor is not None and is_keras_tensor(input_tensor):
        return default_size(*spatial_size(input_tensor.shape[1:]), WEIGHT_SIZES)
    return 224


def _inverted_res_block(inputs, expansion, stride, alpha, filters, block_id):
    """Expand (1x1, ReLU6; not in block 0), depthwise 3x3 (ReLU6), project (1x1, linear), with a
    residual connection when the shape is kept."""
    in_channels = inputs.shape[common.channel_axis()]
    out_channels = make_divisible(int(filters * alpha), 8)
    prefix = f"block_{block_id}_" if block_id else "expanded_conv_"
    x = inputs
    if block_id:
        x = layers.Conv2D(
            expansion * in_channels, 1, padding="same", use_bias=False, name=f"{prefix}expand"
        )(x)
        x = batch_norm(x, f"{prefix}expand_BN", **_BN)
        x = layers.ReLU(6.0, name=f"{prefix}expand_relu")(x)
    if stride == 2:
        pad = imagenet_utils.correct_pad(x, 3)
        x = layers.ZeroPadding2D(padding=pad, name=f"{prefix}pad")(x)
    x = layers.DepthwiseConv2D(
        kernel_size=3,
        strides=stride,
        use_bias=False,
        padding="same" if stride == 1 else "valid",
        name=f"{prefix}depthwise",
    )(x)
    x = batch_norm(x, f"{prefix}depthwise_BN", **_BN)
    x = layers.ReLU(6.0, name=f"{prefix}depthwise_relu")(x)
    x = layers.Conv2D(out_channels, 1, padding="same", use_bias=False, name=f"{prefix}project")(x)
    x = batch_norm(x, f"{prefix}project_BN", **_BN)
    if in_channels == out_channels and stride == 1:
        return layers.Add(name=f"{prefix}add")([inputs, x])
    return x


def _features(img_input, alpha):
    """The convolutional trunk, up to the last 1x1 convolution's ReLU6 (`out_relu`)."""
    x = layers.Conv2D(
        make_divisible(32 * alpha, 8),
        3,
        strides=(2, 2),
        padding="same",
        use_bias=False,
        name="Conv1",
    )(img_input)
    x = batch_norm(x, "bn_Conv1", **_BN)
    x = layers.ReLU(6.0, name="Conv1_relu")(x)
    for block_id, (filters, stride, expansion) in enumerate(_BLOCKS):
        x = _inverted_res_block(x, expansion, stride, alpha, filters, block_id)
    # the last convolution is only ever widened (alpha > 1), never narrowed
    last_filters = make_divisible(1280 * alpha, 8) if alpha > 1.0 else 1280
    x = layers.Conv2D(last_filters, 1, use_bias=False, name="Conv_1")(x)
    x = batch_norm(x, "Conv_1_bn", **_BN)
    return layers.ReLU(6.0, name="out_relu")(x)


def _weights_url(alpha, rows, include_top):
    """The URL of Keras's ImageNet weights for this width, input size and head."""
    suffix = "" if include_top else "_no_top"
    stem = "mobilenet_v2_weights_tf_dim_ordering_tf_kernels"
    return f"{BASE_WEIGHT_PATH}{stem}_{float(alpha)}_{rows}{suffix}.h5"


def MobileNetV2(
    input_shape=None,
    alpha=1.0,
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name=None,
):
    """MobileNetV2 (Sandler et al., 2018) as a functional `Model`, optionally with Keras's
    ImageNet weights (inputs scaled to [-1, 1] by `preprocess_input`); same arguments as Keras."""
    weight_files.validate_arguments(weights, include_top, classes)
    if input_shape is not None and input_tensor is not None:
        check_input_tensor(input_tensor, input_shape)
    input_shape = imagenet_utils.obtain_input_shape(
        input_shape,
        default_size=_default_size(input_shape, input_tensor),
        min_size=32,
        data_format=image_data_format(),
        require_flatten=include_top,
        weights=weights,
    )
    rows, cols = spatial_size(input_shape)
    if weights == "imagenet":
        if alpha not in WEIGHT_ALPHAS:
            raise ValueError(
                "If imagenet weights are being loaded, alpha must be one of `0.35`, `0.50`, "
                f"`0.75`, `1.0`, `1.3` or `1.4` only; Received `alpha={alpha}`"
            )
        rows = imagenet_rows(rows, cols, WEIGHT_SIZES)
    img_input = common.image_input(input_tensor, input_shape)
    x = _features(img_input, alpha)
    if include_top:
        x = layers.GlobalAveragePooling2D()(x)
        x = common.classifier(x, classes, classifier_activation, weights)
    else:
        x = common.pool(x, pooling)
    if name is None:
        name = f"mobilenetv2_{alpha:0.2f}_{rows}"
    model = Model(common.model_inputs(input_tensor, img_input), x, name=name)
    url = _weights_url(alpha, rows, include_top) if weights == "imagenet" else None
    weight_files.load_weights(model, weights, url, None)
    return model


def preprocess_input(x, data_format=None):
    """Scale pixels from [0, 255] to [-1, 1], the input MobileNetV2's ImageNet weights expect."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")


#: the ImageNet classes of predictions, as every application module exposes them
decode_predictions = imagenet_utils.decode_predictions
