"""NASNet-A Mobile and Large (Zoph et al., "Learning Transferable Architectures for Scalable Image
Recognition", 2018): Keras 3's `keras.applications.nasnet`, with its layer names (automatic ones
included, in Keras's creation order), so Keras's ImageNet files load.

A NASNet stacks searched cells: normal cells keep the size, reduction cells halve it; each cell
mixes the previous two cells' outputs (`ip`, `p`), after `_adjust` brings `p` to `ip`'s shape.
"""

from tripod import layers
from tripod.applications import common, imagenet_utils
from tripod.applications import weights as weights_lib
from tripod.backends import config
from tripod.training.model import Model

BASE_WEIGHTS_PATH = "https://storage.googleapis.com/tensorflow/keras-applications/nasnet/"

#: (default image size, include_top) -> (cached file name, URL, md5) of Keras's ImageNet weights
WEIGHTS = {
    (224, True): (
        "nasnet_mobile.h5",
        f"{BASE_WEIGHTS_PATH}NASNet-mobile.h5",
        "020fb642bf7360b370c678b08e0adf61",
    ),
    (224, False): (
        "nasnet_mobile_no_top.h5",
        f"{BASE_WEIGHTS_PATH}NASNet-mobile-no-top.h5",
        "1ed92395b5b598bdda52abe5c0dbfd63",
    ),
    (331, True): (
        "nasnet_large.h5",
        f"{BASE_WEIGHTS_PATH}NASNet-large.h5",
        "11577c9a518f0070763c2b964a382f17",
    ),
    (331, False): (
        "nasnet_large_no_top.h5",
        f"{BASE_WEIGHTS_PATH}NASNet-large-no-top.h5",
        "d81d89dc07e6e56530c4e77faddd61b5",
    ),
}


def _batch_norm(name):
    """The batch normalization every NASNet convolution is followed by."""
    return layers.BatchNormalization(axis=-1, momentum=0.9997, epsilon=1e-3, name=name)


def _pointwise(filters, name):
    """A bias-free 1x1 convolution."""
    return layers.Conv2D(
        filters, 1, padding="same", use_bias=False, kernel_initializer="he_normal", name=name
    )


def _average_pool(x, strides, name):
    """3x3 average pooling: "same" when stride 1, "valid" (on padded input) when stride 2."""
    padding = "same" if strides == 1 else "valid"
    return layers.AveragePooling2D(3, strides=strides, padding=padding, name=name)(x)


def _max_pool(x, name):
    """3x3 max pooling with stride 2 (on padded input)."""
    return layers.MaxPooling2D(3, strides=2, padding="valid", name=name)(x)


def _separable_bn(x, filters, kernel_size, strides, padding, index, block_id):
    """Bias-free separable convolution `index` (1 or 2) of a block, then batch norm."""
    x = layers.SeparableConv2D(
        filters,
        kernel_size,
        strides=strides,
        padding=padding,
        use_bias=False,
        name=f"separable_conv_{index}_{block_id}",
    )(x)
    return _batch_norm(f"separable_conv_{index}_bn_{block_id}")(x)


def _separable(x, filters, kernel_size, block_id, strides=1):
    """Twice (ReLU, separable convolution, batch norm), the first one strided, on zero-padded
    input, when `strides` is 2."""
    x = layers.Activation("relu")(x)
    padding = "same"
    if strides == 2:
        pad = imagenet_utils.correct_pad(x, kernel_size)
        x = layers.ZeroPadding2D(padding=pad, name=f"separable_conv_1_pad_{block_id}")(x)
        padding = "valid"
    x = _separable_bn(x, filters, kernel_size, strides, padding, 1, block_id)
    x = layers.Activation("relu")(x)
    return _separable_bn(x, filters, kernel_size, 1, "same", 2, block_id)


