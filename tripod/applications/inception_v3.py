"""InceptionV3 (Szegedy et al., "Rethinking the Inception Architecture for Computer Vision",
CVPR 2016), with Keras 3's layer names so its published ImageNet weights load."""

from tripod import layers
from tripod.applications import common, imagenet_utils
from tripod.applications import weights as weights_lib
from tripod.backends import config
from tripod.training.model import Model

_URL_STEM = (
    "https://storage.googleapis.com/tensorflow/keras-applications/inception_v3/"
    "inception_v3_weights_tf_dim_ordering_tf_kernels"
)
_HASHES = {True: "9a0d58056eeedaa3f26cb7ebd46da564", False: "bcbd6486424b2319ff4ef7d526e38f63"}


def build_classic(
    features,
    include_top,
    weights,
    input_tensor,
    input_shape,
    pooling,
    classes,
    classifier_activation,
    name,
    *,
    sizes,
    url_stem,
    hashes,
    pool_names=(None, None),
):
    """Check the arguments, run `features` on the image input, add the top (global average
    pooling `avg_pool` and `predictions`) or the optional `pooling` (layers named by
    `pool_names`), and load `weights` (the published file `<url_stem>[_notop].h5`, whose hash is
    `hashes[include_top]`): the steps DenseNet, Inception and Xception share. `sizes` is
    `(default_size, min_size)`."""
    weights_lib.validate_arguments(weights, include_top, classes)
    input_shape = imagenet_utils.obtain_input_shape(
        input_shape, *sizes, config.image_data_format(), include_top, weights=weights
    )
    img_input = common.image_input(input_tensor, input_shape)
    x = features(img_input)
    if include_top:
        x = layers.GlobalAveragePooling2D(name="avg_pool")(x)
        x = common.classifier(x, classes, classifier_activation, weights)
    else:
        x = common.pool(x, pooling, *pool_names)
    model = Model(common.model_inputs(input_tensor, img_input), x, name=name)
    url = f"{url_stem}{'' if include_top else '_notop'}.h5"
    weights_lib.load_weights(model, weights, url, hashes[include_top])
    return model


def _conv_bn(x, filters, kernel_size, strides=1, padding="same"):
    """Conv2D without bias, BatchNormalization without scale, ReLU (all auto-named)."""
    x = layers.Conv2D(filters, kernel_size, strides=strides, padding=padding, use_bias=False)(x)
    x = layers.BatchNormalization(axis=common.channel_axis(), scale=False)(x)
    return layers.Activation("relu")(x)


def _chain(x, specs):
    """`_conv_bn` layers one after the other, each spec `(filters, kernel_size)`."""
    for filters, kernel_size in specs:
        x = _conv_bn(x, filters, kernel_size)
    return x


def _concat(branches, name=None):
    """Concatenate `branches` along the channels."""
    return layers.Concatenate(axis=common.channel_axis(), name=name)(branches)


def _pool_branch(x, filters):
    """3x3 average pooling (stride 1) then a 1x1 `_conv_bn`."""
    x = layers.AveragePooling2D((3, 3), strides=(1, 1), padding="same")(x)
    return _conv_bn(x, filters, (1, 1))


def _block_35(x, pool_filters, name):
    """Inception-A (35x35): 1x1, 5x5, double 3x3 and pooled branches."""
    branch1x1 = _conv_bn(x, 64, (1, 1))
    branch5x5 = _chain(x, [(48, (1, 1)), (64, (5, 5))])
    branch3x3dbl = _chain(x, [(64, (1, 1)), (96, (3, 3)), (96, (3, 3))])
    return _concat([branch1x1, branch5x5, branch3x3dbl, _pool_branch(x, pool_filters)], name)


