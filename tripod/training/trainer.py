"""`Trainer`: compile / fit / evaluate / predict, the same loop on every backend.

`Trainer` joins three parts: `Compiling` (compile, losses, metrics; `compiling.py`),
`StepBuilding` (the steps and their compilation; `step_building.py`) and, here, the loops.
The loop is backend-neutral Python; each step (`train_step`, `test_step`, `predict_step`) is
plain layer code that the backend compiles once (`jax.jit` with donated state, `tf.function`,
or a lean eager torch step). Metric values stay on the device until a callback or the progress
bar reads them, and per-batch callback calls are skipped when no callback listens.
"""

import itertools
import warnings

import numpy as np

from tripod.backends import active, config
from tripod.backends.common import steps, tree
from tripod.backends.common.traceback_utils import filter_traceback
from tripod.distribution import processes
from tripod.layers.layer import frozen_structure
from tripod.training import distributed
from tripod.training.callbacks.callback_list import CallbackList, to_python
from tripod.training.compiling import Compiling
from tripod.training.data_adapters import (
    get_data_adapter,
    train_validation_split,
    unpack_x_y_sample_weight,
)
from tripod.training.feed import Feed
from tripod.training.step_building import StepBuilding

ops = active()

#: the callbacks of a call given none, with no progress bar and no History: hooks do nothing
_NO_CALLBACKS = CallbackList()


