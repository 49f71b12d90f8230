"""`TensorBoard`: write fit's metrics (and weight histograms) as TensorBoard event files.

Files go to `log_dir/train` and `log_dir/validation`, tagged as Keras does: `epoch_<metric>` per
epoch (validation metrics without their `val_` prefix), `batch_<metric>` per `update_freq`
batches, `evaluation_<metric>_vs_iterations` after each validation, and `<weight path>/histogram`.
"""

import os
import time

import numpy as np

from tripod.backends import active
from tripod.distribution import processes
from tripod.training.callbacks.callback import Callback
from tripod.training.callbacks.learning_rate import get_learning_rate
from tripod.training.callbacks.tensorboard_events import EventFileWriter, NullWriter


def _check_unsupported(write_images, profile_batch, embeddings_freq):
    """Features that need a framework's own tooling: refused clearly rather than ignored."""
    if write_images:
        raise NotImplementedError(
            "TensorBoard(write_images=True) is not supported by tripod: only scalars and histograms are written."
        )
    if profile_batch not in (0, None, (0, 0)):
        raise NotImplementedError(
            "TensorBoard(profile_batch=...) is not supported by tripod: profile with the framework's own profiler."
        )
    if embeddings_freq:
        raise NotImplementedError("TensorBoard(embeddings_freq=...) is not supported by tripod.")


class TensorBoard(Callback):
    """Log metrics per epoch (and per `update_freq` batches) for TensorBoard."""

    def __init__(
        self,
        log_dir="logs",
        histogram_freq=0,
        write_graph=True,
        write_images=False,
        write_steps_per_second=False,
        update_freq="epoch",
        profile_batch=0,
        embeddings_freq=0,
        embeddings_metadata=None,
    ):
        super().__init__()
        _check_unsupported(write_images, profile_batch, embeddings_freq)
        if (
            update_freq != "epoch"
            and update_freq != "batch"
            and not (isinstance(update_freq, int) and update_freq > 0)
        ):
            raise ValueError(
                f"update_freq must be 'epoch', 'batch' or a positive integer; received {update_freq!r}."
            )
        self.log_dir = os.fspath(log_dir)
        self.histogram_freq = histogram_freq
        self.write_graph = (
            write_graph  # there is no framework graph to write: accepted for compatibility
        )
        self.write_images = write_images
        self.write_steps_per_second = write_steps_per_second
        self.update_freq = 1 if update_freq == "batch" else update_freq
        self.profile_batch = profile_batch
        self.embeddings_freq = embeddings_freq
        self.embeddings_metadata = embeddings_metadata
        self.wants_batch_hooks = {"train"} if self.update_freq != "epoch" else False
        self._writers = {}
        self._train_step = 0
        self._epoch_start = None
        self._epoch_iterations = 0

    def _writer(self, kind):
        """The event writer for `train` or `validation`, created on first use."""
        if kind not in self._writers:
            # In a distributed run process 0 writes the events; the others compute them alike.
            chief = processes.is_chief()
            self._writers[kind] = (
                EventFileWriter(os.path.join(self.log_dir, kind)) if chief else NullWriter()
            )
        return self._writers[kind]

    def _iterations(self):
        optimizer = getattr(self.model, "optimizer", None)
        if optimizer is None or not getattr(optimizer, "built", True):
            return 0
        return int(np.asarray(active().convert_to_numpy(optimizer.iterations)))

    def on_train_begin(self, logs=None):
        self._train_step = self._iterations()

    def on_epoch_begin(self, epoch, logs=None):
        self._epoch_start = time.time()
        self._epoch_iterations = self._iterations()

    def on_train_batch_end(self, batch, logs=None):
        self._train_step += 1
        if self.update_freq != "epoch" and self._train_step % self.update_freq == 0:
            values = {f"batch_{k}": v for k, v in _numbers(logs).items()}
            self._writer("train").scalars(self._train_step, values)

    def on_test_end(self, logs=None):
        if self.params.get("in_fit"):
            step = self._iterations()
            values = {f"evaluation_{k}_vs_iterations": v for k, v in _numbers(logs).items()}
            self._writer("validation").scalars(step, values)

    def on_epoch_end(self, epoch, logs=None):
        numbers = _numbers(logs)
        train = {f"epoch_{k}": v for k, v in numbers.items() if not k.startswith("val_")}
        validation = {f"epoch_{k[4:]}": v for k, v in numbers.items() if k.startswith("val_")}
        if "learning_rate" not in numbers and getattr(self.model, "optimizer", None) is not None:
            train["epoch_learning_rate"] = get_learning_rate(self.model, "TensorBoard")
        if self.write_steps_per_second and self._epoch_start is not None:
            steps = self._iterations() - self._epoch_iterations
            train["epoch_steps_per_second"] = steps / max(time.time() - self._epoch_start, 1e-9)
        self._writer("train").scalars(epoch, train)
        if validation:
            self._writer("validation").scalars(epoch, validation)
        if self.histogram_freq and (epoch + 1) % self.histogram_freq == 0:
            self._write_histograms(epoch)
        for writer in self._writers.values():
            writer.flush()

    def _write_histograms(self, epoch):
        ops = active()
        values = {
            f"{getattr(v, 'path', v.name)}/histogram": np.asarray(ops.convert_to_numpy(v.value))
            for v in self.model.weights
        }
        self._writer("train").histograms(epoch, values)

    def on_train_end(self, logs=None):
        for writer in self._writers.values():
            writer.close()
        self._writers = {}


def _numbers(logs):
    """The scalar entries of `logs` as floats (arrays and strings are not scalars to plot)."""
    numbers = {}
    for key, value in (logs or {}).items():
        array = np.asarray(value) if not isinstance(value, str) else None
        if array is not None and array.size == 1 and array.dtype.kind in "biuf":
            numbers[key] = float(array.reshape(-1)[0])
    return numbers
