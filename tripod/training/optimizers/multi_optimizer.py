"""MultiOptimizer and OptimizerMap: a different optimizer for each group of variables."""

import re
from collections.abc import MutableMapping

from tripod.backends import active
from tripod.saving import serialization
from tripod.training.optimizers.base import Optimizer
from tripod.training.optimizers.loss_scale_optimizer import LossScaleOptimizer

ops = active()


def _check_inner(optimizer, where):
    """ValueError unless `optimizer` can serve a group of variables inside a MultiOptimizer."""
    # ValueError, not TypeError: Keras raises ValueError here, and ported code catches it
    if not isinstance(optimizer, Optimizer):
        raise ValueError(f"{where}: expected an Optimizer instance. Received: {optimizer!r}")  # noqa: TRY004
    if isinstance(optimizer, (LossScaleOptimizer, MultiOptimizer)):
        raise ValueError(  # noqa: TRY004
            f"{where}: a {type(optimizer).__name__} cannot serve a group of variables inside a "
            "MultiOptimizer; wrap the MultiOptimizer instead, or pass a plain optimizer."
        )


class OptimizerMap(MutableMapping):
    """Variable paths (exact, or regular expressions matching the whole path) mapped to
    optimizers; a variable no key matches gets `default_optimizer`."""

    def __init__(self, default_optimizer, optimizer_map=None):
        if not isinstance(default_optimizer, Optimizer):
            raise TypeError(
                f"OptimizerMap: `default_optimizer` must be an Optimizer instance. Received: {default_optimizer!r}"
            )
        if optimizer_map is not None and not isinstance(optimizer_map, dict):
            raise TypeError(
                f"OptimizerMap: `optimizer_map` must be a dict of path patterns to optimizers. Received: {optimizer_map!r}"
            )
        self._default_optimizer = default_optimizer
        self._optimizer_map = {}
        for key, optimizer in (optimizer_map or {}).items():
            self[key] = optimizer

    @property
    def default_optimizer(self):
        """The optimizer of the variables no key matches."""
        return self._default_optimizer

    def __getitem__(self, key):
        """The optimizer for path `key`: an exact key first, else the one pattern that fully
        matches it (several is an error), else the default."""
        if key in self._optimizer_map:
            return self._optimizer_map[key]
        matches = [pattern for pattern in self._optimizer_map if re.fullmatch(pattern, key)]
        if len(matches) > 1:
            raise ValueError(
                f"OptimizerMap: the path {key!r} matches several patterns {matches}; make them exclusive."
            )
        return self._optimizer_map[matches[0]] if matches else self._default_optimizer

    def __setitem__(self, key, optimizer):
        if not isinstance(key, str):
            # ValueError, not TypeError: Keras raises ValueError here, and ported code catches it
            raise ValueError(f"OptimizerMap: keys must be strings. Received: {key!r}")  # noqa: TRY004
        if key in self._optimizer_map:
            raise ValueError(
                f"OptimizerMap: {key!r} already maps to {self._optimizer_map[key]!r}; keys must be unique."
            )
        _check_inner(optimizer, f"OptimizerMap[{key!r}]")
        self._optimizer_map[key] = optimizer

    def __delitem__(self, key):
        del self._optimizer_map[key]

    def __len__(self):
        return len(self._optimizer_map)

    def __iter__(self):
        return iter(self._optimizer_map)

    def __call__(self, variable):
        """The optimizer for `variable`, by its path."""
        return self[variable.path]

    def get_config(self):
        return {
            "default_optimizer": serialization.serialize_keras_object(self._default_optimizer),
            "optimizer_map": serialization.serialize_keras_object(self._optimizer_map),
        }

    @classmethod
    def from_config(cls, config, custom_objects=None):
        return cls(
            serialization.deserialize_keras_object(config["default_optimizer"], custom_objects),
            serialization.deserialize_keras_object(config["optimizer_map"], custom_objects),
        )


