"""`CallbackList`: runs a list of callbacks together, and skips per-batch work nobody needs."""

import numpy as np

from tripod.backends import active
from tripod.backends.common import fast_paths, tree
from tripod.training.callbacks.callback import Callback, overrides_batch_hooks
from tripod.training.callbacks.history import History
from tripod.training.callbacks.progbar_logger import ProgbarLogger


def to_python(logs):
    """Logs as callbacks receive them, as in Keras: a new dict sorted by key, nested dicts
    flattened, tensor values turned into Python numbers (one host transfer per value)."""
    result = {}
    for key, value in sorted((logs or {}).items()):
        if isinstance(value, dict):
            result.update(to_python(value))
        else:
            result[key] = _scalar(value)
    return result


def _scalar(value):
    if isinstance(value, (int, float, str)) or value is None:
        return value
    if getattr(value, "ndim", None) == 0 and hasattr(value, "item"):
        return value.item()  # a 0-d tensor (torch, jax): one read, no NumPy round trip
    array = np.asarray(active().convert_to_numpy(value))
    return array.item() if array.size == 1 else array


class CallbackList(Callback):
    """A container calling each callback's hooks in order; adds History and the progress bar."""

    def __init__(self, callbacks=None, add_history=False, add_progbar=False, model=None, **params):
        super().__init__()
        self.callbacks = list(tree.flatten(callbacks)) if callbacks else []
        # Both go last, as in Keras: the bar and History see what earlier callbacks add to the
        # logs (such as ReduceLROnPlateau's `learning_rate`).
        if add_history and not any(isinstance(c, History) for c in self.callbacks):
            self.callbacks.append(History())
        if add_progbar and not any(isinstance(c, ProgbarLogger) for c in self.callbacks):
            self.callbacks.append(ProgbarLogger())
        self._batch_callbacks = {}
        if model is not None:
            self.set_model(model)
        if params:
            self.set_params(params)

    def append(self, callback):
        self.callbacks.append(callback)
        self._batch_callbacks = {}

    def set_params(self, params):
        super().set_params(params)
        for c in self.callbacks:
            c.set_params(params)

    def set_model(self, model):
        super().set_model(model)
        for c in self.callbacks:
            c.set_model(model)

    @property
    def history(self):
        return next((c for c in self.callbacks if isinstance(c, History)), None)

    def needs_batch_hooks(self, mode):
        """Whether any callback does work per batch in `mode`; if not, fit skips the calls
        (with the fast paths off, every callback counts: `fast_paths.SHORTCUTS`)."""
        if mode not in self._batch_callbacks:
            skips = fast_paths.enabled()
            self._batch_callbacks[mode] = [
                c for c in self.callbacks if not skips or overrides_batch_hooks(c, mode)
            ]
        return bool(self._batch_callbacks[mode])

    def _call(self, hook, *args):
        for c in self.callbacks:
            getattr(c, hook)(*args)

    def _call_batch(self, mode, hook, batch, logs):
        if not self.needs_batch_hooks(mode):
            return
        logs = {} if logs is None else logs
        python_logs = None
        for c in self._batch_callbacks[mode]:
            if getattr(c, "raw_logs", False) or mode == "predict":
                c_logs = logs
            else:
                # Converting tensors waits for the device: done only for callbacks that read them.
                python_logs = to_python(logs) if python_logs is None else python_logs
                c_logs = python_logs
            getattr(c, hook)(batch, c_logs)

    def on_train_begin(self, logs=None):
        self._call("on_train_begin", to_python(logs))

    def on_train_end(self, logs=None):
        self._call("on_train_end", to_python(logs))

    def on_epoch_begin(self, epoch, logs=None):
        self._call("on_epoch_begin", epoch, to_python(logs))

    def on_epoch_end(self, epoch, logs=None):
        self._call("on_epoch_end", epoch, to_python(logs))

    def on_test_begin(self, logs=None):
        self._call("on_test_begin", to_python(logs))

    def on_test_end(self, logs=None):
        self._call("on_test_end", to_python(logs))

    def on_predict_begin(self, logs=None):
        self._call("on_predict_begin", to_python(logs))

    def on_predict_end(self, logs=None):
        self._call("on_predict_end", to_python(logs))

    def on_train_batch_begin(self, batch, logs=None):
        self._call_batch("train", "on_train_batch_begin", batch, logs)

    def on_train_batch_end(self, batch, logs=None):
        self._call_batch("train", "on_train_batch_end", batch, logs)

    def on_test_batch_begin(self, batch, logs=None):
        self._call_batch("test", "on_test_batch_begin", batch, logs)

    def on_test_batch_end(self, batch, logs=None):
        self._call_batch("test", "on_test_batch_end", batch, logs)

    def on_predict_batch_begin(self, batch, logs=None):
        self._call_batch("predict", "on_predict_batch_begin", batch, logs)

    def on_predict_batch_end(self, batch, logs=None):
        self._call_batch("predict", "on_predict_batch_end", batch, logs)
