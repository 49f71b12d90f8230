"""`FeatureSpace`: one object that turns a dict of structured-data columns into model features.

Each named feature is preprocessed by its own layer (normalized, rescaled, discretized, looked
up or hashed), chosen features are crossed, integer results are one-hot encoded, and the
results are concatenated (or returned as a dict). It is adapted once on the training data, then
called on dicts of arrays or, in a `tf.data` map, on `tf.Tensor`s (computed with TensorFlow ops
whatever the backend). Models hold no string tensors, so the encoded features, not the raw
columns, are a model's inputs: `get_encoded_features()` gives them as symbolic tensors (on
tensorflow, or without string features, computed from `get_inputs()`).
"""

import numpy as np

from tripod.backends import config, dtypes
from tripod.backends.common import tree
from tripod.backends.common.keras_tensor import KerasTensor
from tripod.layers import naming
from tripod.layers.input_layer import Input
from tripod.layers.preprocessing import _encoding
from tripod.layers.preprocessing.category_encoding import CategoryEncoding
from tripod.layers.preprocessing.data_layer import DataLayer
from tripod.layers.preprocessing.discretization import Discretization
from tripod.layers.preprocessing.hashing import HashedCrossing, Hashing
from tripod.layers.preprocessing.integer_lookup import IntegerLookup
from tripod.layers.preprocessing.normalization import Normalization
from tripod.layers.preprocessing.rescaling import Rescaling
from tripod.layers.preprocessing.string_lookup import StringLookup
from tripod.saving import model_io, registry, serialization

#: the module Keras 3 files name `Feature`, `Cross` and `TFDIdentity` under
_KERAS_MODULE = "keras.src.layers.preprocessing.feature_space"
_FEATURE_MODES = ("int", "one_hot", "float")
_CROSS_MODES = ("int", "one_hot")
_PLACEHOLDERS = {"string": "", "float32": 0.0}


def _check_mode(what, output_mode, modes):
    if output_mode not in modes:
        raise ValueError(f"{what}: output_mode must be one of {modes}, received {output_mode!r}.")


class Cross:
    """A crossing of features: their values hashed together into `crossing_dim` bins."""

    def __init__(self, feature_names, crossing_dim, output_mode="one_hot"):
        _check_mode("FeatureSpace.cross", output_mode, _CROSS_MODES)
        self.feature_names = tuple(feature_names)
        self.crossing_dim = crossing_dim
        self.output_mode = output_mode

    @property
    def name(self):
        """The crossed feature's name: the feature names joined by `_X_`."""
        return "_X_".join(self.feature_names)

    def get_config(self):
        return {
            "feature_names": self.feature_names,
            "crossing_dim": self.crossing_dim,
            "output_mode": self.output_mode,
        }

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class Feature:
    """A feature: its input `dtype`, the layer preprocessing it and how its output is encoded
    ("float" as it is, "int" indices, "one_hot" vectors)."""

    def __init__(self, dtype, preprocessor, output_mode):
        _check_mode("FeatureSpace.feature", output_mode, _FEATURE_MODES)
        self.dtype = dtype
        if isinstance(preprocessor, dict):
            preprocessor = serialization.deserialize_keras_object(preprocessor)
        self.preprocessor = preprocessor
        self.output_mode = output_mode

    def get_config(self):
        return {
            "dtype": self.dtype,
            "preprocessor": serialization.serialize_keras_object(self.preprocessor),
            "output_mode": self.output_mode,
        }

    @classmethod
    def from_config(cls, config):
        return cls(**config)


registry.register_builtin(Cross, _KERAS_MODULE)
registry.register_builtin(Feature, _KERAS_MODULE)


class TFDIdentity(DataLayer):
    """The preprocessor of plain float features: its input as a float tensor, unchanged."""

    _keras_module = _KERAS_MODULE

    def call(self, inputs):
        return self.backend.cast(inputs, self.compute_dtype)

    def compute_output_shape(self, input_shape):
        return input_shape


def _needs_adapt(preprocessor):
    """Whether `preprocessor` learns its state from data and has none yet."""
    if isinstance(preprocessor, Normalization):
        return preprocessor.input_mean is None
    if isinstance(preprocessor, Discretization):
        return preprocessor.bin_boundaries is None
    if isinstance(preprocessor, (StringLookup, IntegerLookup)):
        return not preprocessor.get_vocabulary(include_special_tokens=False)
    return hasattr(preprocessor, "adapt")


