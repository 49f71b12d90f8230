"""`TerminateOnNaN`: stop training as soon as the loss is NaN or infinite."""

import math

from tripod.training.callbacks.callback import Callback


class TerminateOnNaN(Callback):
    """Stop fit (or, with `raise_error`, raise RuntimeError) when a batch's loss is NaN or Inf."""

    def __init__(self, raise_error: bool = False):
        super().__init__()
        self.raise_error = raise_error

    def on_train_batch_end(self, batch, logs=None):
        loss = (logs or {}).get("loss")
        if loss is None or math.isfinite(float(loss)):
            return
        if self.raise_error:
            raise RuntimeError(
                f"NaN or Inf loss encountered at batch {batch}. Loss value: {loss}. "
                "Terminating training immediately."
            )
        print(f"Batch {batch}: Invalid loss, terminating training")
        self.model.stop_training = True