def _reduction_a(x):
    """Grid reduction 35x35 -> 17x17 (`mixed3`)."""
    branch3x3 = _conv_bn(x, 384, (3, 3), strides=(2, 2), padding="valid")
    branch3x3dbl = _chain(x, [(64, (1, 1)), (96, (3, 3))])
    branch3x3dbl = _conv_bn(branch3x3dbl, 96, (3, 3), strides=(2, 2), padding="valid")
    branch_pool = layers.MaxPooling2D((3, 3), strides=(2, 2))(x)
    return _concat([branch3x3, branch3x3dbl, branch_pool], "mixed3")


def _block_17(x, width, name):
    """Inception-B (17x17) with factorized 7x7 convolutions `width` channels wide."""
    branch1x1 = _conv_bn(x, 192, (1, 1))
    branch7x7 = _chain(x, [(width, (1, 1)), (width, (1, 7)), (192, (7, 1))])
    branch7x7dbl = _chain(
        x, [(width, (1, 1)), (width, (7, 1)), (width, (1, 7)), (width, (7, 1)), (192, (1, 7))]
    )
    return _concat([branch1x1, branch7x7, branch7x7dbl, _pool_branch(x, 192)], name)


def _reduction_b(x):
    """Grid reduction 17x17 -> 8x8 (`mixed8`)."""
    branch3x3 = _conv_bn(x, 192, (1, 1))
    branch3x3 = _conv_bn(branch3x3, 320, (3, 3), strides=(2, 2), padding="valid")
    branch7x7x3 = _chain(x, [(192, (1, 1)), (192, (1, 7)), (192, (7, 1))])
    branch7x7x3 = _conv_bn(branch7x7x3, 192, (3, 3), strides=(2, 2), padding="valid")
    branch_pool = layers.MaxPooling2D((3, 3), strides=(2, 2))(x)
    return _concat([branch3x3, branch7x7x3, branch_pool], "mixed8")


def _split_3x3(x, name=None):
    """Parallel 1x3 and 3x1 convolutions of `x`, concatenated."""
    return _concat([_conv_bn(x, 384, (1, 3)), _conv_bn(x, 384, (3, 1))], name)


def _block_8(x, index):
    """Inception-C (8x8) with expanded 1x3 / 3x1 branches (`mixed9`, `mixed10`)."""
    branch1x1 = _conv_bn(x, 320, (1, 1))
    branch3x3 = _split_3x3(_conv_bn(x, 384, (1, 1)), f"mixed9_{index}")
    branch3x3dbl = _split_3x3(_chain(x, [(448, (1, 1)), (384, (3, 3))]))
    return _concat([branch1x1, branch3x3, branch3x3dbl, _pool_branch(x, 192)], f"mixed{9 + index}")


def _features(img_input):
    """The stem and the eleven mixed blocks."""
    x = _conv_bn(img_input, 32, (3, 3), strides=(2, 2), padding="valid")
    x = _conv_bn(x, 32, (3, 3), padding="valid")
    x = _conv_bn(x, 64, (3, 3))
    x = layers.MaxPooling2D((3, 3), strides=(2, 2))(x)
    x = _conv_bn(x, 80, (1, 1), padding="valid")
    x = _conv_bn(x, 192, (3, 3), padding="valid")
    x = layers.MaxPooling2D((3, 3), strides=(2, 2))(x)
    for index, pool_filters in enumerate((32, 64, 64)):
        x = _block_35(x, pool_filters, f"mixed{index}")
    x = _reduction_a(x)
    for index, width in enumerate((128, 160, 160, 192), start=4):
        x = _block_17(x, width, f"mixed{index}")
    x = _reduction_b(x)
    for index in range(2):
        x = _block_8(x, index)
    return x


def InceptionV3(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="inception_v3",
):
    """InceptionV3 (24M parameters), optionally with ImageNet weights; inputs through
    `inception_v3.preprocess_input`, default size 299x299, at least 75x75."""
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
    """Scale pixels in [0, 255] to [-1, 1] ("tf" mode), as the InceptionV3 weights expect."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")


#: the ImageNet classes of predictions, as every application module exposes them
decode_predictions = imagenet_utils.decode_predictions