class MultiOptimizer(Optimizer):
    """Updates each variable with the optimizer `optimizer_map` gives it: an `OptimizerMap`,
    or a function from a variable to an optimizer. Its `loss_scale_factor` replaces those of
    the inner optimizers; it has no learning rate of its own (set it on `optimizers`)."""

    def __init__(self, optimizer_map, loss_scale_factor=None, name=None):
        if not callable(optimizer_map):
            raise TypeError(
                "MultiOptimizer: `optimizer_map` must be an OptimizerMap or a function from a "
                f"variable to an optimizer. Received: {optimizer_map!r}"
            )
        self._inner_optimizers = []
        super().__init__(learning_rate=0.0, loss_scale_factor=loss_scale_factor, name=name)
        self._optimizer_map = optimizer_map
        if isinstance(optimizer_map, OptimizerMap):
            for optimizer in [*optimizer_map.values(), optimizer_map.default_optimizer]:
                self._index_of(optimizer)

    @property
    def optimizers(self):
        """The inner optimizers, in the order their variables are saved."""
        return list(self._inner_optimizers)

    @property
    def loss_scale_factor(self):
        """The factor the loss is scaled by; setting it sets every inner optimizer's too."""
        return self._loss_scale_factor

    @loss_scale_factor.setter
    def loss_scale_factor(self, value):
        self._loss_scale_factor = value
        for optimizer in self._inner_optimizers:
            optimizer.loss_scale_factor = value

    @property
    def learning_rate(self):
        """Not defined: each inner optimizer has its own."""
        raise AttributeError(
            f"MultiOptimizer {self.name!r} has no learning rate of its own: read it on the inner "
            "optimizers (`.optimizers`)."
        )

    @learning_rate.setter
    def learning_rate(self, value):
        raise AttributeError(
            f"MultiOptimizer {self.name!r} has no learning rate of its own: set it on the inner "
            "optimizers (`.optimizers`)."
        )

    @property
    def variables(self):
        """Its own variables (iteration, learning_rate), then each inner optimizer's."""
        own = list(self._variables)
        return own + [v for optimizer in self._inner_optimizers for v in optimizer.variables]

    def _index_of(self, optimizer):
        """The position of `optimizer` among the inner optimizers, adding it (and giving it
        this optimizer's `loss_scale_factor`) when new."""
        for i, inner in enumerate(self._inner_optimizers):
            if inner is optimizer:
                return i
        _check_inner(optimizer, f"MultiOptimizer {self.name!r}")
        optimizer.loss_scale_factor = self._loss_scale_factor
        self._inner_optimizers.append(optimizer)
        return len(self._inner_optimizers) - 1

    def build(self, variables):
        """Give each variable its optimizer and build every inner optimizer on its group."""
        if self.built:
            return
        variables = list(variables)
        self._owners = [self._index_of(self._optimizer_map(v)) for v in variables]
        super().build(variables)
        for optimizer, group in zip(self._inner_optimizers, self._split(variables, variables)):
            if group:
                optimizer.build(group)

    def _split(self, items, variables):
        """`items` (one per variable of `variables`) grouped by their variable's optimizer."""
        owners = [self._owners[self._get_variable_index(v)] for v in variables]
        count = len(self._inner_optimizers)
        return [[item for item, o in zip(items, owners) if o == i] for i in range(count)]

    def apply(self, grads, trainable_variables=None):
        """Pass each variable's gradient to its optimizer; variables whose gradient is None
        are skipped (with a warning; all None is an error)."""
        grads = list(grads)
        if not grads:
            return
        grads, variables = self._pairs(grads, trainable_variables)
        groups = self._split(list(zip(grads, variables)), variables)
        for optimizer, pairs in zip(self._inner_optimizers, groups):
            if pairs:
                optimizer.apply([g for g, _ in pairs], [v for _, v in pairs])
        with ops.no_grad():
            self._iterations.assign_add(1)

    def finalize_variable_values(self, var_list):
        """Let each inner optimizer finalize its own variables (EMA)."""
        var_list = list(var_list)
        for optimizer, group in zip(self._inner_optimizers, self._split(var_list, var_list)):
            if group:
                optimizer.finalize_variable_values(group)

    def get_config(self):
        return {
            "optimizer_map": serialization.serialize_keras_object(self._optimizer_map),
            "loss_scale_factor": self._loss_scale_factor,
            "name": self.name,
        }

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        config["optimizer_map"] = serialization.deserialize_keras_object(
            config["optimizer_map"], custom_objects
        )
        return cls(**config)
