"""`Compiling`: the compile half of the training API — the optimizer, the losses, the metrics
and the compile config a model saves — shared by every backend."""

import functools
import inspect

from tripod.backends import active, config
from tripod.backends.common import stateless, tree
from tripod.layers.layer import frozen_structure
from tripod.training import compile_utils, optimizers

ops = active()


class Compiling:
    """`compile`, the loss and metrics a step computes, and the config that recompiles them."""

    def compile(
        self,
        optimizer="rmsprop",
        loss=None,
        loss_weights=None,
        metrics=None,
        weighted_metrics=None,
        run_eagerly=False,
        steps_per_execution=1,
        jit_compile="auto",
        auto_scale_loss=True,
    ):
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
            "loss": loss
            if isinstance(loss, (str, type(None), list, dict))
            else compile_utils.serialize_loss(loss),
            "loss_weights": loss_weights,
            "metrics": compile_utils.serializable(metrics),
            "weighted_metrics": compile_utils.serializable(weighted_metrics),
            "run_eagerly": run_eagerly,
            "steps_per_execution": steps_per_execution,
            "jit_compile": jit_compile,
        }
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

    def stateless_compute_loss(
        self,
        trainable_variables,
        non_trainable_variables,
        metrics_variables,
        x=None,
        y=None,
        y_pred=None,
        sample_weight=None,
        training=True,
    ):
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


@functools.cache
def _takes_training(compute_loss):
    """Whether a `compute_loss` function accepts a `training` argument."""
    parameters = inspect.signature(compute_loss).parameters.values()
    return any(p.name == "training" or p.kind == p.VAR_KEYWORD for p in parameters)


def _log_value(value):
    """A metric result as a log value: a result that is the metric's own Variable becomes a
    tensor snapshot (a compiled step can only return arrays, and logs must not change as the
    state does); any other result, the common case, is returned as it is."""
    return ops.copy(value) if isinstance(value, ops.Variable) else value
