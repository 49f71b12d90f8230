"""`History`: records every epoch's logs; `fit` returns it."""

from tripod.training.callbacks.callback import Callback


class History(Callback):
    """Collects `history[metric] = [value per epoch]` during fit.

    `fit` adds one to every run and returns it: `history.history` maps each log name ("loss",
    metrics, "val_..." ones) to its list of values, one per epoch, and `history.epoch` lists the
    epochs run.

    Examples:
        >>> model = tripod.Sequential([tripod.Input((2,)), tripod.layers.Dense(1)])
        >>> model.compile(optimizer="sgd", loss="mse", metrics=["mae"])
        >>> history = model.fit(np.ones((4, 2)), np.ones((4, 1)), epochs=3, verbose=0)
        >>> sorted(history.history), len(history.history["loss"])
        (['loss', 'mae'], 3)
    """

    def __init__(self):
        super().__init__()
        self.history = {}
        self.epoch = []

    def on_train_begin(self, logs=None):
        self.epoch = []

    def on_epoch_end(self, epoch, logs=None):
        self.epoch.append(epoch)
        for key, value in (logs or {}).items():
            self.history.setdefault(key, []).append(value)
        if self.model is not None:
            self.model.history = self