def _halve(p, filters, block_id):
    """`p` at half its size and `filters` channels: two strided 1x1 paths, the second shifted by
    one pixel, concatenated."""
    p = layers.Activation("relu", name=f"adjust_relu_1_{block_id}")(p)
    p1 = layers.AveragePooling2D(1, strides=2, name=f"adjust_avg_pool_1_{block_id}")(p)
    p1 = _pointwise(filters // 2, f"adjust_conv_1_{block_id}")(p1)
    p2 = layers.ZeroPadding2D(padding=((0, 1), (0, 1)))(p)
    p2 = layers.Cropping2D(cropping=((1, 0), (1, 0)))(p2)
    p2 = layers.AveragePooling2D(1, strides=2, name=f"adjust_avg_pool_2_{block_id}")(p2)
    p2 = _pointwise(filters // 2, f"adjust_conv_2_{block_id}")(p2)
    p = layers.concatenate([p1, p2], axis=-1)
    return _batch_norm(f"adjust_bn_{block_id}")(p)


def _adjust(p, ip, filters, block_id):
    """The previous-previous output `p` brought to the size of `ip` and to `filters` channels
    (`ip` itself when there is no `p` yet)."""
    if p is None:
        return ip
    if p.shape[-2] != ip.shape[-2]:
        return _halve(p, filters, block_id)
    if p.shape[-1] != filters:
        p = layers.Activation("relu")(p)
        p = _pointwise(filters, f"adjust_conv_projection_{block_id}")(p)
        return _batch_norm(f"adjust_bn_{block_id}")(p)
    return p


def _squeeze(ip, filters, kind, block_id):
    """The cell's own input through ReLU, a 1x1 convolution to `filters` and batch norm."""
    h = layers.Activation("relu")(ip)
    h = _pointwise(filters, f"{kind}_conv_1_{block_id}")(h)
    return _batch_norm(f"{kind}_bn_1_{block_id}")(h)


def _normal_cell(ip, p, filters, block_id):
    """A normal cell (size kept): five pairwise sums concatenated with `p`; returns the output
    and `ip` (the next cell's `p`)."""
    p = _adjust(p, ip, filters, block_id)
    h = _squeeze(ip, filters, "normal", block_id)
    b = block_id
    x1 = layers.add(
        [
            _separable(h, filters, 5, f"normal_left1_{b}"),
            _separable(p, filters, 3, f"normal_right1_{b}"),
        ],
        name=f"normal_add_1_{b}",
    )
    x2 = layers.add(
        [
            _separable(p, filters, 5, f"normal_left2_{b}"),
            _separable(p, filters, 3, f"normal_right2_{b}"),
        ],
        name=f"normal_add_2_{b}",
    )
    x3 = layers.add([_average_pool(h, 1, f"normal_left3_{b}"), p], name=f"normal_add_3_{b}")
    x4 = layers.add(
        [_average_pool(p, 1, f"normal_left4_{b}"), _average_pool(p, 1, f"normal_right4_{b}")],
        name=f"normal_add_4_{b}",
    )
    x5 = layers.add([_separable(h, filters, 3, f"normal_left5_{b}"), h], name=f"normal_add_5_{b}")
    x = layers.concatenate([p, x1, x2, x3, x4, x5], axis=-1, name=f"normal_concat_{b}")
    return x, ip


def _reduction_cell(ip, p, filters, block_id):
    """A reduction cell (size halved): four sums of strided branches, concatenated; returns the
    output and `ip` (the next cell's `p`)."""
    p = _adjust(p, ip, filters, block_id)
    h = _squeeze(ip, filters, "reduction", block_id)
    b = block_id
    h3 = layers.ZeroPadding2D(
        padding=imagenet_utils.correct_pad(h, 3), name=f"reduction_pad_1_{b}"
    )(h)
    x1 = layers.add(
        [
            _separable(h, filters, 5, f"reduction_left1_{b}", strides=2),
            _separable(p, filters, 7, f"reduction_right1_{b}", strides=2),
        ],
        name=f"reduction_add_1_{b}",
    )
    x2 = layers.add(
        [
            _max_pool(h3, f"reduction_left2_{b}"),
            _separable(p, filters, 7, f"reduction_right2_{b}", strides=2),
        ],
        name=f"reduction_add_2_{b}",
    )
    x3 = layers.add(
        [
            _average_pool(h3, 2, f"reduction_left3_{b}"),
            _separable(p, filters, 5, f"reduction_right3_{b}", strides=2),
        ],
        name=f"reduction_add3_{b}",
    )
    x4 = layers.add([x2, _average_pool(x1, 1, f"reduction_left4_{b}")])
    x5 = layers.add(
        [
            _separable(x1, filters, 3, f"reduction_left4_{b}"),
            _max_pool(h3, f"reduction_right5_{b}"),
        ],
        name=f"reduction_add4_{b}",
    )
    x = layers.concatenate([x2, x3, x4, x5], axis=-1, name=f"reduction_concat_{b}")
    return x, ip


def _check_arguments(input_shape, weights, include_top, default_size):
    """NASNet's own argument errors (as Keras's), raised before anything is built."""
    if config.image_data_format() == "channels_first":
        raise ValueError(
            "NASNet does not support the 'channels_first' image data format; set "
            "image_data_format to 'channels_last' (tripod.config.set_image_data_format)."
        )
    if weights == "imagenet" and isinstance(input_shape, tuple) and None in input_shape:
        raise ValueError(
            "When specifying the input shape of a NASNet and loading `ImageNet` weights, the "
            f"input_shape argument must be static (no None entries). Got: "
            f"`input_shape={input_shape}`."
        )
    if weights == "imagenet" and (default_size, include_top) not in WEIGHTS:
        raise ValueError("ImageNet weights can only be loaded with NASNetLarge or NASNetMobile")


def _body(x, filters, num_blocks, skip_reduction, filter_multiplier):
    """The two stem reductions, then three stages of `num_blocks` normal cells, each stage after
    the first entered through a reduction cell; `filters` grows by `filter_multiplier` a stage."""
    x, p = _reduction_cell(x, None, filters // filter_multiplier**2, "stem_1")
    x, p = _reduction_cell(x, p, filters // filter_multiplier, "stem_2")
    for stage in range(3):
        stage_filters = filters * filter_multiplier**stage
        first_id = 0
        if stage > 0:
            x, reduced_p = _reduction_cell(x, p, stage_filters, f"reduce_{stage * num_blocks}")
            p = p if skip_reduction else reduced_p
            first_id = stage * num_blocks + 1
        for i in range(num_blocks):
            x, p = _normal_cell(x, p, stage_filters, f"{first_id + i}")
    return layers.Activation("relu")(x)


def NASNet(
    input_shape=None,
    penultimate_filters=4032,
    num_blocks=6,
    stem_block_filters=96,
    skip_reduction=True,
    filter_multiplier=2,
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    pooling=None,
    classes=1000,
    default_size=None,
    classifier_activation="softmax",
    name="NASNet",
):
    """A NASNet-A (N @ P): `num_blocks` normal cells per stage, `penultimate_filters` channels
    in the last one (a multiple of 24 * filter_multiplier**2). `NASNetMobile` and `NASNetLarge`
    call it; ImageNet weights exist for those two (default_size 224 and 331) only."""
    default_size = default_size or 331
    _check_arguments(input_shape, weights, include_top, default_size)
    img_input = common.checked_image_input(
        input_tensor, input_shape, weights, include_top, classes, default_size
    )
    if penultimate_filters % (24 * filter_multiplier**2) != 0:
        raise ValueError(
            "For NASNet-A models, the `penultimate_filters` must be a multiple of "
            f"24 * (`filter_multiplier` ** 2). Current value: {penultimate_filters}"
        )
    x = layers.Conv2D(
        stem_block_filters,
        3,
        strides=2,
        padding="valid",
        use_bias=False,
        kernel_initializer="he_normal",
        name="stem_conv1",
    )(img_input)
    x = _batch_norm("stem_bn1")(x)
    x = _body(x, penultimate_filters // 24, num_blocks, skip_reduction, filter_multiplier)
    if include_top:
        x = layers.GlobalAveragePooling2D()(x)
        x = common.classifier(x, classes, classifier_activation, weights)
    else:
        x = common.pool(x, pooling)
    model = Model(inputs=common.model_inputs(input_tensor, img_input), outputs=x, name=name)
    file_name, url, file_hash = WEIGHTS.get((default_size, include_top), (None, None, None))
    weights_lib.load_weights(model, weights, url, file_hash, file_name)
    return model


def NASNetMobile(
    input_shape=None,
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="nasnet_mobile",
):
    """NASNet-A Mobile (4 @ 1056, 224x224 images by default, ~5.3M parameters), optionally with
    Keras's ImageNet weights; inputs scaled by `preprocess_input` (to [-1, 1])."""
    if not include_top and input_shape is None:
        input_shape = (224, 224, 3)
    return NASNet(
        input_shape,
        penultimate_filters=1056,
        num_blocks=4,
        stem_block_filters=32,
        skip_reduction=False,
        filter_multiplier=2,
        include_top=include_top,
        weights=weights,
        input_tensor=input_tensor,
        pooling=pooling,
        classes=classes,
        default_size=224,
        classifier_activation=classifier_activation,
        name=name,
    )


def NASNetLarge(
    input_shape=None,
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="nasnet_large",
):
    """NASNet-A Large (6 @ 4032, 331x331 images by default, ~89M parameters), optionally with
    Keras's ImageNet weights; inputs scaled by `preprocess_input` (to [-1, 1])."""
    return NASNet(
        input_shape,
        penultimate_filters=4032,
        num_blocks=6,
        stem_block_filters=96,
        skip_reduction=True,
        filter_multiplier=2,
        include_top=include_top,
        weights=weights,
        input_tensor=input_tensor,
        pooling=pooling,
        classes=classes,
        default_size=331,
        classifier_activation=classifier_activation,
        name=name,
    )


def preprocess_input(x, data_format=None):
    """Pixels in [0, 255] scaled to [-1, 1] ("tf" mode), as the ImageNet weights expect."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")


#: the ImageNet classes of predictions, as every application module exposes them
decode_predictions = imagenet_utils.decode_predictions