class Trainer(Compiling, StepBuilding):
    """The training API of `Model`: compile (`Compiling`), the steps (`StepBuilding`), and here
    the loops: fit, evaluate, predict and the *_on_batch calls."""

    def _init_trainer(self):
        self.compiled = False
        self.optimizer = None
        self.loss = None
        self.stop_training = False
        self.history = None
        self._steps = {}
        self._steps_distribution = None  # the distribution `_steps` were made for
        self._trained_variables = None
        self._compile_config = None
        self.run_eagerly = False
        self._jit_compile = "auto"
        self.steps_per_execution = 1

    # -- fit / evaluate / predict ----------------------------------------------------------------
    @filter_traceback
    def fit(
        self,
        x=None,
        y=None,
        batch_size=None,
        epochs=1,
        verbose="auto",
        callbacks=None,
        validation_split=0.0,
        validation_data=None,
        shuffle=True,
        class_weight=None,
        sample_weight=None,
        initial_epoch=0,
        steps_per_epoch=None,
        validation_steps=None,
        validation_batch_size=None,
        validation_freq=1,
    ):
        """Train the model for `epochs` passes over the data.

        Args:
            x: the inputs: a NumPy array or backend tensor, a list or dict of them (several
                inputs), or a dataset yielding `(x, y)` or `(x, y, sample_weight)` batches (a
                `tf.data.Dataset`, a torch `DataLoader`, a `tripod.utils.PyDataset` or a Python
                generator).
            y: the targets, like `x`; None when `x` is a dataset.
            batch_size: int, samples per step (default 32); not for datasets, which batch.
            epochs: int, the epoch to stop at (counting from `initial_epoch`).
            verbose: "auto", 0 (silent), 1 (progress bar) or 2 (one line per epoch).
            callbacks: a list of `tripod.callbacks.Callback`.
            validation_split: float in [0, 1), the fraction of the last samples of `x` and `y`
                held out for validation (arrays only).
            validation_data: `(x_val, y_val)`, `(x_val, y_val, sample_weight_val)` or a dataset,
                evaluated at the end of each epoch (logged with a `val_` prefix).
            shuffle: bool, shuffle array data before each epoch.
            class_weight: dict from class index to a weight multiplying that class's loss.
            sample_weight: array of per-sample weights for the loss.
            initial_epoch: int, the epoch to start at (to resume a run).
            steps_per_epoch: int, batches per epoch (default: one pass over the data).
            validation_steps: int, validation batches per evaluation (default: all).
            validation_batch_size: int, batch size of the validation data (default
                `batch_size`).
            validation_freq: int, validate every that many epochs.

        Returns:
            A `History` callback: `history.history` maps each metric name to its value per epoch.

        Raises:
            RuntimeError: the model was not compiled.
            NotImplementedError: the backend is numpy, which is inference-only.

        Examples:
            >>> model = tripod.Sequential([tripod.Input((3,)), tripod.layers.Dense(1)])
            >>> model.compile(optimizer="sgd", loss="mse")
            >>> x, y = np.ones((8, 3)), np.zeros((8, 1))
            >>> history = model.fit(x, y, batch_size=4, epochs=2, validation_split=0.25, verbose=0)
            >>> sorted(history.history), history.epoch
            (['loss', 'val_loss'], [0, 1])
        """
        self._require_compiled("fit")
        if validation_split and validation_data is None:
            (x, y, sample_weight), validation_data = train_validation_split(
                (x, y, sample_weight), validation_split
            )
        data = _capped_adapter(
            x, y, sample_weight, batch_size, steps_per_epoch, shuffle, class_weight
        )
        epochs = _capped_epochs(epochs)
        val_data = None
        if validation_data is not None:
            vx, vy, vsw = unpack_x_y_sample_weight(validation_data)
            val_data = _capped_adapter(
                vx, vy, vsw, validation_batch_size or batch_size, validation_steps
            )
        verbose = _verbosity(verbose)
        callbacks = self._callbacks(callbacks, verbose, epochs=epochs, steps=data.num_batches)
        self.stop_training = False
        step = None
        self._initial_epoch = None
        callbacks.on_train_begin()
        feed = Feed(data, self.steps_per_execution, early=True)
        if self._initial_epoch is not None:  # BackupAndRestore resumes an interrupted fit
            initial_epoch = self._initial_epoch
        logs = {}
        for epoch in range(initial_epoch, epochs):
            self.reset_metrics()
            feed.begin_epoch()
            callbacks.on_epoch_begin(epoch)
            epoch_logs = self._run_epoch(
                feed,
                "train",
                callbacks,
                step,
                allow_empty=step is not None,
                more=epoch + 1 < epochs,
            )
            if epoch_logs is None:
                warnings.warn(
                    f"fit: the data ran out after {epoch} epochs; pass steps_per_epoch (or data "
                    "that restarts each epoch) to train for more.",
                    stacklevel=2,
                )
                break
            logs = epoch_logs
            step = self._steps["train"]
            feed.end_epoch()
            # No sync here: a step holding state writes it back when a variable is read.
            epoch_logs = to_python(logs)
            if val_data is not None and _validate_now(epoch, validation_freq):
                val_logs = self.evaluate(
                    val_data, callbacks=callbacks, return_dict=True, _in_fit=True
                )
                epoch_logs.update({f"val_{k}": v for k, v in val_logs.items()})
            callbacks.on_epoch_end(epoch, epoch_logs)
            logs = epoch_logs
            if self.stop_training:
                break
        self._sync()
        if self.optimizer is not None and self._trained_variables:
            # With use_ema the model ends training holding the moving averages, as in Keras.
            self.optimizer.finalize_variable_values(self._trained_variables)
        callbacks.on_train_end(logs)
        return callbacks.history

    def _run_epoch(self, feed, mode, callbacks, step=None, allow_empty=False, more=False):
        """Run the steps of one pass over the data (a `Feed`); the last step's logs (device
        values), or None when `allow_empty` and the data yielded nothing. `more`: another epoch
        follows, whose first execution the feed may stage while this one's last runs."""
        listen = callbacks.needs_batch_hooks(mode)
        begin = getattr(callbacks, f"on_{mode}_batch_begin")
        end = getattr(callbacks, f"on_{mode}_batch_end")
        logs = None
        # As in Keras, one execution runs `steps_per_execution` batches (fused into one call
        # where the step can), and batch hooks run once per execution: begin at its first
        # batch, end at its last (a short last chunk ends too).
        chunks = feed.chunks()
        last = -1
        with frozen_structure():
            if step is None:  # prepared on the first batch
                first = next(chunks, None)
                if first is not None:
                    step = self._prepared_step(first[0], mode)
                    chunks = itertools.chain([first], chunks)
            for chunk in feed.staged(chunks, step, more):
                if listen:
                    begin(last + 1)
                logs = _as_logs(steps.run_execution(step, chunk))
                last += len(chunk)
                if listen:
                    end(last, logs)
                if self.stop_training and mode == "train":
                    break
        if logs is None and not allow_empty:
            raise ValueError("The data yielded no batch: there is nothing to train or evaluate on.")
        return logs

    @filter_traceback
    def evaluate(
        self,
        x=None,
        y=None,
        batch_size=None,
        verbose="auto",
        sample_weight=None,
        steps=None,
        callbacks=None,
        return_dict=False,
        **kwargs,
    ):
        """Compute the loss and metrics over the data, without training.

        Args:
            x: the inputs, as `fit` takes them (arrays, a list or dict of arrays, a dataset).
            y: the targets; None when `x` is a dataset.
            batch_size: int, samples per step (default 32).
            verbose: "auto", 0 (silent) or 1 (progress bar).
            sample_weight: array of per-sample weights for the loss and weighted metrics.
            steps: int, batches to evaluate (default: all).
            callbacks: a list of `tripod.callbacks.Callback`.
            return_dict: bool, return a dict of metric name to value instead of a list.

        Returns:
            The loss alone (a float) when the model has no metrics; otherwise a list of floats
            in `model.metrics_names` order, or a dict when `return_dict`.

        Raises:
            RuntimeError: the model was not compiled.

        Examples:
            >>> ones = tripod.layers.Dense(1, use_bias=False, kernel_initializer="ones")
            >>> model = tripod.Sequential([tripod.Input((2,)), ones])
            >>> model.compile(loss="mse", metrics=["mae"])
            >>> model.evaluate(np.ones((4, 2)), np.ones((4, 1)), verbose=0, return_dict=True)
            {'loss': 1.0, 'mae': 1.0}
        """
        self._require_compiled("evaluate")
        in_fit = kwargs.pop("_in_fit", False)
        if kwargs:
            raise TypeError(f"evaluate: unexpected arguments {sorted(kwargs)}.")
        if hasattr(x, "get_iterator"):  # an adapter already (fit's validation data)
            data = x
        else:
            data = _capped_adapter(x, y, sample_weight, batch_size, steps)
        if not in_fit:
            callbacks = self._callbacks(callbacks, _verbosity(verbose), steps=data.num_batches)
        self.reset_metrics()
        callbacks.set_params({**callbacks.params, "in_fit": in_fit, "steps": data.num_batches})
        callbacks.on_test_begin()
        logs = to_python(self._run_epoch(Feed(data, self.steps_per_execution), "test", callbacks))
        self._steps["test"].sync()
        callbacks.on_test_end(logs)
        if in_fit:
            callbacks.set_params(
                {**callbacks.params, "in_fit": False, "steps": callbacks.params.get("train_steps")}
            )
        return logs if return_dict else self._as_list(logs)

    @filter_traceback
    def predict(self, x, batch_size=None, verbose="auto", steps=None, callbacks=None):
        """Compute the model's outputs on `x`, batch by batch, as NumPy arrays.

        Args:
            x: the inputs: an array, a list or dict of arrays, or a dataset (whose targets, if
                any, are ignored).
            batch_size: int, samples per step (default 32).
            verbose: "auto", 0 (silent) or 1 (progress bar).
            steps: int, batches to predict (default: all).
            callbacks: a list of `tripod.callbacks.Callback`.

        Returns:
            The outputs of every batch concatenated along the first axis: one NumPy array, or a
            list or dict of them for a model of several outputs.

        Raises:
            ValueError: the data yields no batch.

        Examples:
            >>> model = tripod.Sequential([tripod.Input((3,)), tripod.layers.Dense(2)])
            >>> model.predict(np.ones((10, 3)), batch_size=4, verbose=0).shape
            (10, 2)
        """
        data = _capped_adapter(x, None, None, batch_size, steps)
        # No History: predict has no epochs to record (Keras adds one only in fit).
        callbacks = self._callbacks(
            callbacks, _verbosity(verbose), add_history=False, steps=data.num_batches
        )
        callbacks.on_predict_begin()
        outputs = []
        listen = callbacks.needs_batch_hooks("predict")
        step = None
        with frozen_structure():
            for index, batch in enumerate(data.get_iterator()):
                if step is None:
                    step = self._prepared_step(batch, "predict")
                if listen:
                    callbacks.on_predict_batch_begin(index)
                batch_out = step(batch)
                outputs.append(batch_out)
                if listen:
                    callbacks.on_predict_batch_end(index, {"outputs": batch_out})
        callbacks.on_predict_end()
        if not outputs:
            raise ValueError("predict received no data.")
        return _joined_outputs(outputs)

    def _as_list(self, logs):
        """The logs' values in `metrics_names` order (then any other keys, sorted), as Keras
        returns them; one value alone is returned as itself."""
        names = [name for name in self.metrics_names if name in logs]
        values = [logs[name] for name in names + sorted(set(logs) - set(names))]
        return values[0] if len(values) == 1 else values

    def _callbacks(self, callbacks, verbose, add_history=True, **params):
        if isinstance(callbacks, CallbackList):
            return callbacks
        if not (callbacks or add_history or verbose):
            return _NO_CALLBACKS  # nothing would listen: no list to build and fill per call
        params = {
            "verbose": verbose,
            "epochs": params.get("epochs", 1),
            "steps": params.get("steps"),
            "train_steps": params.get("steps"),
        }
        progbar = verbose != 0 and processes.is_chief()  # one progress bar for a distributed run
        return CallbackList(
            callbacks, add_history=add_history, add_progbar=progbar, model=self, **params
        )

    # -- single batches --------------------------------------------------------------------------
    def train_on_batch(self, x, y=None, sample_weight=None, class_weight=None, return_dict=False):
        """Run one training step (one gradient update) on one batch.

        Args:
            x: the batch's inputs (an array, a list or dict of arrays).
            y: the batch's targets.
            sample_weight: array of per-sample weights for the loss.
            class_weight: dict from class index to a weight multiplying that class's loss.
            return_dict: bool, return a dict of metric name to value instead of a list.

        Returns:
            The loss and metrics after the step, as `evaluate` returns them.

        Raises:
            RuntimeError: the model was not compiled.
            NotImplementedError: the backend is numpy, which is inference-only.

        Examples:
            >>> model = tripod.Sequential([tripod.Input((2,)), tripod.layers.Dense(1)])
            >>> model.compile(optimizer="sgd", loss="mse")
            >>> logs = model.train_on_batch(np.ones((4, 2)), np.zeros((4, 1)), return_dict=True)
            >>> list(logs)
            ['loss']
        """
        self._require_compiled("train_on_batch")
        data = get_data_adapter(
            x, y, sample_weight, batch_size=_first_dim(x), class_weight=class_weight
        )
        batch = next(data.get_iterator())
        self._prepare(batch, "train")
        logs = to_python(self._step("train")(batch))
        self._sync()
        return logs if return_dict else self._as_list(logs)

    def test_on_batch(self, x, y=None, sample_weight=None, return_dict=False):
        """Loss and metrics on one batch."""
        self._require_compiled("test_on_batch")
        self.reset_metrics()
        data = get_data_adapter(x, y, sample_weight, batch_size=_first_dim(x))
        batch = next(data.get_iterator())
        self._prepare(batch, "test")
        logs = to_python(self._step("test")(batch))
        self._sync()
        return logs if return_dict else self._as_list(logs)

    def predict_on_batch(self, x):
        """The outputs on one batch, as NumPy arrays."""
        data = get_data_adapter(x, batch_size=_first_dim(x))
        batch = next(data.get_iterator())
        self._prepare(batch, "predict")
        return tree.map_structure(_owned_numpy, self._step("predict")(batch))


