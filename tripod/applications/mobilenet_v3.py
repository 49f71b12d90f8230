"""MobileNetV3Small and MobileNetV3Large, as `keras.applications.mobilenet_v3`: inverted residual
blocks with squeeze-and-excitation and hard-swish, the input rescaling inside the model, with
Keras's layer names so Keras's published ImageNet weights load."""

from tripod import layers
from tripod.applications import common, imagenet_utils
from tripod.applications import weights as weight_files
from tripod.applications.mobilenet import batch_norm, imagenet_rows, spatial_size
from tripod.applications.mobilenet_v2 import check_input_tensor, make_divisible
from tripod.backends.common.keras_tensor import is_keras_tensor
from tripod.backends.config import image_data_format
from tripod.training.model import Model

BASE_WEIGHT_PATH = "https://storage.googleapis.com/tensorflow/keras-applications/mobilenet_v3/"
# (hash with the top, hash without it) of each published weights file
WEIGHTS_HASHES = {
    "large_224_0.75_float": (
        "765b44a33ad4005b3ac83185abf1d0eb",
        "40af19a13ebea4e2ee0c676887f69a2e",
    ),
    "large_224_1.0_float": ("59e551e166be033d707958cf9e29a6a7", "07fb09a5933dd0c8eaafa16978110389"),
    "large_minimalistic_224_1.0_float": (
        "675e7b876c45c57e9e63e6d90a36599c",
        "ec5221f64a2f6d1ef965a614bdae7973",
    ),
    "small_224_0.75_float": (
        "cb65d4e5be93758266aa0a7f2c6708b7",
        "ebdb5cc8e0b497cd13a7c275d475c819",
    ),
    "small_224_1.0_float": ("8768d4c2e7dee89b9d02b2d03d65d862", "d3e8ec802a04aa4fc771ee12a9a9b836"),
    "small_minimalistic_224_1.0_float": (
        "99cd97fb2fcdad2bf028eb838de69e37",
        "cde8136e733e811080d9fcd8a252f7e4",
    ),
}
_BN = {"epsilon": 1e-3, "momentum": 0.999}
# Per block: (expansion, filters before alpha, kernel, stride, squeeze-excite, activation).
# kernel None: the model's (5, or 3 when minimalistic); squeeze-excite True: the model's ratio
# (none when minimalistic); activation "model": hard-swish (ReLU when minimalistic).
_SMALL = (
    (1, 16, 3, 2, True, "relu"),
    (72 / 16, 24, 3, 2, False, "relu"),
    (88 / 24, 24, 3, 1, False, "relu"),
    (4, 40, None, 2, True, "model"),
    (6, 40, None, 1, True, "model"),
    (6, 40, None, 1, True, "model"),
    (3, 48, None, 1, True, "model"),
    (3, 48, None, 1, True, "model"),
    (6, 96, None, 2, True, "model"),
    (6, 96, None, 1, True, "model"),
    (6, 96, None, 1, True, "model"),
)
_LARGE = (
    (1, 16, 3, 1, False, "relu"),
    (4, 24, 3, 2, False, "relu"),
    (3, 24, 3, 1, False, "relu"),
    (3, 40, None, 2, True, "relu"),
    (3, 40, None, 1, True, "relu"),
    (3, 40, None, 1, True, "relu"),
    (6, 80, 3, 2, False, "model"),
    (2.5, 80, 3, 1, False, "model"),
    (2.3, 80, 3, 1, False, "model"),
    (2.3, 80, 3, 1, False, "model"),
    (6, 112, 3, 1, True, "model"),
    (6, 112, 3, 1, True, "model"),
    (6, 160, None, 2, True, "model"),
    (6, 160, None, 1, True, "model"),
    (6, 160, None, 1, True, "model"),
)
# model type -> (blocks, channels of the last 1x1 convolution of the head)
_CONFIGS = {"small": (_SMALL, 1024), "large": (_LARGE, 1280)}


def relu(x):
    """ReLU as an automatically named layer (Keras's MobileNetV3 names it so)."""
    return layers.ReLU()(x)


def hard_sigmoid(x):
    """relu6(x + 3) / 6, built as Keras builds it (an automatically named ReLU between ops)."""
    return layers.ReLU(6.0)(x + 3.0) * (1.0 / 6.0)


def hard_swish(x):
    """x * hard_sigmoid(x), as an automatically named `Activation("hard_swish")` layer."""
    return layers.Activation("hard_swish")(x)


