"""`TFSMLayer`: an endpoint of a TensorFlow SavedModel as a tripod layer (tensorflow backend).

The SavedModel's variables become the layer's variables through the backend's `adopt_variable`
hook, sharing their storage, so they are in `model.weights`, train, and round-trip through
`save_weights`/`load_weights`. A SavedModel's graph is code: loading a model that holds this
layer from a config is refused in safe mode, as for `Lambda`.
"""

import os

from tripod.backends import active
from tripod.backends.common import name_scope
from tripod.layers.layer import Layer
from tripod.saving import serialization

ops = active()


class TFSMLayer(Layer):
    """An endpoint of a TensorFlow SavedModel as a layer (tensorflow backend only).

    The layer calls the endpoint `call_endpoint` (a function saved as an attribute, or a
    serving signature) of the SavedModel at `filepath`; with `training=True` it calls
    `call_training_endpoint` when one is named. Inference works as it is; fine-tuning updates
    the SavedModel's trainable variables (all frozen when `trainable=False`). The layer keeps
    none of the saved model's structure: it is the saved function and its variables.

    Args:
        filepath: str or path, the folder of the SavedModel (e.g. written by
            `model.export(path, format="tf_saved_model")` or `tf.saved_model.save`).
        call_endpoint: str, the endpoint called for inference; default "serve".
        call_training_endpoint: str, the endpoint called with `training=True`; default None,
            `call_endpoint` serves both.
        trainable: bool, whether the SavedModel's trainable variables train (default True).
        name: str, the layer's name; default a unique one.
        dtype: the dtype policy (see `Layer`); default floatx.

    Raises:
        NotImplementedError: the active backend is not tensorflow.
        ValueError: there is no SavedModel at `filepath`, or it has no such endpoint.

    Examples:
        >>> model = tripod.Sequential(
        ...     [tripod.Input((3,)), tripod.layers.Dense(2, kernel_initializer="ones")]
        ... )
        >>> model.export("exported", format="tf_saved_model")
        Saved artifact at 'exported' (format='tf_saved_model').
        >>> layer = tripod.layers.TFSMLayer("exported", call_endpoint="serve")
        >>> print(tripod.ops.convert_to_numpy(layer(np.ones((1, 3), dtype="float32"))))
        [[3. 3.]]
        >>> sorted(tuple(w.shape) for w in layer.trainable_weights)
        [(2,), (3, 2)]
    """

    def __init__(
        self,
        filepath,
        call_endpoint="serve",
        call_training_endpoint=None,
        trainable=True,
        name=None,
        dtype=None,
    ):
        super().__init__(trainable=trainable, name=name, dtype=dtype)
        self.filepath = os.fspath(filepath)
        self.call_endpoint = call_endpoint
        self.call_training_endpoint = call_training_endpoint
        saved = ops.load_saved_model(self.filepath)
        self._call_fn = self._endpoint(saved, call_endpoint)
        self._training_fn = call_training_endpoint and self._endpoint(saved, call_training_endpoint)
        self.saved_variables = self._adopt(saved)
        self.built = True

    def _endpoint(self, saved, endpoint):
        """The SavedModel's callable `endpoint`; the error names this layer and the endpoints."""
        try:
            return saved.endpoint(endpoint)
        except ValueError as e:
            raise ValueError(f"TFSMLayer '{self.name}': {e}") from None

    def _adopt(self, saved):
        """The SavedModel's variables as tripod Variables sharing their storage (trainable ones
        first, named after the tf.Variable without ':0' and with '/' as '_')."""
        endpoints = [e for e in (self.call_endpoint, self.call_training_endpoint) if e]
        trainable, frozen = saved.variables(endpoints)
        state = [(v, True) for v in trainable] + [(v, False) for v in frozen]
        with name_scope.name_scope(self.name, caller=self):
            return [
                ops.adopt_variable(
                    v, v.name.split(":")[0].replace("/", "_"), flag and self.trainable
                )
                for v, flag in state
            ]

    def call(self, inputs, training=False):
        if training and self._training_fn:
            return self._training_fn(inputs)
        return self._call_fn(inputs)

    def get_config(self):
        return {
            **super().get_config(),
            "filepath": self.filepath,
            "call_endpoint": self.call_endpoint,
            "call_training_endpoint": self.call_training_endpoint,
        }

    @classmethod
    def from_config(cls, config):
        """Rebuild the layer, outside safe mode only: it loads and runs the SavedModel's graph."""
        if serialization.in_safe_mode():
            raise ValueError(
                f"TFSMLayer '{config.get('name')}': loading it runs the graph of the SavedModel "
                f"at {config.get('filepath')!r}, arbitrary code, which safe mode refuses. If you "
                "trust that SavedModel, load with safe_mode=False (or call "
                "tripod.config.enable_unsafe_deserialization())."
            )
        return cls(**{key: config[key] for key in _ARGUMENTS if key in config})


#: the constructor's arguments, the config keys `from_config` passes on
_ARGUMENTS = ("filepath", "call_endpoint", "call_training_endpoint", "trainable", "name", "dtype")
