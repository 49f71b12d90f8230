"""MobileNet (v1), as `keras.applications.mobilenet`: depthwise-separable convolutions scaled by a
width multiplier `alpha`, with Keras's layer names so Keras's published ImageNet weights load."""

import warnings

from tripod import layers
from tripod.applications import common, imagenet_utils
from tripod.applications import weights as weight_files
from tripod.backends.config import image_data_format
from tripod.training.model import Model

BASE_WEIGHT_PATH = "https://storage.googleapis.com/tensorflow/keras-applications/mobilenet/"
# input sizes (square) that have published weights, and how each alpha is spelled in file names
WEIGHT_SIZES = (128, 160, 192, 224)
_ALPHA_TEXT = {1.0: "1_0", 0.75: "7_5", 0.5: "5_0", 0.25: "2_5"}
# (pointwise filters before alpha, stride) of the 13 depthwise-separable blocks
_BLOCKS = (
    (64, 1),
    (128, 2),
    (128, 1),
    (256, 2),
    (256, 1),
    (512, 2),
    (512, 1),
    (512, 1),
    (512, 1),
    (512, 1),
    (512, 1),
    (1024, 2),
    (1024, 1),
)


def spatial_size(image_shape):
    """`(rows, cols)` of a per-image shape (no batch axis) under the current data format."""
    if image_data_format() == "channels_first":
        return image_shape[1], image_shape[2]
    return image_shape[0], image_shape[1]


def default_size(rows, cols, sizes):
    """The default input size Keras's MobileNets pick: the given square size when weights exist
    for it (one of `sizes`), else 224."""
    return rows if rows == cols and rows in sizes else 224


def imagenet_rows(rows, cols, sizes):
    """The input size whose ImageNet weights are loaded: `rows`, or 224 with Keras's warning when
    the input is not square or has no weights of its own (`sizes`)."""
    if rows == cols and rows in sizes:
        return rows
    which = f"is not {sizes[0]}" if len(sizes) == 1 else f"is not in {list(sizes)}"
    warnings.warn(
        f"`input_shape` is undefined or non-square, or `rows` {which}. "
        "Weights for input shape (224, 224) will be loaded as the default.",
        stacklevel=3,
    )
    return 224


def batch_norm(x, name, **kwargs):
    """Batch normalization over the channel axis, named `name`."""
    return layers.BatchNormalization(axis=common.channel_axis(), name=name, **kwargs)(x)


def _conv_block(x, filters, alpha):
    """The stem: a strided 3x3 convolution, batch norm and ReLU6."""
    x = layers.Conv2D(
        int(filters * alpha), (3, 3), padding="same", use_bias=False, strides=(2, 2), name="conv1"
    )(x)
    x = batch_norm(x, "conv1_bn")
    return layers.ReLU(6.0, name="conv1_relu")(x)


def _depthwise_conv_block(x, filters, alpha, depth_multiplier, stride, block_id):
    """Depthwise 3x3 convolution then pointwise 1x1 convolution, each with batch norm and ReLU6;
    a strided block pads bottom/right and convolves "valid", as Keras does."""
    if stride != 1:
        x = layers.ZeroPadding2D(((0, 1), (0, 1)), name=f"conv_pad_{block_id}")(x)
    x = layers.DepthwiseConv2D(
        (3, 3),
        padding="same" if stride == 1 else "valid",
        depth_multiplier=depth_multiplier,
        strides=(stride, stride),
        use_bias=False,
        name=f"conv_dw_{block_id}",
    )(x)
    x = batch_norm(x, f"conv_dw_{block_id}_bn")
    x = layers.ReLU(6.0, name=f"conv_dw_{block_id}_relu")(x)
    x = layers.Conv2D(
        int(filters * alpha), (1, 1), padding="same", use_bias=False, name=f"conv_pw_{block_id}"
    )(x)
    x = batch_norm(x, f"conv_pw_{block_id}_bn")
    return layers.ReLU(6.0, name=f"conv_pw_{block_id}_relu")(x)


def _classifier(x, dropout, classes, classifier_activation, weights):
    """Keras's MobileNet head: pooled features, dropout, a 1x1 convolution as the classifier."""
    x = layers.GlobalAveragePooling2D(keepdims=True)(x)
    x = layers.Dropout(dropout, name="dropout")(x)
    x = layers.Conv2D(classes, (1, 1), padding="same", name="conv_preds")(x)
    x = layers.Reshape((classes,), name="reshape_2")(x)
    imagenet_utils.validate_activation(classifier_activation, weights)
    return layers.Activation(activation=classifier_activation, name="predictions")(x)


def _check_imagenet_options(alpha, depth_multiplier):
    """Keras's errors for options that have no published ImageNet weights."""
    if depth_multiplier != 1:
        raise ValueError(
            "If imagenet weights are being loaded, depth multiplier must be 1.  "
            f"Received depth_multiplier={depth_multiplier}"
        )
    if alpha not in _ALPHA_TEXT:
        raise ValueError(
            "If imagenet weights are being loaded, alpha can be one of"
            "`0.25`, `0.50`, `0.75` or `1.0` only.  "
            f"Received alpha={alpha}"
        )


def _weights_url(alpha, rows, include_top):
    """The URL of Keras's ImageNet weights for this width, input size and head."""
    suffix = "" if include_top else "_no_top"
    return f"{BASE_WEIGHT_PATH}mobilenet_{_ALPHA_TEXT[alpha]}_{rows}_tf{suffix}.h5"


def MobileNet(
    input_shape=None,
    alpha=1.0,
    depth_multiplier=1,
    dropout=1e-3,
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name=None,
):
    """MobileNet (Howard et al., 2017) as a functional `Model`, optionally with Keras's ImageNet
    weights (inputs scaled to [-1, 1] by `preprocess_input`); same arguments as Keras."""
    weight_files.validate_arguments(weights, include_top, classes)
    size = 224 if input_shape is None else default_size(*spatial_size(input_shape), WEIGHT_SIZES)
    input_shape = imagenet_utils.obtain_input_shape(
        input_shape,
        default_size=size,
        min_size=32,
        data_format=image_data_format(),
        require_flatten=include_top,
        weights=weights,
    )
    rows, cols = spatial_size(input_shape)
    if weights == "imagenet":
        _check_imagenet_options(alpha, depth_multiplier)
        rows = imagenet_rows(rows, cols, WEIGHT_SIZES)
    img_input = common.image_input(input_tensor, input_shape)
    x = _conv_block(img_input, 32, alpha)
    for block_id, (filters, stride) in enumerate(_BLOCKS, start=1):
        x = _depthwise_conv_block(x, filters, alpha, depth_multiplier, stride, block_id)
    if include_top:
        x = _classifier(x, dropout, classes, classifier_activation, weights)
    else:
        x = common.pool(x, pooling)
    if name is None:
        name = f"mobilenet_{alpha:0.2f}_{rows}"
    model = Model(common.model_inputs(input_tensor, img_input), x, name=name)
    url = _weights_url(alpha, rows, include_top) if weights == "imagenet" else None
    weight_files.load_weights(model, weights, url, None)
    return model


def preprocess_input(x, data_format=None):
    """Scale pixels from [0, 255] to [-1, 1], the input MobileNet's ImageNet weights expect."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")


#: the ImageNet classes of predictions, as every application module exposes them
decode_predictions = imagenet_utils.decode_predictions
