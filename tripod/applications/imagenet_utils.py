"""What the ImageNet applications share: input preprocessing (the "caffe", "tf" and "torch"
conventions), decoding predictions into class names, and the checks of input shape and classifier
activation, with Keras 3's rules and error messages (`keras.applications.imagenet_utils`)."""

import json
import warnings

import numpy as np

from tripod.backends import active, config, dtypes
from tripod.backends.common.keras_tensor import KerasTensor, any_symbolic
from tripod.data.get_file import get_file
from tripod.layers import activations
from tripod.layers.operation import Operation

_backend = active()

#: where the ImageNet class index (`{"0": ["n01440764", "tench"], ...}`) is published, and its md5
CLASS_INDEX_URL = (
    "https://storage.googleapis.com/download.tensorflow.org/data/imagenet_class_index.json"
)
CLASS_INDEX_HASH = "c2c37ea517e94d9795004a39431a14cb"
#: the class index once read (module state, so the file is opened once per process)
CLASS_INDEX = None

# per-channel statistics of ImageNet: "caffe" subtracts the BGR means (0-255 scale), "torch"
# normalizes RGB values scaled to 0-1
_CAFFE_MEAN = (103.939, 116.779, 123.68)
_TORCH_MEAN = (0.485, 0.456, 0.406)
_TORCH_STD = (0.229, 0.224, 0.225)
_MODES = ("caffe", "tf", "torch")


# -- preprocess_input -----------------------------------------------------------------------------
def _check_preprocess_arguments(data_format, mode):
    """The data format to use (the global one when None); ValueError on an unknown mode/format."""
    if mode not in _MODES:
        raise ValueError(
            f"Expected mode to be one of `caffe`, `tf` or `torch`. Received: mode={mode}"
        )
    if data_format is None:
        return config.image_data_format()
    if data_format not in ("channels_first", "channels_last"):
        raise ValueError(
            "Expected data_format to be one of `channels_first` or `channels_last`. "
            f"Received: data_format={data_format}"
        )
    return data_format


def _channel_layout(ndim, data_format):
    """(channel axis, shape a per-channel vector is reshaped to) for an image batch of `ndim`
    dimensions (or a single image when `ndim` is 3)."""
    if data_format == "channels_last":
        return ndim - 1, (1,) * (ndim - 1) + (3,)
    axis = 0 if ndim == 3 else 1
    return axis, tuple(3 if i == axis else 1 for i in range(ndim))


def _statistics(mode):
    """(scale, mean, std or None) of `mode` "caffe" or "torch": x / scale - mean, then / std."""
    if mode == "torch":
        return 255.0, _TORCH_MEAN, _TORCH_STD
    return 1.0, _CAFFE_MEAN, None


def _preprocess_numpy(x, data_format, mode):
    """NumPy path: a float array is written over (as Keras does); other dtypes become floatx."""
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(config.floatx())
    if mode == "tf":
        x /= 127.5
        x -= 1.0
        return x
    axis, shape = _channel_layout(x.ndim, data_format)
    if mode == "caffe":
        x = np.flip(x, axis=axis)  # RGB -> BGR (a view, so the caller's array is written)
    scale, mean, std = _statistics(mode)
    if scale != 1.0:
        x /= scale
    x -= np.asarray(mean, x.dtype).reshape(shape)
    if std is not None:
        x /= np.asarray(std, x.dtype).reshape(shape)
    return x


def _op(name, *args, **kwargs):
    """Backend op `name`; on symbolic tensors, the `Operation` node that records it (as the
    public `tripod.ops`, which this tier does not import, would)."""
    if any_symbolic(args, kwargs):
        return Operation(name)(*args, **kwargs)
    return getattr(_backend, name)(*args, **kwargs)


def _preprocess_tensor(x, data_format, mode):
    """Tensor path (backend or symbolic tensors); returns a new tensor."""
    if not isinstance(x, KerasTensor):
        x = _backend.convert_to_tensor(x)
    dtype = dtypes.standardize_dtype(x.dtype)
    if "float" not in dtype:
        dtype = config.floatx()
        x = _op("cast", x, dtype)
    if mode == "tf":
        return _op("subtract", _op("divide", x, 127.5), 1.0)
    axis, shape = _channel_layout(len(x.shape), data_format)
    if mode == "caffe":
        x = _op("flip", x, axis=axis)
    scale, mean, std = _statistics(mode)
    if scale != 1.0:
        x = _op("divide", x, scale)
    x = _op("subtract", x, _backend.convert_to_tensor(np.reshape(mean, shape), dtype=dtype))
    if std is not None:
        x = _op("divide", x, _backend.convert_to_tensor(np.reshape(std, shape), dtype=dtype))
    return x


def preprocess_input(x, data_format=None, mode="caffe"):
    """Preprocess a batch of images (values 0-255, 3 channels) the way an ImageNet model was
    trained: "caffe" RGB->BGR then subtract the channel means, "tf" scale to [-1, 1], "torch"
    scale to [0, 1] then normalize each channel. NumPy in gives NumPy out (a float array is
    written over), a tensor gives a tensor; `data_format` defaults to the global one."""
    data_format = _check_preprocess_arguments(data_format, mode)
    if isinstance(x, np.ndarray):
        return _preprocess_numpy(x, data_format, mode)
    return _preprocess_tensor(x, data_format, mode)


