"""`CSVLogger`: write each epoch's logs as a row of a CSV file."""

import csv
import os

import numpy as np

from tripod.distribution import processes
from tripod.training.callbacks.callback import Callback


def _cell(value):
    """A log value as CSV text: numbers as Python numbers, arrays as a bracketed list."""
    if isinstance(value, str):
        return value
    array = np.asarray(value)
    if array.ndim == 0:
        return array.item()
    return "[" + ", ".join(str(v) for v in array.ravel().tolist()) + "]"


class CSVLogger(Callback):
    """Stream epoch results (`epoch` then the logs, keys sorted) to `filename`."""

    def __init__(self, filename, separator=",", append=False):
        super().__init__()
        self.filename = os.fspath(filename)
        self.sep = separator
        self.append = append
        self.keys = None
        self._file = None
        self._writer = None
        self._header_written = False

    def on_train_begin(self, logs=None):
        has_rows = (
            self.append and os.path.exists(self.filename) and os.path.getsize(self.filename) > 0
        )
        self._header_written = has_rows
        # In a distributed run process 0 writes the file, the others write nowhere.
        target = self.filename if processes.is_chief() else os.devnull
        self._file = open(target, "a" if self.append else "w", newline="")  # noqa: SIM115 - closed in on_train_end
        self._writer = None
        self.keys = None

    def on_epoch_end(self, epoch, logs=None):
        logs = logs or {}
        if self.keys is None:
            self.keys = sorted(logs)
        if self._writer is None:
            self._writer = csv.DictWriter(
                self._file, fieldnames=["epoch"] + self.keys, delimiter=self.sep
            )
            if not self._header_written:
                self._writer.writeheader()
                self._header_written = True
        row = {"epoch": epoch}
        row.update(
            (k, _cell(logs.get(k, "NA"))) for k in self.keys
        )  # NA: e.g. no validation this epoch
        self._writer.writerow(row)
        self._file.flush()

    def on_train_end(self, logs=None):
        if self._file is not None:
            self._file.close()
            self._file = None
        self._writer = None
