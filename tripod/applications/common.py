"""How every application starts and ends its functional graph: the image input (new, or the
`input_tensor=` a user passes), the usual classifier and pooling heads, and the inputs the `Model`
is built from."""

from tripod.applications import imagenet_utils
from tripod.applications.weights import validate_arguments
from tripod.backends import config
from tripod.backends.common.keras_tensor import is_keras_tensor
from tripod.layers.core import Dense
from tripod.layers.input_layer import Input
from tripod.layers.pooling import GlobalAveragePooling2D, GlobalMaxPooling2D
from tripod.training.data_utils import get_source_inputs


def image_input(input_tensor, input_shape):
    """The tensor the network starts from: a new `Input` of `input_shape`, `input_tensor` itself
    when it is symbolic, or an `Input` wrapping it otherwise (as Keras does)."""
    if input_tensor is None:
        return Input(shape=input_shape)
    if is_keras_tensor(input_tensor):
        return input_tensor
    return Input(tensor=input_tensor, shape=input_shape)


def checked_image_input(
    input_tensor, input_shape, weights, include_top, classes, default_size=224, min_size=32
):
    """Check the arguments as Keras does (`weights`, `classes`, the input shape against
    `default_size` and `min_size`), then return `image_input` of the resulting shape."""
    validate_arguments(weights, include_top, classes)
    input_shape = imagenet_utils.obtain_input_shape(
        input_shape, default_size, min_size, config.image_data_format(), include_top, weights
    )
    return image_input(input_tensor, input_shape)


def model_inputs(input_tensor, img_input):
    """What `Model(inputs=...)` gets: `img_input`, or the `Input`s `input_tensor` was computed
    from, so that layers before it stay part of the model."""
    if input_tensor is None:
        return img_input
    return get_source_inputs(input_tensor)


def channel_axis():
    """The axis of the channels in a 4-D image batch (the BatchNormalization axis): 3 for
    "channels_last", 1 for "channels_first"."""
    return 3 if config.image_data_format() == "channels_last" else 1


def pool(x, pooling, avg_name=None, max_name=None):
    """The feature-extractor head: global average ("avg") or max ("max") pooling of `x` under
    the given layer names (default: automatic ones), or `x` itself for any other `pooling`."""
    if pooling == "avg":
        return GlobalAveragePooling2D(name=avg_name)(x)
    if pooling == "max":
        return GlobalMaxPooling2D(name=max_name)(x)
    return x


def classifier(x, classes, classifier_activation, weights, name="predictions"):
    """The top classifier: a `Dense(classes)` layer named `name` under `classifier_activation`,
    which pretrained `weights` allow only as softmax or None."""
    imagenet_utils.validate_activation(classifier_activation, weights)
    return Dense(classes, activation=classifier_activation, name=name)(x)