def _cardinality(name, layer):
    """How many indices `layer` produces (the width of their one-hot encoding)."""
    if isinstance(layer, (IntegerLookup, StringLookup)):
        return layer.vocabulary_size()
    if isinstance(layer, CategoryEncoding):
        return layer.num_tokens
    if isinstance(layer, Discretization):
        return len(layer.bin_boundaries) + 1
    if isinstance(layer, (Hashing, HashedCrossing)):
        return layer.num_bins
    raise ValueError(
        f"FeatureSpace: feature '{name}' has output_mode='one_hot', but the number of values its "
        f"preprocessor {type(layer).__name__} produces is not known, so it cannot be one-hot "
        "encoded. Use output_mode='int'."
    )


class FeatureSpace(DataLayer):
    """Preprocess, cross and encode a dict of structured-data features (see the module
    docstring). `features` maps names to a `Feature` (from the static constructors below) or
    the name of a default one ("float", "float_normalized", "string_categorical", ...)."""

    _keras_module = "keras.utils"
    _UNTRACKED = DataLayer._UNTRACKED | {"_encoded_features", "_inputs"}

    # -- feature constructors --------------------------------------------------------------------
    @classmethod
    def cross(cls, feature_names, crossing_dim, output_mode="one_hot"):
        """A crossing of the named features into `crossing_dim` hashed bins."""
        return Cross(feature_names, crossing_dim, output_mode=output_mode)

    @classmethod
    def feature(cls, dtype, preprocessor, output_mode):
        """A feature with your own preprocessing layer."""
        return Feature(dtype, preprocessor, output_mode)

    @classmethod
    def float(cls, name=None):
        """A float feature passed through unchanged."""
        name = name or naming.unique_name("float")
        return Feature(
            "float32", TFDIdentity(dtype="float32", name=f"{name}_preprocessor"), "float"
        )

    @classmethod
    def float_rescaled(cls, scale=1.0, offset=0.0, name=None):
        """A float feature rescaled to x * scale + offset."""
        name = name or naming.unique_name("float_rescaled")
        return Feature(
            "float32", Rescaling(scale=scale, offset=offset, name=f"{name}_preprocessor"), "float"
        )

    @classmethod
    def float_normalized(cls, name=None):
        """A float feature normalized to zero mean and unit variance (adapted)."""
        name = name or naming.unique_name("float_normalized")
        return Feature("float32", Normalization(axis=-1, name=f"{name}_preprocessor"), "float")

    @classmethod
    def float_discretized(cls, num_bins, bin_boundaries=None, output_mode="one_hot", name=None):
        """A float feature bucketed into `num_bins` bins (quantiles adapted unless boundaries are
        given)."""
        name = name or naming.unique_name("float_discretized")
        bins = None if bin_boundaries is not None else num_bins
        layer = Discretization(
            num_bins=bins, bin_boundaries=bin_boundaries, name=f"{name}_preprocessor"
        )
        return Feature("float32", layer, output_mode)

    @classmethod
    def integer_categorical(
        cls, max_tokens=None, num_oov_indices=1, output_mode="one_hot", name=None
    ):
        """An integer category looked up in an adapted vocabulary."""
        name = name or naming.unique_name("integer_categorical")
        layer = IntegerLookup(
            max_tokens=max_tokens, num_oov_indices=num_oov_indices, name=f"{name}_preprocessor"
        )
        return Feature("int32", layer, output_mode)

    @classmethod
    def string_categorical(
        cls, max_tokens=None, num_oov_indices=1, output_mode="one_hot", name=None
    ):
        """A string category looked up in an adapted vocabulary."""
        name = name or naming.unique_name("string_categorical")
        layer = StringLookup(
            max_tokens=max_tokens, num_oov_indices=num_oov_indices, name=f"{name}_preprocessor"
        )
        return Feature("string", layer, output_mode)

    @classmethod
    def string_hashed(cls, num_bins, output_mode="one_hot", name=None):
        """A string category hashed into `num_bins` bins."""
        name = name or naming.unique_name("string_hashed")
        return Feature(
            "string", Hashing(num_bins=num_bins, name=f"{name}_preprocessor"), output_mode
        )

    @classmethod
    def integer_hashed(cls, num_bins, output_mode="one_hot", name=None):
        """An integer category hashed into `num_bins` bins."""
        name = name or naming.unique_name("integer_hashed")
        return Feature(
            "int32", Hashing(num_bins=num_bins, name=f"{name}_preprocessor"), output_mode
        )

    # -- construction ----------------------------------------------------------------------------
    def __init__(
        self,
        features,
        output_mode="concat",
        crosses=None,
        crossing_dim=32,
        hashing_dim=32,
        num_discretization_bins=32,
        name=None,
    ):
        super().__init__(name=name, autocast=False)
        if not features:
            raise ValueError("FeatureSpace: the `features` argument cannot be None or empty.")
        _check_mode("FeatureSpace", output_mode, ("dict", "concat"))
        self.output_mode = output_mode
        self.crossing_dim = crossing_dim
        self.hashing_dim = hashing_dim
        self.num_discretization_bins = num_discretization_bins
        self.features = {
            key: self._standardize_feature(key, value) for key, value in features.items()
        }
        self.crosses = [self._standardize_cross(cross) for cross in crosses or ()]
        self.crosses_by_name = {cross.name: cross for cross in self.crosses}
        self.preprocessors = {key: feature.preprocessor for key, feature in self.features.items()}
        self.crossers = {
            cross.name: HashedCrossing(cross.crossing_dim, name=cross.name)
            for cross in self.crosses
        }
        self._is_adapted = False
        self._encoded_features = None
        self._inputs = None

    def _standardize_feature(self, name, feature):
        if isinstance(feature, Feature):
            return feature
        if isinstance(feature, dict):
            return serialization.deserialize_keras_object(feature)
        defaults = {
            "float": lambda: self.float(name=name),
            "float_normalized": lambda: self.float_normalized(name=name),
            "float_rescaled": lambda: self.float_rescaled(name=name),
            "float_discretized": lambda: self.float_discretized(
                self.num_discretization_bins, name=name
            ),
            "integer_categorical": lambda: self.integer_categorical(name=name),
            "string_categorical": lambda: self.string_categorical(name=name),
            "integer_hashed": lambda: self.integer_hashed(self.hashing_dim, name=name),
            "string_hashed": lambda: self.string_hashed(self.hashing_dim, name=name),
        }
        if not isinstance(feature, str) or feature not in defaults:
            raise ValueError(
                f"FeatureSpace: invalid feature type {feature!r} for feature '{name}'; expected a "
                f"Feature or one of {sorted(defaults)}."
            )
        return defaults[feature]()

    def _standardize_cross(self, cross):
        if isinstance(cross, dict):
            cross = serialization.deserialize_keras_object(cross)
        if not isinstance(cross, Cross):
            if not self.crossing_dim:
                raise ValueError(
                    "FeatureSpace: with `crosses`, give `crossing_dim` (the number of crossing "
                    "bins) too."
                )
            cross = Cross(cross, crossing_dim=self.crossing_dim)
        unknown = [key for key in cross.feature_names if key not in self.features]
        if unknown:
            raise ValueError(
                f"FeatureSpace: the cross {cross.feature_names} names features {unknown} that are "
                f"not in `features` ({sorted(self.features)})."
            )
        return cross

    # -- adapting --------------------------------------------------------------------------------
    def _adaptable(self):
        return [key for key, layer in self.preprocessors.items() if _needs_adapt(layer)]

    def adapt(self, dataset, verbose=1):
        """Learn every adaptable preprocessor's state (means, quantiles, vocabularies) from
        `dataset`: a dict of arrays/lists, or an iterable (e.g. a `tf.data.Dataset`) of dicts,
        batched or not."""
        names = self._adaptable()
        columns = _columns(dataset, names)
        for key in names:
            values = columns[key]
            self.preprocessors[key].adapt(values.reshape(-1, 1) if values.ndim <= 1 else values)
        self._is_adapted = True
        self._encoded_features = None
        if verbose and names:
            print(
                f"FeatureSpace '{self.name}': adapted {len(names)} features on "
                f"{len(columns[names[0]])} samples."
            )

    def _check_if_adapted(self):
        if not self._is_adapted:
            if self._adaptable():
                raise ValueError(
                    f"FeatureSpace '{self.name}': call `.adapt(dataset)` on it before using it."
                )
            self._is_adapted = True

    # -- calling ---------------------------------------------------------------------------------
    def __call__(self, data):
        if not isinstance(data, dict):
            raise ValueError(  # noqa: TRY004 (Keras raises ValueError)
                f"FeatureSpace '{self.name}' can only be called on a dict of features, received "
                f"{type(data).__name__}."
            )
        missing = sorted(set(self.features) - set(data))
        if missing:
            raise ValueError(
                f"FeatureSpace '{self.name}': the input dict lacks the features {missing}."
            )
        self._check_if_adapted()
        return super().__call__(data)

    def call(self, data):
        columns = {key: self._column(data[key]) for key in self.features}
        single = any(_rank(data[key]) == 0 for key in self.features)
        preprocessed = {key: self.preprocessors[key](columns[key]) for key in sorted(self.features)}
        crossed = {
            cross.name: self.crossers[cross.name](
                [preprocessed[key] for key in cross.feature_names]
            )
            for cross in sorted(self.crosses, key=lambda c: c.name)
        }
        specs = {**self.features, **self.crosses_by_name}
        encoded = {
            key: self._encode(key, value, specs[key])
            for key, value in {**preprocessed, **crossed}.items()
        }
        if self.output_mode == "dict":
            return (
                {key: self._unbatch(value) for key, value in encoded.items()} if single else encoded
            )
        out = self.backend.concatenate(
            [self._concatenable(key, value) for key, value in encoded.items()], axis=-1
        )
        return self._unbatch(out) if single else out

    def _column(self, x):
        """A feature's values as a (batch, 1) column (a host array stays on the host, for
        strings)."""
        if isinstance(x, (list, tuple, np.ndarray, str, bytes, int, float, np.generic)):
            x = np.asarray(x)
            return x.reshape(-1, 1) if x.ndim <= 1 else x
        rank = len(x.shape)
        return self.backend.reshape(x, (-1, 1)) if rank <= 1 else x

    def _unbatch(self, x):
        return self.backend.squeeze(x, 0)

    def _encode(self, name, x, spec):
        if spec.output_mode != "one_hot":
            return x
        layer = self.preprocessors.get(name) or self.crossers[name]
        dtype = self.backend.dtype(x)
        if not dtypes.is_int(dtype):
            raise ValueError(
                f"FeatureSpace: feature '{name}' has output_mode='one_hot', so its preprocessor "
                f"must return integers; it returns {dtype}."
            )
        return _encoding.encode(
            x, "multi_hot", _cardinality(name, layer), "float32", backend=self.backend
        )

    def _concatenable(self, name, x):
        dtype = self.backend.dtype(x)
        if not dtypes.is_float(dtype):
            raise ValueError(
                f"FeatureSpace: cannot concatenate feature '{name}': it is not encoded (it has "
                f"dtype {dtype}). Use output_mode='dict', or a one-hot / float feature."
            )
        return self.backend.cast(x, "float32")

    # -- symbolic views --------------------------------------------------------------------------
    def get_encoded_features(self):
        """The encoded features as symbolic tensors (a tensor, or a dict of them with
        output_mode='dict'), the inputs of a model trained on them. Where the raw features can
        be model inputs (no string feature, or the tensorflow backend), they are this space
        called on `get_inputs()`, so `Model(get_inputs(), predictions)` serves raw dicts end
        to end; otherwise new `Input`s of their shape."""
        self._check_if_adapted()
        if self._encoded_features is None:
            if self._strings_refused():
                sample = self._encoded_sample()
                if self.output_mode == "concat":
                    self._encoded_features = _input_like(sample, "encoded_features")
                else:
                    self._encoded_features = {k: _input_like(v, k) for k, v in sample.items()}
            else:
                self._encoded_features = self(self.get_inputs())
        return self._encoded_features

    def get_inputs(self):
        """Symbolic (batch, 1) inputs for the raw features, the same ones on each call (string
        ones on the tensorflow backend alone: elsewhere models hold no strings)."""
        strings = self._strings_refused()
        if strings:
            raise TypeError(
                f"FeatureSpace '{self.name}': the string features {strings} cannot be model inputs "
                "(tripod models hold no string tensors); feed the encoded features instead "
                "(get_encoded_features())."
            )
        if self._inputs is None:
            self._inputs = {
                key: Input(shape=(1,), dtype=f.dtype, name=key) for key, f in self.features.items()
            }
        return self._inputs

    def compute_output_spec(self, data):
        """The encoded features' specs, read off one encoded row of accepted values (running
        the lookups on stand-in values could meet tokens outside their vocabularies)."""
        batch = next(iter(data.values())).shape[0]
        return tree.map_structure(
            lambda x: KerasTensor((batch, *x.shape[1:]), dtypes.standardize_dtype(x.dtype)),
            self._encoded_sample(),
        )

    def _strings_refused(self):
        """The string features, where the backend's models cannot take them as inputs."""
        if config.backend() in dtypes.STRING_BACKENDS:
            return []
        return sorted(key for key, f in self.features.items() if f.dtype == "string")

    def _encoded_sample(self):
        """This space's output on one row of values each feature accepts."""
        row = {
            key: np.full((1, 1), _placeholder(f), dtype=_host_dtype(f.dtype))
            for key, f in self.features.items()
        }
        return self(row)

    # -- saving ----------------------------------------------------------------------------------
    def get_config(self):
        return {
            "features": serialization.serialize_keras_object(self.features),
            "output_mode": self.output_mode,
            "crosses": serialization.serialize_keras_object(self.crosses),
            "crossing_dim": self.crossing_dim,
            "hashing_dim": self.hashing_dim,
            "num_discretization_bins": self.num_discretization_bins,
            "name": self.name,
        }

    def get_build_config(self):
        """Each preprocessor's build config (a built one was fed this space's (batch, 1)
        columns)."""
        return {key: _build_config(feature.preprocessor) for key, feature in self.features.items()}

    def build_from_config(self, config):
        for key, build_config in config.items():
            preprocessor = self.features[key].preprocessor
            if build_config and not preprocessor.built:
                preprocessor.build_from_config(build_config)
        self._is_adapted = True
        self.built = True

    def save(self, filepath):
        """Save this feature space (config and adapted state) as a `.keras` file; load it back
        with `tripod.saving.load_model`."""
        model_io.save_model(self, filepath)


