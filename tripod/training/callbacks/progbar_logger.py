"""`ProgbarLogger`: prints fit/evaluate/predict progress (verbose=1: a bar, 2: a line per epoch)."""

from tripod.training.callbacks.callback import Callback
from tripod.training.progbar import Progbar


def _batch_items(logs):
    """A batch's (name, value) pairs, sorted by name as Keras shows them: batch logs arrive
    raw (tensors, step order), unlike epoch logs, which arrive sorted."""
    return sorted((logs or {}).items())


class ProgbarLogger(Callback):
    """Shows a progress bar per epoch; added by fit when `verbose` is not 0."""

    #: takes the step's tensors as they are: the bar reads them only when it redraws
    raw_logs = True

    def __init__(self):
        super().__init__()
        self.verbose = 1
        self.epochs = 1
        self._bar = None
        self._seen = 0

    def set_params(self, params):
        super().set_params(params)
        self.verbose = params.get("verbose", 1)
        self.epochs = params.get("epochs", 1)

    def _start(self, target):
        self._seen = 0
        self._bar = Progbar(target=target, verbose=self.verbose, unit_name="step")

    def on_epoch_begin(self, epoch, logs=None):
        if self.verbose and self.epochs > 1:
            print(f"Epoch {epoch + 1}/{self.epochs}", flush=True)
        self._start(self.params.get("steps"))

    def on_train_batch_end(self, batch, logs=None):
        self._seen = batch + 1
        if self.verbose == 1:
            self._bar.update(self._seen, _batch_items(logs), finalize=False)

    def on_epoch_end(self, epoch, logs=None):
        if self._bar is not None:
            self._bar.update(
                max(self._seen, self.params.get("steps") or self._seen),
                list((logs or {}).items()),
                finalize=True,
            )

    def on_test_begin(self, logs=None):
        if not self.params.get("in_fit"):
            self._start(self.params.get("steps"))

    def on_test_batch_end(self, batch, logs=None):
        self._seen = batch + 1
        if self.verbose == 1 and not self.params.get("in_fit"):
            self._bar.update(self._seen, _batch_items(logs), finalize=False)

    def on_test_end(self, logs=None):
        if not self.params.get("in_fit") and self._bar is not None:
            self._bar.update(max(self._seen, 1), list((logs or {}).items()), finalize=True)

    def on_predict_begin(self, logs=None):
        self._start(self.params.get("steps"))

    def on_predict_batch_end(self, batch, logs=None):
        self._seen = batch + 1
        if self.verbose == 1:
            self._bar.update(self._seen, finalize=False)

    def on_predict_end(self, logs=None):
        if self._bar is not None:
            self._bar.update(max(self._seen, 1), finalize=True)
