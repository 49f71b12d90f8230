"""`StepBuilding`: the steps `fit`, `evaluate` and `predict` run — `train_step`, `test_step`,
`predict_step` — and where they are made: prepared on the first batch, then compiled once per
mode by the backend (`ops.compile_step`) or laid out by a distribution."""

import functools
import inspect

from tripod.backends import active
from tripod.backends.common import stateless, tree
from tripod.distribution.distributions import distribution
from tripod.layers.layer import structure_changed
from tripod.training import distributed
from tripod.training.data_adapters import unpack_x_y_sample_weight

ops = active()


class StepBuilding:
    """The per-batch steps of the training API, and the compiled step of each mode."""

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
                self.optimizer._choose_plan()
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


def _takes_state(step):
    """Whether a (bound) step method is written as `step(self, state, data)`."""
    required = [
        p
        for p in inspect.signature(step).parameters.values()
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty
    ]
    return len(required) == 2


def _threading_predict_state(predict_step):
    """A `predict_step(state, data) -> (outputs, non_trainable values)` returning the whole
    state it received instead, as every state step does."""

    @functools.wraps(predict_step)
    def step(state, data):
        outputs, non_trainable = predict_step(state, data)
        return outputs, (state[0], non_trainable)

    return step


def _batch_size(y_pred):
    return ops.shape(tree.flatten(y_pred)[0])[0]
