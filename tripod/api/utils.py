"""`tripod.utils`: seeds, sessions, data helpers and serialization utilities."""

from tripod.backends.common.keras_tensor import is_keras_tensor
from tripod.backends.config import (
    disable_interactive_logging,
    enable_interactive_logging,
    is_interactive_logging_enabled,
)
from tripod.backends.dtypes import standardize_dtype
from tripod.data.audio_dataset import audio_dataset_from_directory
from tripod.data.config_object import Config
from tripod.data.get_file import get_file
from tripod.data.image_dataset import image_dataset_from_directory
from tripod.data.image_utils import array_to_img, img_to_array, load_img, save_img
from tripod.data.split_dataset import split_dataset
from tripod.data.text_dataset import text_dataset_from_directory
from tripod.data.timeseries_dataset import timeseries_dataset_from_array
from tripod.layers.preprocessing.feature_space import FeatureSpace
from tripod.layers.preprocessing.image import bounding_boxes
from tripod.saving.registry import (
    CustomObjectScope,
    custom_object_scope,
    get_custom_objects,
    get_registered_name,
    get_registered_object,
    register_keras_serializable,
)
from tripod.saving.serialization import deserialize_keras_object, serialize_keras_object
from tripod.training.model_visualization import model_to_dot, plot_model
from tripod.training.data_utils import get_source_inputs, normalize, pad_sequences, to_categorical
from tripod.training.progbar import Progbar
from tripod.training.session import clear_session, set_random_seed
from tripod.training.data_adapters import (
    PyDataset,
    pack_x_y_sample_weight,
    unpack_x_y_sample_weight,
)

#: the Keras 2 name of PyDataset
Sequence = PyDataset

__all__ = [
    "CustomObjectScope", "Progbar", "PyDataset", "Sequence", "clear_session", "custom_object_scope",
    "deserialize_keras_object", "get_custom_objects", "get_registered_name",
    "get_registered_object", "is_keras_tensor", "pack_x_y_sample_weight",
    "register_keras_serializable", "serialize_keras_object", "set_random_seed",
    "standardize_dtype", "unpack_x_y_sample_weight", "get_source_inputs", "normalize",
    "pad_sequences", "to_categorical", "disable_interactive_logging", "enable_interactive_logging",
    "is_interactive_logging_enabled", "model_to_dot", "plot_model", "Config", "get_file",
    "image_dataset_from_directory", "text_dataset_from_directory", "audio_dataset_from_directory",
    "timeseries_dataset_from_array", "split_dataset", "load_img", "img_to_array", "array_to_img",
    "save_img", "bounding_boxes", "FeatureSpace",
]  # fmt: skip
