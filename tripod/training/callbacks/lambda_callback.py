"""`LambdaCallback`: a callback made of plain functions, one per hook."""

from tripod.training.callbacks.callback import Callback

_HOOKS = frozenset(
    name for name in vars(Callback) if name.startswith("on_") and callable(getattr(Callback, name))
)


class LambdaCallback(Callback):
    """Calls the given functions at their hooks: `on_epoch_end=lambda epoch, logs: ...` etc.

    Epoch and batch hooks receive `(epoch or batch, logs)`; the others `(logs)`.
    """

    def __init__(
        self,
        on_epoch_begin=None,
        on_epoch_end=None,
        on_train_begin=None,
        on_train_end=None,
        on_train_batch_begin=None,
        on_train_batch_end=None,
        **kwargs,
    ):
        super().__init__()
        unknown = set(kwargs) - _HOOKS
        if unknown:
            raise ValueError(
                f"LambdaCallback: unknown hooks {sorted(unknown)}; the hooks are {sorted(_HOOKS)}."
            )
        hooks = dict(
            kwargs,
            on_epoch_begin=on_epoch_begin,
            on_epoch_end=on_epoch_end,
            on_train_begin=on_train_begin,
            on_train_end=on_train_end,
            on_train_batch_begin=on_train_batch_begin,
            on_train_batch_end=on_train_batch_end,
        )
        for name, function in hooks.items():
            if function is not None:
                setattr(self, name, function)
