"""TensorFlow objects inside tripod: `tf.Variable`s shared as tripod Variables, and loaded
SavedModels (what `TFSMLayer` calls)."""

import os

import tensorflow as tf

from tripod.backends.common import tree
from tripod.backends.tensorflow.core import Variable


class SharedVariable(Variable):
    """A tripod Variable whose storage is an existing `tf.Variable` (no copy): a write through
    either is seen by both."""

    def _initial_native(self, value):
        return value  # the tf.Variable itself: `_store` keeps it

    def _store(self, native):
        self._variable = native


def adopt_variable(native, name, trainable):
    """A tripod Variable named `name` sharing the storage of the `tf.Variable` `native`."""
    if not isinstance(native, tf.Variable):
        raise TypeError(
            f"adopt_variable({name!r}): the tensorflow backend shares tf.Variable objects; "
            f"received {type(native).__name__}."
        )
    return SharedVariable(native, dtype=native.dtype.name, trainable=trainable, name=name)


def load_saved_model(filepath):
    """The SavedModel at `filepath`, loaded, as a `LoadedSavedModel`; a clear error naming the
    path when there is none there."""
    path = os.fspath(filepath)
    if not tf.saved_model.contains_saved_model(path):
        raise ValueError(
            f"No TensorFlow SavedModel at {path!r} (expected a folder holding saved_model.pb, "
            "as written by model.export(path, format='tf_saved_model') or tf.saved_model.save)."
        )
    return LoadedSavedModel(tf.saved_model.load(path), path)


class LoadedSavedModel:
    """A loaded SavedModel seen as named endpoints (its functions and serving signatures) and
    the variables they read."""

    def __init__(self, root, path):
        self.root = root
        self.path = path

    def endpoint_names(self):
        """Every callable endpoint: attribute functions, then serving signatures."""
        attributes = [
            name
            for name in dir(self.root)
            if not name.startswith("_") and hasattr(getattr(self.root, name), "concrete_functions")
        ]
        return attributes + [name for name in self.root.signatures if name not in attributes]

    def endpoint(self, name):
        """A callable running endpoint `name` on the layer's `inputs` (a tensor or a structure
        of them); an error listing the endpoints when there is none of that name."""
        function = getattr(self.root, name, None)
        if hasattr(function, "concrete_functions"):
            return function
        if name in self.root.signatures:
            return _SignatureCall(self.root.signatures[name], name)
        raise ValueError(
            f"The SavedModel at {self.path!r} has no endpoint {name!r}; its endpoints are "
            f"{self.endpoint_names()}."
        )

    def variables(self, names):
        """(trainable, non-trainable) `tf.Variable`s: the lists the writer saved (tripod's and
        Keras's exports save both), else those the endpoints `names` read."""
        root = self.root
        if hasattr(root, "trainable_variables") and hasattr(root, "non_trainable_variables"):
            return list(root.trainable_variables), list(root.non_trainable_variables)
        used = _unique(v for name in names for v in _read_by(self.endpoint(name)))
        return [v for v in used if v.trainable], [v for v in used if not v.trainable]


class _SignatureCall:
    """A serving signature called like a function of the layer's inputs: a dict by keyword,
    anything else flattened onto the signature's inputs in order."""

    def __init__(self, function, name):
        self.function = function
        self.name = name
        self.keywords = list(function.function_type.parameters)

    def __call__(self, inputs):
        if isinstance(inputs, dict):
            return self.function(**inputs)
        flat = tree.flatten(inputs)
        if len(flat) != len(self.keywords):
            raise ValueError(
                f"Signature {self.name!r} takes {len(self.keywords)} inputs {self.keywords}; "
                f"received {len(flat)}."
            )
        return self.function(**dict(zip(self.keywords, flat)))

    @property
    def variables(self):
        """The variables the signature reads."""
        return self.function.variables


def _read_by(function):
    """The `tf.Variable`s a restored function or signature reads."""
    if isinstance(function, _SignatureCall):
        return list(function.variables)
    return [v for concrete in function.concrete_functions for v in concrete.variables]


def _unique(variables):
    """The variables in first-seen order, each once."""
    return list({id(v): v for v in variables}.values())
