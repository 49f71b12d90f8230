"""VGG16 (Simonyan & Zisserman, "Very Deep Convolutional Networks for Large-Scale Image
Recognition", 2014), as `keras.applications.vgg16` builds it, plus the builder VGG19 shares.

The constructor takes Keras's arguments: `include_top` (flatten and the three dense layers on
top; their sizes follow the input size), `weights` (None, "imagenet" or a weights file),
`input_tensor`, `input_shape` (default `(224, 224, 3)`; at least 32x32), `pooling` (None, "avg" or
"max" when `include_top` is False), `classes`, `classifier_activation` and `name`. Inputs are
preprocessed with `preprocess_input` ("caffe": BGR, mean-centred).
"""

from tripod.applications import imagenet_utils
from tripod.applications.common import checked_image_input, classifier, model_inputs, pool
from tripod.applications.weights import load_weights
from tripod.layers import Conv2D, Dense, Flatten, MaxPooling2D
from tripod.training.model import Model

WEIGHTS_PATH = (
    "https://storage.googleapis.com/tensorflow/keras-applications/"
    "vgg16/vgg16_weights_tf_dim_ordering_tf_kernels.h5"
)
WEIGHTS_PATH_NO_TOP = (
    "https://storage.googleapis.com/tensorflow/keras-applications/"
    "vgg16/vgg16_weights_tf_dim_ordering_tf_kernels_notop.h5"
)
#: md5 of Keras's published files: (with the top classifier, without it)
WEIGHTS_HASHES = ("64373286793e3c8b2b4e3219cbf3544b", "6d6bbae143d832006294945121d1f1fc")
_WEIGHTS_FILES = ((WEIGHTS_PATH, WEIGHTS_HASHES[0]), (WEIGHTS_PATH_NO_TOP, WEIGHTS_HASHES[1]))
_FILTERS = (64, 128, 256, 512, 512)


def _conv_blocks(x, blocks):
    """Five blocks of `blocks[i]` 3x3 relu convolutions, each block ending in 2x2 max pooling."""
    for block, (filters, count) in enumerate(zip(_FILTERS, blocks, strict=True), start=1):
        for i in range(1, count + 1):
            name = f"block{block}_conv{i}"
            x = Conv2D(filters, 3, activation="relu", padding="same", name=name)(x)
        x = MaxPooling2D(2, strides=2, name=f"block{block}_pool")(x)
    return x


def build_vgg(
    blocks,
    weights_files,
    include_top,
    weights,
    input_tensor,
    input_shape,
    pooling,
    classes,
    classifier_activation,
    name,
):
    """A VGG network with `blocks[i]` convolutions in block i and the arguments of the public
    constructors; `weights_files` is ((URL, md5) with the top, (URL, md5) without) for
    "imagenet"."""
    img_input = checked_image_input(input_tensor, input_shape, weights, include_top, classes)
    x = _conv_blocks(img_input, blocks)
    if include_top:
        x = Flatten(name="flatten")(x)
        x = Dense(4096, activation="relu", name="fc1")(x)
        x = Dense(4096, activation="relu", name="fc2")(x)
        x = classifier(x, classes, classifier_activation, weights)
    else:
        x = pool(x, pooling)
    model = Model(model_inputs(input_tensor, img_input), x, name=name)
    load_weights(model, weights, *weights_files[0 if include_top else 1])
    return model


def VGG16(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="vgg16",
):
    """VGG16 (13 convolutions in blocks of 2, 2, 3, 3, 3; 138M parameters with the top)."""
    return build_vgg((2, 2, 3, 3, 3), _WEIGHTS_FILES, **locals())


def preprocess_input(x, data_format=None):
    """Preprocess images (0-255 RGB) for VGG: RGB->BGR, then subtract ImageNet's channel means,
    no scaling ("caffe" mode); NumPy in, NumPy out; tensor in, tensor out."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="caffe")


#: the ImageNet classes of predictions, as every application module exposes them
decode_predictions = imagenet_utils.decode_predictions
