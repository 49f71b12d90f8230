"""`EarlyStopping`: stop fit once a monitored metric has stopped improving."""

from tripod.training.callbacks.callback import Callback
from tripod.training.callbacks.monitor import Monitor


class EarlyStopping(Callback):
    """Stop training when `monitor` has not improved for `patience` epochs.

    At the end of each epoch the callback reads `logs[monitor]`; after `patience` epochs
    without an improvement larger than `min_delta` it sets `model.stop_training`, and `fit`
    returns after that epoch.

    Args:
        monitor: str, the log to watch (default "val_loss"; "loss" needs no validation data).
        min_delta: float, the least change that counts as an improvement.
        patience: int, epochs without improvement before stopping (default 0).
        verbose: int, 1 prints a line when training stops.
        mode: "min", "max" or "auto" (decided from the metric's name: accuracies and AUC
            are maximized, losses and errors minimized); an unknown mode warns and means "auto".
        baseline: float, a value to reach: training stops if it is not beaten within
            `patience` epochs.
        restore_best_weights: bool, put back the weights of the best epoch when training
            stops (default False: the last epoch's weights stay).
        start_from_epoch: int, epochs to train before watching (a warm-up).

    Raises:
        ValueError: `mode="auto"` cannot tell whether `monitor` should go up or down.

    Examples:
        >>> model = tripod.Sequential([tripod.Input((2,)), tripod.layers.Dense(1)])
        >>> model.compile(optimizer=tripod.optimizers.SGD(learning_rate=0.0), loss="mse")
        >>> stop = tripod.callbacks.EarlyStopping(monitor="loss", patience=1)
        >>> history = model.fit(np.ones((4, 2)), np.ones((4, 1)), epochs=10, callbacks=[stop],
        ...                     verbose=0)
        >>> history.epoch  # the loss never improves after epoch 0
        [0, 1]
    """

    def __init__(
        self,
        monitor="val_loss",
        min_delta=0,
        patience=0,
        verbose=0,
        mode="auto",
        baseline=None,
        restore_best_weights=False,
        start_from_epoch=0,
    ):
        super().__init__()
        self.monitor = monitor
        self.patience = patience
        self.verbose = verbose
        self.baseline = baseline
        self.restore_best_weights = restore_best_weights
        self.start_from_epoch = start_from_epoch
        self._monitor = Monitor("EarlyStopping", monitor, mode, min_delta)
        self.mode = self._monitor.mode
        self.min_delta = self._monitor.min_delta
        self._reset()

    def _reset(self):
        self.wait = 0
        self.stopped_epoch = 0
        self.best = None
        self.best_weights = None
        self.best_epoch = 0

    def on_train_begin(self, logs=None):
        self._reset()
        self._monitor.resolve(self.model)
        self.best = self._monitor.worst()

    def on_epoch_end(self, epoch, logs=None):
        if epoch < self.start_from_epoch:
            return
        current = self._monitor.value(logs)
        if current is None:
            return
        if self.restore_best_weights and self.best_weights is None:
            self.best_weights = (
                self.model.get_weights()
            )  # so a first epoch that never improves still restores
        self.wait += 1
        if self._monitor.improved(current, self.best):
            self.best = current
            self.best_epoch = epoch
            if self.restore_best_weights:
                self.best_weights = self.model.get_weights()
            if self.baseline is None or self._monitor.improved(current, self.baseline):
                self.wait = 0
                return
        if self.wait >= self.patience and epoch > 0:
            self.stopped_epoch = epoch
            self.model.stop_training = True

    def on_train_end(self, logs=None):
        if self.stopped_epoch > 0 and self.verbose > 0:
            print(f"Epoch {self.stopped_epoch + 1}: early stopping")
        if self.restore_best_weights and self.best_weights is not None:
            if self.verbose > 0:
                print(
                    f"Restoring model weights from the end of the best epoch: {self.best_epoch + 1}."
                )
            self.model.set_weights(self.best_weights)

    def get_monitor_value(self, logs):
        """The monitored value in `logs` (None, with a warning, when missing)."""
        return self._monitor.value(logs)