def _se_block(inputs, filters, se_ratio, prefix):
    """Squeeze-and-excitation: pooled channels -> bottleneck 1x1 -> 1x1 -> hard sigmoid gate."""
    x = layers.GlobalAveragePooling2D(keepdims=True, name=f"{prefix}squeeze_excite_avg_pool")(
        inputs
    )
    x = layers.Conv2D(
        make_divisible(filters * se_ratio), 1, padding="same", name=f"{prefix}squeeze_excite_conv"
    )(x)
    x = layers.ReLU(name=f"{prefix}squeeze_excite_relu")(x)
    x = layers.Conv2D(filters, 1, padding="same", name=f"{prefix}squeeze_excite_conv_1")(x)
    x = hard_sigmoid(x)
    return layers.Multiply(name=f"{prefix}squeeze_excite_mul")([inputs, x])


def _inverted_res_block(x, expansion, filters, kernel_size, stride, se_ratio, activation, block):
    """Expand (1x1; not in block 0), depthwise, optional squeeze-excite, project (1x1, linear),
    with a residual connection when the shape is kept."""
    shortcut = x
    in_filters = x.shape[common.channel_axis()]
    expanded = make_divisible(in_filters * expansion)
    prefix = f"expanded_conv_{block}_" if block else "expanded_conv_"
    if block:
        x = layers.Conv2D(expanded, 1, padding="same", use_bias=False, name=f"{prefix}expand")(x)
        x = activation(batch_norm(x, f"{prefix}expand_bn", **_BN))
    if stride == 2:
        pad = imagenet_utils.correct_pad(x, kernel_size)
        x = layers.ZeroPadding2D(padding=pad, name=f"{prefix}depthwise_pad")(x)
    x = layers.DepthwiseConv2D(
        kernel_size,
        strides=stride,
        padding="same" if stride == 1 else "valid",
        use_bias=False,
        name=f"{prefix}depthwise",
    )(x)
    x = activation(batch_norm(x, f"{prefix}depthwise_bn", **_BN))
    if se_ratio:
        x = _se_block(x, expanded, se_ratio, prefix)
    x = layers.Conv2D(filters, 1, padding="same", use_bias=False, name=f"{prefix}project")(x)
    x = batch_norm(x, f"{prefix}project_bn", **_BN)
    if stride == 1 and in_filters == filters:
        x = layers.Add(name=f"{prefix}add")([shortcut, x])
    return x


def _stack(x, blocks, alpha, minimalistic):
    """The inverted residual blocks of `blocks` at width `alpha`."""
    kernel, activation, se_ratio = (3, relu, None) if minimalistic else (5, hard_swish, 0.25)
    for block, (expansion, filters, size, stride, se, act) in enumerate(blocks):
        x = _inverted_res_block(
            x,
            expansion,
            make_divisible(filters * alpha),
            size or kernel,
            stride,
            se_ratio if se else None,
            activation if act == "model" else relu,
            block,
        )
    return x


def _classifier(
    x, last_point_ch, activation, dropout_rate, classes, classifier_activation, weights
):
    """Keras's MobileNetV3 head: pooled features, a 1x1 convolution, dropout, 1x1 logits."""
    x = layers.GlobalAveragePooling2D(keepdims=True)(x)
    x = layers.Conv2D(last_point_ch, 1, padding="same", use_bias=True, name="conv_2")(x)
    x = activation(x)
    if dropout_rate > 0:
        x = layers.Dropout(dropout_rate)(x)
    x = layers.Conv2D(classes, 1, padding="same", name="logits")(x)
    x = layers.Flatten()(x)
    imagenet_utils.validate_activation(classifier_activation, weights)
    return layers.Activation(activation=classifier_activation, name="predictions")(x)


def _input_shape(input_shape, input_tensor):
    """Keras's MobileNetV3 input shape: the given one, else taken from a symbolic
    `input_tensor` (rows and columns swapped, as Keras does), else any size with 3 channels."""
    if input_shape is not None and input_tensor is not None:
        check_input_tensor(input_tensor, input_shape)
    if input_shape is None and input_tensor is not None and is_keras_tensor(input_tensor):
        rows, cols = spatial_size(input_tensor.shape[1:])
        first = image_data_format() == "channels_first"
        return (3, cols, rows) if first else (cols, rows, 3)
    if input_shape is None and input_tensor is None:
        first = image_data_format() == "channels_first"
        return (3, None, None) if first else (None, None, 3)
    return input_shape


