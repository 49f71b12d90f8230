"""The `Metric` base: state in non-trainable Variables, updated by traceable ops.

A metric accumulates over batches with `update_state`, reports with `result` and starts over with
`reset_state`. Its state lives only in Variables created by `add_variable` (in `__init__`, or in
`build` when a size depends on the data), so the same code runs eagerly, under `tf.function`, and
inside a pure `jax.jit` step where a `StatelessScope` stands in for the variables. The
`stateless_*` methods run the metric as such a pure function of explicit variable values.
"""

import numpy as np

from tripod.backends import active, config
from tripod.backends.common.stateless import StatelessScope
from tripod.layers import dtype_policies, initializers, naming
from tripod.layers.layer import TrackedMetric

ops = active()


class Metric(TrackedMetric):
    """Base class of metrics: subclasses implement `update_state` and `result`.

    A metric whose state shape depends on the data (F1Score's number of classes, ...) creates
    its variables in `build(y_true_shape, y_pred_shape)`; `update_state` builds it on first use,
    and a compiled step should build it beforehand (variables cannot appear inside a trace).

    A metric accumulates over batches: `update_state(...)` adds a batch, `result()` reads the
    value so far, `reset_state()` starts again (`fit` resets every epoch). Its state lives in
    variables made with `add_variable`, so a compiled step updates it on the device.

    Args:
        dtype: the dtype of the state and the result; default floatx.
        name: str, the metric's name in logs; default a unique one from the class name.

    Examples:
        >>> class CountPositives(tripod.metrics.Metric):
        ...     def __init__(self, name="positives"):
        ...         super().__init__(name=name)
        ...         self.count = self.add_variable((), "zeros", name="count")
        ...     def update_state(self, y_true, y_pred, sample_weight=None):
        ...         positive = tripod.ops.cast(tripod.ops.greater(y_pred, 0.5), self.dtype)
        ...         self.count.assign_add(tripod.ops.sum(positive))
        ...     def result(self):
        ...         return self.count
        >>> metric = CountPositives()
        >>> metric.update_state(None, np.array([0.9, 0.1, 0.7]))
        >>> float(metric.result())
        2.0
        >>> metric.reset_state()
        >>> float(metric.result())
        0.0
    """

    def __init__(self, dtype=None, name=None):
        self.name = name or naming.unique_name(naming.to_snake_case(type(self).__name__))
        self._dtype_policy = dtype_policies.get(dtype or config.floatx())
        self._variables = []
        self._initializers = []
        self._initial_values = []
        self.built = True

    # -- state ---------------------------------------------------------------------------------
    def add_variable(self, shape, initializer, dtype=None, aggregation="sum", name=None):
        """A new non-trainable state Variable of this metric, reset to `initializer`'s values."""
        initializer = initializers.get(initializer)
        variable = ops.Variable(
            initializer,
            shape=tuple(shape),
            dtype=dtype or self.dtype,
            trainable=False,
            aggregation=aggregation,
            name=name,
        )
        self._variables.append(variable)
        self._initializers.append(initializer)
        return variable

    def add_weight(self, shape=(), initializer=None, dtype=None, name=None):
        """`add_variable` with Keras 2's argument order; zeros unless told."""
        return self.add_variable(shape, initializer or "zeros", dtype=dtype, name=name)

    @property
    def variables(self):
        """Every state Variable, in creation order."""
        return list(self._variables)

    def build(self, y_true_shape, y_pred_shape):
        """Create state whose shape depends on the data; nothing for most metrics."""
        self.built = True

    def _ensure_built(self, y_true, y_pred):
        if not self.built:
            self.build(tuple(y_true.shape), tuple(y_pred.shape))

    def reset_state(self):
        """Give every state variable its initial value again (drawn once, on the host, then
        reused: fit resets its metrics every epoch)."""
        if len(self._initial_values) != len(self._variables):
            self._initial_values = [
                np.asarray(initializer(variable.shape, dtype=variable.dtype))
                for variable, initializer in zip(self._variables, self._initializers)
            ]
        for variable, value in zip(self._variables, self._initial_values):
            variable.assign(value)  # every backend's variable copies what it is assigned

    # -- the interface subclasses implement ----------------------------------------------------
    def update_state(self, *args, **kwargs):
        """Accumulate statistics from one batch."""
        raise NotImplementedError(f"{type(self).__name__} must implement update_state().")

    def result(self):
        """The metric's value from the state accumulated so far."""
        raise NotImplementedError(f"{type(self).__name__} must implement result().")

    def __call__(self, *args, **kwargs):
        """Update with one batch and return the result."""
        self.update_state(*args, **kwargs)
        return self.result()

    # -- the pure-function forms ---------------------------------------------------------------
    def _check_values(self, metric_variables):
        if len(metric_variables) != len(self._variables):
            raise ValueError(
                f"{self.name}: expected {len(self._variables)} metric variable values "
                f"({[v.name for v in self._variables]}), received {len(metric_variables)}."
            )

    def stateless_update_state(self, metric_variables, *args, **kwargs):
        """The state values after `update_state(*args, **kwargs)`, starting from `metric_variables`."""
        self._check_values(metric_variables)
        with StatelessScope(state_mapping=zip(self._variables, metric_variables)) as scope:
            self.update_state(*args, **kwargs)
        return [scope.get_current_value(v) for v in self._variables]

    def stateless_result(self, metric_variables):
        """The result for the given state values, touching no variable."""
        self._check_values(metric_variables)
        with StatelessScope(state_mapping=zip(self._variables, metric_variables)):
            return self.result()

    def stateless_reset_state(self):
        """The initial state values, touching no variable."""
        with StatelessScope() as scope:
            self.reset_state()
        return [scope.get_current_value(v) for v in self._variables]

    # -- configuration -------------------------------------------------------------------------
    @property
    def dtype(self):
        """The dtype the metric accumulates and reports in."""
        return self._dtype_policy.compute_dtype

    @property
    def name(self):
        return self._name

    @name.setter
    def name(self, value):
        if not isinstance(value, str):
            raise TypeError(f"Metric: the name must be a string, received {value!r}.")
        self._name = value

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}>"

    __str__ = __repr__