def _placeholder(feature):
    """A value `feature` accepts: a token of its vocabulary for a lookup (which may have no OOV
    index), else a zero or an empty string."""
    get_vocabulary = getattr(feature.preprocessor, "get_vocabulary", None)
    tokens = get_vocabulary(include_special_tokens=False) if get_vocabulary else None
    return tokens[0] if tokens else _PLACEHOLDERS.get(feature.dtype, 0)


def _build_config(layer):
    config_ = layer.get_build_config()
    return config_ if config_ is not None or not layer.built else {"input_shape": [None, 1]}


def _rank(x):
    return len(x.shape) if hasattr(x, "shape") else np.ndim(x)


def _host_dtype(dtype):
    return object if dtype == "string" else dtypes.to_numpy(dtype)


def _input_like(x, name):
    return Input(shape=tuple(x.shape[1:]), dtype=dtypes.standardize_dtype(x.dtype), name=name)


def _columns(dataset, names):
    """{name: NumPy array of all its values} from a dict of arrays or an iterable of dicts."""
    if isinstance(dataset, dict):
        return {key: _encoding.host_array(dataset[key]) for key in names}
    if not hasattr(dataset, "__iter__"):
        raise ValueError(
            "FeatureSpace.adapt: expected a dict of arrays or a dataset of dicts, received "
            f"{type(dataset).__name__}."
        )
    parts = {key: [] for key in names}
    for element in dataset:
        if not isinstance(element, dict):
            raise ValueError(  # noqa: TRY004 (Keras raises ValueError)
                "FeatureSpace.adapt: the dataset must yield dicts of features, it yields "
                f"{type(element).__name__}."
            )
        for key in names:
            parts[key].append(_encoding.host_array(element[key]))
    if not names:
        return {}
    if not parts[names[0]]:
        raise ValueError("FeatureSpace.adapt: the dataset is empty.")
    join = np.stack if parts[names[0]][0].ndim == 0 else np.concatenate
    return {key: join(values) for key, values in parts.items()}