def _check_imagenet_alpha(alpha, minimalistic):
    """Keras's error for a width that has no published ImageNet weights."""
    if (not minimalistic and alpha not in (0.75, 1.0)) or (minimalistic and alpha != 1.0):
        raise ValueError(
            "If imagenet weights are being loaded, alpha can be one of `0.75`, `1.0` for non "
            "minimalistic or `1.0` for minimalistic only."
        )


def _load(model, weights, model_type, minimalistic, alpha, include_top):
    """Load `weights` into `model`, for "imagenet" the published file of this variant."""
    if weights != "imagenet":
        weight_files.load_weights(model, weights, None, None)
        return
    key = f"{model_type}{'_minimalistic' if minimalistic else ''}_224_{alpha}_float"
    file_name = f"weights_mobilenet_v3_{key}{'' if include_top else '_no_top_v2'}.h5"
    file_hash = WEIGHTS_HASHES[key][0 if include_top else 1]
    weight_files.load_weights(model, weights, BASE_WEIGHT_PATH + file_name, file_hash)


def _mobilenet_v3(model_type, args):
    """Build MobileNetV3 `model_type` ("small" or "large") from its public arguments `args`."""
    weight_files.validate_arguments(args["weights"], args["include_top"], args["classes"])
    input_shape = _input_shape(args["input_shape"], args["input_tensor"])
    rows, cols = spatial_size(input_shape)
    if rows and cols and (rows < 32 or cols < 32):
        raise ValueError(f"Input size must be at least 32x32; Received `input_shape={input_shape}`")
    alpha, minimalistic = args["alpha"], args["minimalistic"]
    if args["weights"] == "imagenet":
        _check_imagenet_alpha(alpha, minimalistic)
        imagenet_rows(rows, cols, (224,))
    img_input = common.image_input(args["input_tensor"], input_shape)
    activation = relu if minimalistic else hard_swish
    x = img_input
    if args["include_preprocessing"]:
        x = layers.Rescaling(scale=1.0 / 127.5, offset=-1.0)(x)
    x = layers.Conv2D(16, 3, strides=(2, 2), padding="same", use_bias=False, name="conv")(x)
    x = activation(batch_norm(x, "conv_bn", **_BN))
    blocks, last_point_ch = _CONFIGS[model_type]
    x = _stack(x, blocks, alpha, minimalistic)
    x = layers.Conv2D(
        make_divisible(x.shape[common.channel_axis()] * 6),
        1,
        padding="same",
        use_bias=False,
        name="conv_1",
    )(x)
    x = activation(batch_norm(x, "conv_1_bn", **_BN))
    if args["include_top"]:
        # the head is only ever widened (alpha > 1), never narrowed
        width = make_divisible(last_point_ch * alpha) if alpha > 1.0 else last_point_ch
        x = _classifier(
            x,
            width,
            activation,
            args["dropout_rate"],
            args["classes"],
            args["classifier_activation"],
            args["weights"],
        )
    else:
        x = common.pool(x, args["pooling"], avg_name="avg_pool", max_name="max_pool")
    inputs = common.model_inputs(args["input_tensor"], img_input)
    model = Model(inputs, x, name=args["name"])
    _load(model, args["weights"], model_type, minimalistic, alpha, args["include_top"])
    return model


def MobileNetV3Small(
    input_shape=None,
    alpha=1.0,
    minimalistic=False,
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    classes=1000,
    pooling=None,
    dropout_rate=0.2,
    classifier_activation="softmax",
    include_preprocessing=True,
    name="MobileNetV3Small",
):
    """MobileNetV3-Small (Howard et al., 2019) as a functional `Model` taking pixels in [0, 255]
    (rescaled inside unless `include_preprocessing=False`); same arguments as Keras."""
    return _mobilenet_v3("small", locals())


def MobileNetV3Large(
    input_shape=None,
    alpha=1.0,
    minimalistic=False,
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    classes=1000,
    pooling=None,
    dropout_rate=0.2,
    classifier_activation="softmax",
    include_preprocessing=True,
    name="MobileNetV3Large",
):
    """MobileNetV3-Large (Howard et al., 2019) as a functional `Model` taking pixels in [0, 255]
    (rescaled inside unless `include_preprocessing=False`); same arguments as Keras."""
    return _mobilenet_v3("large", locals())


def preprocess_input(x, data_format=None):
    """Return `x` unchanged: MobileNetV3 rescales its inputs inside the model (kept for API
    parity with the other applications)."""
    return x


#: the ImageNet classes of predictions, as every application module exposes them
decode_predictions = imagenet_utils.decode_predictions
