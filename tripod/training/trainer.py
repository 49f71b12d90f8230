"""`Trainer`: compile / fit / evaluate / predict, the same loop on every backend.

The loop is backend-neutral Python; each step (`train_step`, `test_step`, `predict_step`) is
plain layer code that the backend compiles once (`jax.jit` with donated state, `tf.function`,
or a lean eager torch step). Metric values stay on the device until a callback or the progress
bar reads them, and per-batch callback calls are skipped when no callback listens.
"""

import functools
import inspect
import itertools
import warnings

import numpy as np

from tripod.backends import active, config
from tripod.backends.common import stateless, steps, tree
from tripod.backends.common.traceback_utils import filter_traceback
from tripod.distribution import processes
from tripod.distribution.distributions import distribution
from tripod.layers.layer import frozen_structure, structure_changed
from tripod.training import compile_utils, distributed, optimizers
from tripod.training.callbacks.callback_list import CallbackList, to_python
from tripod.training.data_adapters import (
    get_data_adapter,
    train_validation_split,
    unpack_x_y_sample_weight,
)

ops = active()

#: the callbacks of a call given none, with no progress bar and no History: hooks do nothing
_NO_CALLBACKS = CallbackList()


class Trainer:
    """The training API of `Model`: compile, fit, evaluate, predict and the *_on_batch calls."""

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

    # -- compile ---------------------------------------------------------------------------------
    def compile(self, optimizer="rmsprop", loss=None, loss_weights=None, metrics=None,
                weighted_metrics=None, run_eagerly=False, steps_per_execution=1,
                jit_compile="auto", auto_scale_loss=True):  # fmt: skip
        """Configure training: the optimizer, the loss (per output for several outputs), metrics.

        Args:
            optimizer: an `Optimizer`, or the name of one (e.g. "adam"); default "rmsprop".
            loss: a loss name ("mse", "sparse_categorical_crossentropy", ...), a `Loss`, a
                function `fn(y_true, y_pred)`, or a list or dict of them, one per output.
            loss_weights: a list or dict of floats weighting each output's loss in the total.
            metrics: metric names ("accuracy", "mae", ...), `Metric` objects or functions; a
                list, or a list or dict per output.
            weighted_metrics: metrics that also receive `sample_weight` / `class_weight`.
            run_eagerly: bool, run the steps as plain Python, uncompiled (for debugging).
            steps_per_execution: int >= 1, batches run per compiled call; callbacks' batch
                hooks and the progress bar see one update per execution.
            jit_compile: "auto", True or False: whether the step is compiled with XLA
                (`jax.jit`, `tf.function(jit_compile=True)`, `torch.compile` on torch).
            auto_scale_loss: bool, wrap the optimizer in a `LossScaleOptimizer` when the model's
                dtype policy is "mixed_float16".

        Raises:
            ValueError: `steps_per_execution` is not a positive integer.

        Examples:
            >>> model = tripod.Sequential([tripod.Input((3,)), tripod.layers.Dense(1)])
            >>> model.compile(optimizer=tripod.optimizers.Adam(0.01), loss="mse", metrics=["mae"])
            >>> type(model.optimizer).__name__, model.loss
            ('Adam', 'mse')
        """
        self.optimizer = self._loss_scaled(optimizers.get(optimizer), auto_scale_loss)
        self._compile_config = {
            # The optimizer trained with (a LossScaleOptimizer if one was added, so that a saved
            # model reloads with the state it holds), serialized when the config is read.
            "optimizer": self.optimizer,
            "loss": loss if isinstance(loss, (str, type(None), list, dict)) else compile_utils.serialize_loss(loss),
            "loss_weights": loss_weights, "metrics": compile_utils.serializable(metrics),
            "weighted_metrics": compile_utils.serializable(weighted_metrics),
            "run_eagerly": run_eagerly, "steps_per_execution": steps_per_execution,
            "jit_compile": jit_compile,
        }  # fmt: skip
        self.loss = loss
        self._compile_loss = compile_utils.CompileLoss(
            loss, loss_weights, output_names=self._output_names()
        )
        self._compile_metrics = compile_utils.CompileMetrics(
            metrics, weighted_metrics, output_names=self._output_names()
        )
        self._loss_tracker = compile_utils.loss_tracker()
        self.run_eagerly = bool(run_eagerly)
        if not isinstance(steps_per_execution, int) or steps_per_execution < 1:
            raise ValueError(
                f"steps_per_execution must be a positive integer, received {steps_per_execution!r}."
            )
        self.steps_per_execution = steps_per_execution
        self.jit_compile = jit_compile
        # Settled here, outside any step: torch.compile would trace the signature inspection.
        self._loss_takes_training = _takes_training(type(self).compute_loss)
        self._steps = {}
        self._trained_variables = None
        self.compiled = True

    @property
    def jit_compile(self):
        """Whether the steps compile with XLA (or torch.compile): "auto" resolved for the
        backend, as Keras resolves it: True on jax, False on torch and tensorflow (whose steps
        are a `tf.function` without XLA), False when `run_eagerly`."""
        if self.run_eagerly:
            return False
        if self._jit_compile == "auto":
            return config.backend() == "jax"
        return self._jit_compile

    @jit_compile.setter
    def jit_compile(self, value):
        if value != "auto" and not isinstance(value, bool):
            raise ValueError(f"jit_compile must be True, False or 'auto', received {value!r}.")
        self._jit_compile = value

    def _loss_scaled(self, optimizer, auto_scale_loss):
        """`optimizer`, wrapped in a `LossScaleOptimizer` when the model computes in float16
        and `auto_scale_loss` (as Keras does: float16 gradients underflow without scaling)."""
        if (
            auto_scale_loss
            and optimizer is not None
            and self.dtype_policy.name == "mixed_float16"
            and not isinstance(optimizer, optimizers.LossScaleOptimizer)
        ):
            return optimizers.LossScaleOptimizer(optimizer, name="loss_scale_optimizer")
        return optimizer

    def _output_names(self):
        outputs = getattr(self, "_outputs_struct", None)
        if isinstance(outputs, dict):
            return sorted(outputs)
        if outputs is not None:
            return [x._keras_history[0].name for x in tree.flatten(outputs)]
        return None

    def get_compile_config(self):
        """The arguments `compile` received, as a config (saved with the model)."""
        if not self.compiled:
            return None
        optimizer = self._compile_config["optimizer"]
        return {
            **self._compile_config,
            "optimizer": None if optimizer is None else optimizers.serialize(optimizer),
        }

    def compile_from_config(self, config):
        """Compile with the arguments stored by `get_compile_config`."""
        if not config:
            return
        config = dict(config)
        config["optimizer"] = optimizers.get(config.get("optimizer"))
        config["loss"] = compile_utils.deserialize_loss(config.get("loss"))
        # The optimizer stays unbuilt: loading builds it only when the file holds its slots (a
        # model compiled but never trained saves an unbuilt optimizer).
        self.compile(**config)

    #: a model's metrics are its own training's: a parent model leaves them out
    _reports_own_metrics = True
    #: whether `compute_loss` takes `training`, settled by `compile`
    _loss_takes_training = None

    @property
    def metrics(self):
        """The metrics fit reports: the loss tracker, the compiled metrics, then those the model
        and its layers hold as attributes (a layer updating one in `call` reports it)."""
        held = self._attribute_metrics()
        if not self.compiled:
            return held
        return (
            [self._loss_tracker] + self._compile_loss.metrics + self._compile_metrics.metrics + held
        )

    @property
    def metrics_names(self):
        return [m.name for m in self.metrics]

    def reset_metrics(self):
        with frozen_structure():  # resetting edits no container: memoized structure holds
            for m in self.metrics:
                m.reset_state()

    def _require_compiled(self, what):
        if not self.compiled:
            raise RuntimeError(f"You must call compile() before {what}() on model '{self.name}'.")

    # -- the steps -------------------------------------------------------------------------------
    def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None, training=True):
        """The compiled loss of y against y_pred, plus the losses the layers added."""
        total = self._compile_loss(y, y_pred, sample_weight) if self._compile_loss.active else None
        extra = self.losses
        if extra:
            added = extra[0]
            for term in extra[1:]:
                added = ops.add(added, term)
            total = added if total is None else ops.add(total, ops.cast(added, ops.dtype(total)))
        if total is None:
            raise ValueError(
                f"Model '{self.name}' has no loss to train on: pass loss= to compile(), or add "
                "losses with add_loss()."
            )
        return total

    @property
    def metrics_variables(self):
        """The variables of every metric in `metrics`, in order: the metrics part of the state
        Keras's JAX-style steps receive."""
        return [v for m in self.metrics for v in m.variables]

    def _compute_loss(self, x, y, y_pred, sample_weight, training):
        """`compute_loss`, passed `training` only when it takes it: overrides written for
        Keras's older form `compute_loss(x, y, y_pred, sample_weight)` keep working."""
        takes = self._loss_takes_training  # None before compile (stateless_compute_loss)
        if takes or (takes is None and _takes_training(type(self).compute_loss)):
            return self.compute_loss(x, y, y_pred, sample_weight, training=training)
        return self.compute_loss(x, y, y_pred, sample_weight)

    def stateless_compute_loss(self, trainable_variables, non_trainable_variables, metrics_variables,
                               x=None, y=None, y_pred=None, sample_weight=None, training=True):  # fmt: skip
        """`compute_loss` run on the given variable values, leaving the variables untouched:
        returns `(loss, (trainable, non-trainable, metrics values))`, the last two as the loss
        left them (the per-output loss trackers, metrics a custom `compute_loss` updates)."""
        groups = (self.trainable_variables, self.non_trainable_variables, self.metrics_variables)
        given = (trainable_variables, non_trainable_variables, metrics_variables)
        received = [len(values) for values in given]
        if received != [len(variables) for variables in groups]:
            raise ValueError(
                f"Model '{self.name}': stateless_compute_loss expects {len(groups[0])} trainable, "
                f"{len(groups[1])} non-trainable and {len(groups[2])} metrics values; received "
                f"{received[0]}, {received[1]} and {received[2]}."
            )
        mapping = [
            pair for variables, values in zip(groups, given) for pair in zip(variables, values)
        ]
        with stateless.StatelessScope(state_mapping=mapping) as scope:
            loss = self._compute_loss(x, y, y_pred, sample_weight, training)
        non_trainable = [scope.get_current_value(v) for v in groups[1]]
        metrics = [scope.get_current_value(v) for v in groups[2]]
        return loss, (list(trainable_variables), non_trainable, metrics)

    def compute_metrics(self, x, y, y_pred, sample_weight=None):
        """Update the compiled metrics and return every metric's current value."""
        self._compile_metrics.update_state(y, y_pred, sample_weight)
        return self.get_metrics_result()

    def get_metrics_result(self):
        """{name: current value} of every metric (the loss included)."""
        results = {}
        for metric in self.metrics:
            value = metric.result()
            if isinstance(value, dict):
                results.update({k: _log_value(v) for k, v in value.items()})
            else:
                results[compile_utils.unique_name(metric.name, results)] = _log_value(value)
        return results

    def train_step(self, data):
        """One optimization step on a batch: forward, loss, gradients, update, metrics."""
        x, y, sample_weight = unpack_x_y_sample_weight(data)

        def forward():
            # Gradients of the scaled loss (the optimizer unscales them); metrics get the loss.
            y_pred = self(x, training=True)
            loss = self._compute_loss(x, y, y_pred, sample_weight, True)
            return self.optimizer.scale_loss(loss), (loss, y_pred)

        # The variables as of compile time, looked up once (as in Keras, changing `trainable`
        # after compile needs a new compile).
        variables = self._trained_variables or self.trainable_variables
        (_, (loss, y_pred)), grads = ops.value_and_grad(forward, variables, has_aux=True)()
        self.optimizer.apply(grads, variables)
        self._loss_tracker.update_state(loss, sample_weight=_batch_size(y_pred))
        return self.compute_metrics(x, y, y_pred, sample_weight)

    def test_step(self, data):
        """Loss and metrics on a batch, without training."""
        x, y, sample_weight = unpack_x_y_sample_weight(data)
        y_pred = self(x, training=False)
        loss = self._compute_loss(x, y, y_pred, sample_weight, False)
        self._loss_tracker.update_state(loss, sample_weight=_batch_size(y_pred))
        return self.compute_metrics(x, y, y_pred, sample_weight)

    def predict_step(self, data):
        """The model's outputs on a batch."""
        x, _, _ = unpack_x_y_sample_weight(data)
        return self(x, training=False)

    def _state_groups(self, mode):
        """The variables a `mode` step works on, in groups as Keras's JAX steps take their state:
        trainable, non-trainable, then optimizer (train) and metrics (train, test) variables."""
        groups = [list(self.trainable_variables), list(self.non_trainable_variables)]
        if mode == "train":
            groups.append(list(self.optimizer.variables))
        if mode != "predict":
            groups.append([v for m in self.metrics for v in m.variables])
        return groups

    def _state_variables(self, mode):
        return [v for group in self._state_groups(mode) for v in group]

    def _step(self, mode):
        """The compiled step for `mode` (train, test or predict), made on first use."""
        dist = distribution()
        if dist is not self._steps_distribution:  # steps are made for one distribution
            self._sync()
            self._steps, self._steps_distribution = {}, dist
        step = self._steps.get(mode)
        if step is None:
            fn = {"train": self.train_step, "test": self.test_step, "predict": self.predict_step}[
                mode
            ]
            jit = self.jit_compile
            state_form = _takes_state(fn)  # Keras's JAX form, step(state, data) -> (outputs, state)
            if state_form and mode == "predict":
                fn = _threading_predict_state(fn)
            if dist is not None:
                step = distributed.make_step(
                    self, dist, fn, mode, jit, self.run_eagerly, state_form
                )
            elif state_form:
                step = ops.compile_state_step(
                    fn, self._state_groups(mode), mode, jit, self.run_eagerly
                )
            else:
                step = ops.compile_step(
                    fn, self._state_variables(mode), mode, jit, self.run_eagerly
                )
            self._steps[mode] = step
        return step

    def _sync(self):
        """Write state held by compiled steps back into the variables."""
        for step in self._steps.values():
            step.sync()

    def _prepare(self, batch, mode):
        """Build the model, its optimizer and metrics on the first batch, eagerly; whether it
        built anything."""
        x, y, _ = unpack_x_y_sample_weight(batch)
        builds = not self.built
        if not self.built:
            if (
                all(layer.built for layer in self._flatten_layers(include_self=False))
                and self._layers
            ):
                self.built = True  # a custom model whose parts are built: nothing to trace
            else:
                self._maybe_build((x,), {})
        if mode != "predict" and not self._compile_metrics.built:
            builds = True
            wanted = self._compile_loss.active or self._compile_metrics.wanted
            y_pred = self._output_example(x) if wanted else None
            self._compile_loss.build(y, y_pred)
            self._compile_metrics.build(y, y_pred, self._compile_loss)
        if mode == "train":
            self._trained_variables = list(self.trainable_variables)
            if self.optimizer is not None and not self.optimizer.built:
                builds = True
                self.optimizer.build(self._trained_variables)
                self.optimizer._fuse_now()
        return builds

    def _output_example(self, x):
        """Outputs for `x` to build the compiled loss and metrics with: specs where the graph is
        known, else one call whose state updates (metrics, statistics) are discarded."""
        if hasattr(self, "_outputs_struct"):
            return self.compute_output_spec(x)
        with stateless.StatelessScope():
            return self(x)

    def _prepared_step(self, batch, mode):
        """The step for `mode`, after preparing the model on its first batch."""
        # Building may fill containers in place: memoized structure must be read anew. Only
        # then: a new version would make torch.compile trace the other modes' steps again.
        if self._prepare(batch, mode):
            structure_changed()
        return self._step(mode)

    # -- fit / evaluate / predict ----------------------------------------------------------------
    @filter_traceback
    def fit(self, x=None, y=None, batch_size=None, epochs=1, verbose="auto", callbacks=None,
            validation_split=0.0, validation_data=None, shuffle=True, class_weight=None,
            sample_weight=None, initial_epoch=0, steps_per_epoch=None, validation_steps=None,
            validation_batch_size=None, validation_freq=1):  # fmt: skip
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
        if self._initial_epoch is not None:  # BackupAndRestore resumes an interrupted fit
            initial_epoch = self._initial_epoch
        logs = {}
        for epoch in range(initial_epoch, epochs):
            self.reset_metrics()
            data.on_epoch_begin()
            callbacks.on_epoch_begin(epoch)
            epoch_logs = self._run_epoch(
                data, "train", callbacks, step, allow_empty=step is not None
            )
            if epoch_logs is None:
                warnings.warn(
                    f"fit: the data ran out after {epoch} epochs; pass steps_per_epoch (or data "
                    "that restarts each epoch) to train for more.", stacklevel=2,
                )  # fmt: skip
                break
            logs = epoch_logs
            step = self._steps["train"]
            data.on_epoch_end()
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

    def _run_epoch(self, data, mode, callbacks, step=None, allow_empty=False):
        """Run the steps of one pass over `data`; the last step's logs (device values), or None
        when `allow_empty` and the data yielded nothing."""
        listen = callbacks.needs_batch_hooks(mode)
        begin = getattr(callbacks, f"on_{mode}_batch_begin")
        end = getattr(callbacks, f"on_{mode}_batch_end")
        logs = None
        # As in Keras, one execution runs `steps_per_execution` batches (fused into one call
        # where the step can), and batch hooks run once per execution: begin at its first
        # batch, end at its last (a short last chunk ends too).
        chunks = steps.executions(data.get_iterator(), self.steps_per_execution)
        last = -1
        with frozen_structure():
            if step is None:  # prepared on the first batch
                first = next(chunks, None)
                if first is not None:
                    step = self._prepared_step(first[0], mode)
                    chunks = itertools.chain([first], chunks)
            for chunk in steps.ahead(chunks, step):
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
    def evaluate(self, x=None, y=None, batch_size=None, verbose="auto", sample_weight=None, steps=None,
                 callbacks=None, return_dict=False, **kwargs):  # fmt: skip
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
        logs = to_python(self._run_epoch(data, "test", callbacks))
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
        params = {"verbose": verbose, "epochs": params.get("epochs", 1), "steps": params.get("steps"),
                  "train_steps": params.get("steps")}  # fmt: skip
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


