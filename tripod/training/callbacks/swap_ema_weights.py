"""`SwapEMAWeights`: evaluate (and optionally checkpoint) with the optimizer's moving averages."""

from tripod.backends import active
from tripod.training.callbacks.callback import Callback


class SwapEMAWeights(Callback):
    """Swap the optimizer's EMA weights into the model for evaluation and prediction.

    With `swap_on_epoch=True` the averages also go in at each epoch's end (so that callbacks after
    this one, e.g. ModelCheckpoint, see them) and back out at the next epoch's start.
    Needs an optimizer created with `use_ema=True`.
    """

    def __init__(self, swap_on_epoch=False):
        super().__init__()
        self.swap_on_epoch = swap_on_epoch
        self._averages_in_model = False

    def _pairs(self):
        optimizer = getattr(self.model, "optimizer", None)
        if optimizer is None or not getattr(optimizer, "use_ema", False):
            raise ValueError(
                "SwapEMAWeights must be used when `use_ema=True` is set on the optimizer. "
                f"Received: use_ema={getattr(optimizer, 'use_ema', None)}"
            )
        if not optimizer.built:
            return []
        return list(zip(optimizer._trainable_variables, optimizer._averages))

    def _swap(self):
        for variable, average in self._pairs():
            weights = active().copy(variable.value)  # a copy: a backend may assign in place
            variable.assign(average.value)
            average.assign(weights)
        self._averages_in_model = not self._averages_in_model

    def _swap_in(self):
        if not self._averages_in_model:
            self._swap()

    def _swap_out(self):
        if self._averages_in_model:
            self._swap()

    def on_train_begin(self, logs=None):
        self._pairs()  # fail early without use_ema
        self._averages_in_model = False

    def on_epoch_begin(self, epoch, logs=None):
        if self.swap_on_epoch:
            self._swap_out()

    def on_epoch_end(self, epoch, logs=None):
        if self.swap_on_epoch:
            self._swap_in()
            if epoch == self.params.get("epochs", 0) - 1:
                self._keep_averages()

    def _keep_averages(self):
        """After the last epoch the averages stay: in the model and in the average slots, so
        fit's closing `finalize_variable_values` keeps them too (as in Keras)."""
        for variable, average in self._pairs():
            average.assign(active().copy(variable.value))
        self._averages_in_model = False

    def on_train_end(self, logs=None):
        if self.swap_on_epoch:
            self._swap_out()

    def on_test_begin(self, logs=None):
        self._swap_in()

    def on_test_end(self, logs=None):
        self._swap_out()

    def on_predict_begin(self, logs=None):
        self._swap_in()

    def on_predict_end(self, logs=None):
        self._swap_out()