# -- decode_predictions ---------------------------------------------------------------------------
def _class_index():
    """The ImageNet class index, fetched into `~/.keras/models` on first use and kept."""
    global CLASS_INDEX
    if CLASS_INDEX is None:
        path = get_file(
            "imagenet_class_index.json",
            CLASS_INDEX_URL,
            cache_subdir="models",
            file_hash=CLASS_INDEX_HASH,
        )
        with open(path) as f:
            CLASS_INDEX = json.load(f)
    return CLASS_INDEX


def decode_predictions(preds, top=5):
    """The `top` classes of each row of ImageNet predictions `preds` (shape `(samples, 1000)`):
    one list per sample of `(class_name, class_description, score)`, best first."""
    if len(preds.shape) != 2 or preds.shape[1] != 1000:
        raise ValueError(
            "`decode_predictions` expects a batch of predictions (i.e. a 2D array of shape "
            f"(samples, 1000)). Received array with shape: {preds.shape}"
        )
    index = _class_index()
    preds = _backend.convert_to_numpy(preds)
    results = []
    for row in preds:
        best = np.argsort(-row, kind="stable")[:top]
        results.append([(*index[str(i)], row[i]) for i in best])
    return results


# -- argument checks ------------------------------------------------------------------------------
def _default_shape(input_shape, default_size, data_format, weights):
    """The shape used when none is given: 3 channels, or (without ImageNet weights) the channels
    of a given 3-dimensional `input_shape`, warning when that is neither 1 nor 3."""
    channels = 3
    if weights != "imagenet" and input_shape and len(input_shape) == 3:
        channels = input_shape[0] if data_format == "channels_first" else input_shape[-1]
        if channels not in (1, 3):
            warnings.warn(
                "This model usually expects 1 or 3 input channels. However, it was passed an "
                f"input_shape with {channels} input channels.",
                stacklevel=3,
            )
    size = (default_size, default_size)
    return (channels, *size) if data_format == "channels_first" else (*size, channels)


def _check_given_shape(input_shape, min_size, data_format, weights):
    """ValueError unless `input_shape` has 3 entries, 3 channels with ImageNet weights, and
    spatial sizes of at least `min_size` (None sizes pass)."""
    if len(input_shape) != 3:
        raise ValueError("`input_shape` must be a tuple of three integers.")
    first = data_format == "channels_first"
    channels = input_shape[0] if first else input_shape[-1]
    if channels != 3 and weights == "imagenet":
        raise ValueError(f"The input must have 3 channels; Received `input_shape={input_shape}`")
    spatial = input_shape[1:] if first else input_shape[:2]
    if any(size is not None and size < min_size for size in spatial):
        raise ValueError(
            f"Input size must be at least {min_size}x{min_size}; Received: "
            f"input_shape={input_shape}"
        )


def obtain_input_shape(
    input_shape, default_size, min_size, data_format, require_flatten, weights=None
):
    """The input shape (one example, no batch axis) an application builds on: `input_shape`
    checked against Keras's rules, or the default; ValueError with Keras's messages otherwise.
    `require_flatten` (include_top) needs a static shape, and with ImageNet weights the default."""
    default_shape = _default_shape(input_shape, default_size, data_format, weights)
    if weights == "imagenet" and require_flatten:
        if input_shape is not None and tuple(input_shape) != default_shape:
            raise ValueError(
                "When setting `include_top=True` and loading `imagenet` weights, `input_shape` "
                f"should be {default_shape}.  Received: input_shape={input_shape}"
            )
        return default_shape
    if input_shape:
        _check_given_shape(input_shape, min_size, data_format, weights)
    elif require_flatten:
        input_shape = default_shape
    else:
        input_shape = (3, None, None) if data_format == "channels_first" else (None, None, 3)
    if require_flatten and None in input_shape:
        raise ValueError(
            "If `include_top` is True, you should specify a static `input_shape`. "
            f"Received: input_shape={input_shape}"
        )
    return input_shape


def correct_pad(inputs, kernel_size):
    """The `((top, bottom), (left, right))` zero padding that makes a strided "valid" convolution
    of `kernel_size` over `inputs` cover the image as TensorFlow's "same" padding does."""
    first_spatial = 2 if config.image_data_format() == "channels_first" else 1
    rows, cols = inputs.shape[first_spatial : first_spatial + 2]
    if isinstance(kernel_size, int):
        kernel_size = (kernel_size, kernel_size)
    adjust = (1, 1) if rows is None else (1 - rows % 2, 1 - cols % 2)
    half = (kernel_size[0] // 2, kernel_size[1] // 2)
    return ((half[0] - adjust[0], half[0]), (half[1] - adjust[1], half[1]))


def validate_activation(classifier_activation, weights):
    """ValueError when pretrained `weights` are loaded under a classifier activation other than
    None or softmax (the published top layers were trained with softmax)."""
    if weights is None:
        return
    activation = activations.get(classifier_activation)
    if activation not in (activations.get("softmax"), activations.get(None)):
        raise ValueError(
            "Only `None` and `softmax` activations are allowed for the `classifier_activation` "
            "argument when using pretrained weights, with `include_top=True`; Received: "
            f"classifier_activation={activation}"
        )