def _log_value(value):
    """A metric result as a log value: a result that is the metric's own Variable becomes a
    tensor snapshot (a compiled step can only return arrays, and logs must not change as the
    state does); any other result, the common case, is returned as it is."""
    return ops.copy(value) if isinstance(value, ops.Variable) else value


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


@functools.cache
def _takes_training(compute_loss):
    """Whether a `compute_loss` function accepts a `training` argument."""
    parameters = inspect.signature(compute_loss).parameters.values()
    return any(p.name == "training" or p.kind == p.VAR_KEYWORD for p in parameters)


def _takes_state(step):
    """Whether a (bound) step method is written as `step(self, state, data)`."""
    required = [
        p for p in inspect.signature(step).parameters.values()
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty
    ]  # fmt: skip
    return len(required) == 2


def _threading_predict_state(predict_step):
    """A `predict_step(state, data) -> (outputs, non_trainable values)` returning the whole
    state it received instead, as every state step does."""

    @functools.wraps(predict_step)
    def step(state, data):
        outputs, non_trainable = predict_step(state, data)
        return outputs, (state[0], non_trainable)

    return step


def _first_dim(x):
    return tree.flatten(x)[0].shape[0]


def _batch_size(y_pred):
    return ops.shape(tree.flatten(y_pred)[0])[0]


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


def _capped_adapter(x, y=None, sample_weight=None, batch_size=None, steps=None, shuffle=False,
                    class_weight=None):  # fmt: skip
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
