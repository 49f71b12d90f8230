"""What the dataset builders return, by `format`: a `tf.data.Dataset` ("tf", the default, as in
Keras, whatever backend is active) when TensorFlow is installed, else tripod's `ArrayDataset`
("tripod", which can also be asked for explicitly).

The tf.data pipelines live in `tripod.backends.tensorflow.datasets` (TensorFlow is imported only
inside its backend package); it is imported here, through the optional-package helper, only
when a "tf" data set is built.
"""

import importlib.util

from tripod.backends.common import optional

FORMATS = ("tf", "tripod")


def tensorflow_installed():
    """Whether TensorFlow can be imported (checked without importing it)."""
    return importlib.util.find_spec("tensorflow") is not None


def resolve_format(format, builder):
    """The format `builder` returns: "tf" only when asked for and TensorFlow is installed."""
    if format not in FORMATS:
        raise ValueError(
            f"{builder}: `format` must be one of {FORMATS} ('tf' gives a tf.data.Dataset when "
            f"TensorFlow is installed, 'tripod' an ArrayDataset). Received: format={format!r}"
        )
    if format == "tf" and not tensorflow_installed():
        return "tripod"
    return format


def tf_pipelines():
    """`tripod.backends.tensorflow.datasets`: the tf.data pipelines of the builders."""
    return optional.require(
        "tripod.backends.tensorflow.datasets", "tensorflow", "A format='tf' dataset"
    )
