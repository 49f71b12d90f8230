"""`Callback`: hooks called by fit / evaluate / predict at the start and end of each phase."""

from tripod.saving import registry


class Callback:
    """Base class: override any `on_*` hook; `self.model` and `self.params` are set by fit."""

    def __init__(self):
        self.params = {}
        self._model = None

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if cls.__module__.startswith("tripod.") and not cls.__name__.startswith("_"):
            registry.register_builtin(cls, "keras.callbacks")

    def set_params(self, params):
        self.params = params

    def set_model(self, model):
        self._model = model

    @property
    def model(self):
        return self._model

    def on_epoch_begin(self, epoch, logs=None):
        """Called at the start of an epoch of fit."""

    def on_epoch_end(self, epoch, logs=None):
        """Called at the end of an epoch of fit, with its training and validation logs."""

    def on_train_begin(self, logs=None):
        """Called when fit starts."""

    def on_train_end(self, logs=None):
        """Called when fit ends."""

    def on_test_begin(self, logs=None):
        """Called when evaluate (or fit's validation) starts."""

    def on_test_end(self, logs=None):
        """Called when evaluate (or fit's validation) ends."""

    def on_predict_begin(self, logs=None):
        """Called when predict starts."""

    def on_predict_end(self, logs=None):
        """Called when predict ends."""

    def on_train_batch_begin(self, batch, logs=None):
        """Called before a training batch; by default calls the older `on_batch_begin`."""
        self.on_batch_begin(batch, logs=logs)

    def on_train_batch_end(self, batch, logs=None):
        """Called after a training batch, with the running metric values; by default calls the
        older `on_batch_end`."""
        self.on_batch_end(batch, logs=logs)

    def on_test_batch_begin(self, batch, logs=None):
        """Called before an evaluation batch."""

    def on_test_batch_end(self, batch, logs=None):
        """Called after an evaluation batch."""

    def on_predict_batch_begin(self, batch, logs=None):
        """Called before a prediction batch."""

    def on_predict_batch_end(self, batch, logs=None):
        """Called after a prediction batch, with its outputs in `logs["outputs"]`."""

    # Keras 2-era names, kept because callbacks still use them.
    def on_batch_begin(self, batch, logs=None):
        """Called before a training batch by the default `on_train_batch_begin`."""

    def on_batch_end(self, batch, logs=None):
        """Called after a training batch by the default `on_train_batch_end`."""


_BATCH_HOOKS = {
    "train": ("on_train_batch_begin", "on_train_batch_end", "on_batch_begin", "on_batch_end"),
    "test": ("on_test_batch_begin", "on_test_batch_end"),
    "predict": ("on_predict_batch_begin", "on_predict_batch_end"),
}


def overrides_batch_hooks(callback, mode):
    """Whether `callback` does anything per batch in `mode` (train, test or predict).

    A callback may say so itself with `wants_batch_hooks`: a bool, or the modes it wants.
    Otherwise: whether it overrides a batch hook, in its class or on the instance.
    """
    wanted = getattr(callback, "wants_batch_hooks", None)
    if isinstance(wanted, (set, frozenset, tuple, list)):
        return mode in wanted
    if wanted is not None:
        return bool(wanted)
    hooks = _BATCH_HOOKS[mode]
    if any(hook in getattr(callback, "__dict__", {}) for hook in hooks):
        return True
    cls = type(callback)
    return any(getattr(cls, hook) is not getattr(Callback, hook) for hook in hooks)