def _as_logs(logs):
    """A step's logs as a dict: a custom step returning one value (its loss) logs it as
    "loss"."""
    return logs if isinstance(logs, dict) or logs is None else {"loss": logs}


def _owned_numpy(tensor):
    """`tensor` as a NumPy array the caller owns: a copy, never a view of a backend buffer."""
    return np.array(ops.convert_to_numpy(tensor))


def _joined_outputs(outputs):
    """predict's result: each output's batches joined into one NumPy array, nested as the step
    returned them (one batch, the usual case for small inputs, is copied instead of joined)."""
    if len(outputs) == 1:
        return tree.map_structure(_owned_numpy, outputs[0])
    flat = [tree.flatten(o) for o in outputs]
    joined = [
        np.concatenate([ops.convert_to_numpy(b[i]) for b in flat]) for i in range(len(flat[0]))
    ]
    return tree.pack_sequence_as(outputs[0], joined)


def _first_dim(x):
    return tree.flatten(x)[0].shape[0]


def _verbosity(verbose):
    return 1 if verbose == "auto" else int(verbose)


def _validate_now(epoch, validation_freq):
    if isinstance(validation_freq, int):
        return (epoch + 1) % validation_freq == 0
    return epoch + 1 in validation_freq


def _capped_epochs(epochs):
    """`epochs`, at most `tripod.config.max_epochs()` (a debugging cap, as in Keras)."""
    limit = config.max_epochs()
    if limit and limit < epochs:
        warnings.warn(f"Limiting epochs to {limit} (tripod.config.max_epochs).", stacklevel=4)
        return limit
    return epochs


def _capped_adapter(
    x, y=None, sample_weight=None, batch_size=None, steps=None, shuffle=False, class_weight=None
):
    """The data adapter of fit/evaluate/predict, serving at most
    `tripod.config.max_steps_per_epoch()` batches per epoch (a debugging cap, as in Keras)."""
    data = get_data_adapter(x, y, sample_weight, batch_size, steps, shuffle, class_weight)
    limit = config.max_steps_per_epoch()
    if limit and (data.num_batches is None or data.num_batches > limit):
        warnings.warn(
            f"Limiting steps_per_epoch to {limit} (tripod.config.max_steps_per_epoch).",
            stacklevel=4,
        )
        data = get_data_adapter(x, y, sample_weight, batch_size, limit, shuffle, class_weight)
    return distributed.agree_on_shuffles(data, shuffle)
