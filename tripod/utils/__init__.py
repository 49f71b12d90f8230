"""`tripod.utils`: seeds, sessions, data helpers and serialization utilities; the code lives in
tripod/data/, tripod/training/ and tripod/saving/ (each import below names its file)."""

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
from tripod.saving.registry import (
    CustomObjectScope,
    custom_object_scope,
    get_custom_objects,
    get_registered_name,
    get_registered_object,
    register_keras_serializable,
)
from tripod.saving.serialization import deserialize_keras_object, serialize_keras_object
from tripod.training.data_adapters import (
    PyDataset,
    pack_x_y_sample_weight,
    unpack_x_y_sample_weight,
)
from tripod.training.data_adapters import PyDataset as Sequence  # the Keras 2 name
from tripod.training.data_utils import get_source_inputs, normalize, pad_sequences, to_categorical
from tripod.training.model_visualization import model_to_dot, plot_model
from tripod.training.progbar import Progbar
from tripod.training.session import clear_session, set_random_seed
from tripod.utils import bounding_boxes, legacy

__all__ = [
    "Config",
    "CustomObjectScope",
    "FeatureSpace",
    "Progbar",
    "PyDataset",
    "Sequence",
    "array_to_img",
    "audio_dataset_from_directory",
    "bounding_boxes",
    "clear_session",
    "custom_object_scope",
    "deserialize_keras_object",
    "disable_interactive_logging",
    "enable_interactive_logging",
    "get_custom_objects",
    "get_file",
    "get_registered_name",
    "get_registered_object",
    "get_source_inputs",
    "image_dataset_from_directory",
    "img_to_array",
    "is_interactive_logging_enabled",
    "is_keras_tensor",
    "legacy",
    "load_img",
    "model_to_dot",
    "normalize",
    "pack_x_y_sample_weight",
    "pad_sequences",
    "plot_model",
    "register_keras_serializable",
    "save_img",
    "serialize_keras_object",
    "set_random_seed",
    "split_dataset",
    "standardize_dtype",
    "text_dataset_from_directory",
    "timeseries_dataset_from_array",
    "to_categorical",
    "unpack_x_y_sample_weight",
]
