"""`WeightTracking`: the part of `Layer` that tracks sub-layers and variables and owns weights.

A layer finds its sub-layers, variables, seed generators and metrics by scanning its attributes
(lists, tuples and dicts included), in assignment order. Inside `frozen_structure()` (the fit /
evaluate / predict loops) it memoizes that scan until the structure changes. Here too: the weight
lists (`trainable_weights`, `weights`, ...), `add_weight`, `get_weights`/`set_weights` and the
saving hooks that read and write a layer's own variables.
"""

import functools

from tripod.backends import active, dtypes
from tripod.backends.common import fast_paths, name_scope, tree
from tripod.backends.common.seed import SeedGenerator
from tripod.backends.common.variables import Variable
from tripod.layers import constraints, initializers, regularizers

ops = active()


class _Structure:
    """Whether layer structure may be memoized now, and a version that any change to it bumps.

    Inside `frozen_structure()` (the fit / evaluate / predict loops) a layer memoizes its tracked
    attribute values instead of scanning `__dict__` on every `losses` or weights lookup. Setting
    an attribute to a layer, variable or container, changing `trainable` or adding a weight bumps
    the version, which drops every memo.
    """

    version = 0
    frozen = 0
    untracked = 0  # inside `no_automatic_dependency_tracking`: attributes set are not tracked


_structure = _Structure()
# with layers, Variable, SeedGenerator: what `WeightTracking.__setattr__` counts as structure
_TRACKABLE = (list, tuple, dict)


class frozen_structure:  # lowercase: used like a function, `with frozen_structure():`
    """A block in which layers may memoize their structure (no in-place container edits),
    unless the fast paths are off (`fast_paths.SHORTCUTS`). A class, not a generator: it is
    entered once per fit epoch or predict call."""

    def __enter__(self):
        self._freezes = fast_paths.enabled()
        _structure.frozen += self._freezes
        return self

    def __exit__(self, *exc):
        _structure.frozen -= self._freezes
        return False


def no_automatic_dependency_tracking(fn):
    """`fn`, with every layer attribute it sets left untracked (not scanned for sub-layers,
    variables or metrics, not saved), as Keras's decorator of that name; keras-rs uses it."""

    @functools.wraps(fn)
    def untracked(*args, **kwargs):
        _structure.untracked += 1
        try:
            return fn(*args, **kwargs)
        finally:
            _structure.untracked -= 1

    return untracked


def structure_changed():
    """Drop every memoized structure (after building, which may edit containers in place)."""
    _structure.version += 1


class TrackedMetric:
    """Base of `tripod.metrics.Metric`: a layer lists the metrics it holds as attributes in
    `Layer.metrics`, so a metric a layer updates in `call` reaches fit's logs, as in Keras."""


class WeightTracking:
    """Sub-layer and variable tracking, the weight lists and weight creation of a `Layer`
    (which sets `_own_variables`, `_trainable`, `built`, `name` and `_state_locked`)."""

    # -- tracking --------------------------------------------------------------------------------
    _UNTRACKED = frozenset(
        {
            "_inbound_nodes",
            "_outbound_nodes",
            "_init_arguments",
            "_input_shape_arg",
            "_structure_memo",
            "_loss_sources_memo",
            "_metrics_memo",
        }
    )

    def __setattr__(self, name, value):
        if _structure.untracked and name not in self._UNTRACKED:  # this instance's alone
            object.__setattr__(self, "_UNTRACKED", self._UNTRACKED | {name})
        tracked = name not in self._UNTRACKED  # bookkeeping lists change no structure
        if name == "trainable" or (
            tracked
            and isinstance(
                value, (WeightTracking, Variable, SeedGenerator, TrackedMetric) + _TRACKABLE
            )
        ):
            _structure.version += 1
        object.__setattr__(self, name, value)

    def _memoized(self, key, compute):
        """`compute()`, kept in `__dict__[key]` inside `frozen_structure()` until the structure
        changes (`key` must be in `_UNTRACKED`)."""
        if not _structure.frozen:
            return compute()
        memo = self.__dict__.get(key)
        if memo is None or memo[0] != _structure.version:
            memo = (_structure.version, compute())
            self.__dict__[key] = memo
        return memo[1]

    def _tracked_values(self):
        """Attribute values that may hold sub-layers, variables or seed generators, in order
        (memoized inside `frozen_structure()`)."""
        if not _structure.frozen:
            return self._scan_tracked_values()
        return self._memoized("_structure_memo", lambda: tuple(self._scan_tracked_values()))

    def _scan_tracked_values(self):
        for key, value in self.__dict__.items():
            if key not in self._UNTRACKED:
                if isinstance(value, (WeightTracking, Variable, SeedGenerator)):
                    yield value
                elif isinstance(value, (list, tuple, dict)):
                    yield from (
                        v
                        for v in tree.flatten(value)
                        if isinstance(v, (WeightTracking, Variable, SeedGenerator))
                    )

    @property
    def _layers(self):
        """The direct sub-layers, in the order they were assigned."""
        seen, layers = set(), []
        for value in self._tracked_values():
            if isinstance(value, WeightTracking) and id(value) not in seen and value is not self:
                seen.add(id(value))
                layers.append(value)
        return layers

    def _own_weights(self):
        """This layer's own variables (not its sub-layers'), in Keras 3's order, which its files
        number them by: those made trainable, then the others, each in creation order."""
        seen = {id(v) for v in self._own_variables}
        extra = [
            v
            for v in self._tracked_values()
            if isinstance(v, Variable) and id(v) not in seen and not seen.add(id(v))
        ]
        own = self._own_variables + extra
        return sorted(own, key=lambda v: not getattr(v, "_made_trainable", v.trainable))

    @property
    def metrics(self):
        """The metrics this layer and its sub-layers hold as attributes (a sub-model's own are
        left out: they report in that model's training)."""
        return self._attribute_metrics()

    def _attribute_metrics(self):
        """`metrics` as a method: subclasses extending the property call this, as torch.compile
        cannot trace `super().metrics` in a property (it breaks the compiled step's graph)."""
        return list(self._memoized("_metrics_memo", self._held_metrics))

    def _held_metrics(self):
        held = [
            m
            for key, value in self.__dict__.items()
            if key not in self._UNTRACKED
            for m in (tree.flatten(value) if isinstance(value, _TRACKABLE) else (value,))
            if isinstance(m, TrackedMetric)
        ]
        held += [
            m for layer in self._layers if not layer._reports_own_metrics for m in layer.metrics
        ]
        seen = set()
        return tuple(m for m in held if id(m) not in seen and not seen.add(id(m)))

    def _seed_generators(self):
        return [v for v in self._tracked_values() if isinstance(v, SeedGenerator)]

    def _flatten_layers(self, include_self=True, recursive=True):
        """This layer and its sub-layers (depth first, each once)."""
        result = []
        _visit(self, result, set(), recursive)
        return result if include_self else result[1:]

    @staticmethod
    def _unique(variables):
        seen = set()
        return [v for v in variables if id(v) not in seen and not seen.add(id(v))]

    @property
    def trainable_weights(self):
        """The weights whose own `trainable` is set, sub-layers' included: none if this layer
        is frozen. (As in Keras, a frozen sub-layer holds no trainable weight unless one was
        made trainable again after the freeze, as LoRA does with its factors.)"""
        if not self.trainable:
            return []
        return [v for v in self.weights_all() if v.trainable]

    @property
    def non_trainable_weights(self):
        """The weights training leaves alone (all of them if this layer is frozen)."""
        if not self.trainable:
            return self.weights_all()
        return [v for v in self.weights_all() if not v.trainable]

    def weights_all(self):
        """Every weight of this layer and its sub-layers, ignoring `trainable` flags."""
        return self._unique(
            self._own_weights() + [v for c in self._layers for v in c.weights_all()]
        )

    @property
    def weights(self):
        """Every weight in Keras 3's order, which `get_weights` and `set_weights` follow: this
        layer's own, then each sub-layer's in turn (a BatchNormalization's moving statistics
        beside its scale, not after every trainable weight of the model)."""
        return self.weights_all()

    @property
    def trainable_variables(self):
        return self.trainable_weights

    @property
    def non_trainable_variables(self):
        """Non-trainable weights plus the random-seed states of the layer and its sub-layers."""
        seeds = [g.state for layer in self._flatten_layers() for g in layer._seed_generators()]
        return self._unique(self.non_trainable_weights + seeds)

    @property
    def variables(self):
        """Every variable: weights and seed-generator states."""
        return self._unique(self.trainable_weights + self.non_trainable_variables)

    def parameters(self, recurse=True):
        """An iterator over the `torch.nn.Parameter` of every variable (torch only, as
        `torch.nn.Module.parameters`): `torch.optim.Adam(model.parameters())` trains the layer."""
        return iter([param for _, param in self.named_parameters(recurse=recurse)])

    def named_parameters(self, prefix="", recurse=True, remove_duplicate=True):
        """An iterator over (variable path, `torch.nn.Parameter`) of every variable (torch only),
        the path after `prefix` and a dot; with `recurse=False`, the layer's own variables only.
        Each variable is listed once, so `remove_duplicate` changes nothing."""
        del remove_duplicate
        variables = (
            self.variables
            if recurse
            else self._own_weights() + [g.state for g in self._seed_generators()]
        )
        names = [f"{prefix}.{v.path}" if prefix else v.path for v in variables]
        return iter(zip(names, ops.native_parameters(variables)))

    @property
    def trainable(self):
        """Whether the layer's weights train. Setting it sets every sub-layer's and the
        `trainable` of every variable created trainable (Keras's rule): freezing turns them off,
        thawing on again; a variable made non-trainable (a moving mean) stays so."""
        return self._trainable

    @trainable.setter
    def trainable(self, value):
        for layer in self._flatten_layers():
            layer._trainable = bool(value)
            for variable in layer._own_weights():
                if variable._follows_layer:
                    variable.trainable = value  # torch: autograd stops or resumes tracking it

    def count_params(self):
        """The number of scalars in the layer's weights."""
        if not self.built:
            raise ValueError(
                f"Layer '{self.name}' is not built yet, so it has no weights to count."
            )
        total = 0
        for v in self.weights:
            size = 1
            for d in v.shape:
                size *= d
            total += size
        return total

    def get_weights(self):
        """The weights' values, as NumPy arrays."""
        return [v.numpy() for v in self.weights]

    def set_weights(self, weights):
        """Set every weight from a list of arrays in `weights` order, checking the shapes."""
        params = self.weights
        if len(params) != len(weights):
            raise ValueError(
                f"Layer '{self.name}' has {len(params)} weights, but set_weights received "
                f"{len(weights)}."
            )
        for variable, value in zip(params, weights):
            shape = tuple(getattr(value, "shape", ()))
            if shape != tuple(variable.shape):
                raise ValueError(
                    f"Layer '{self.name}': weight {variable.path} has shape {variable.shape}, "
                    f"received a value of shape {shape}."
                )
        for variable, value in zip(params, weights):
            variable.assign(value)

    # -- weights ---------------------------------------------------------------------------------
    def add_weight(
        self,
        shape=None,
        initializer=None,
        dtype=None,
        trainable=True,
        autocast=True,
        regularizer=None,
        constraint=None,
        aggregation="none",
        overwrite_with_gradient=False,
        name=None,
    ):
        """Create a variable owned by this layer; its first value comes from `initializer`.

        Call it in `__init__` or `build`, never in `call`.

        Args:
            shape: tuple of ints, the variable's shape; default `()` (a scalar).
            initializer: an initializer, its name ("zeros", "ones", "glorot_uniform", ...) or a
                callable `(shape, dtype) -> array`; default "glorot_uniform" for floats,
                "zeros" otherwise.
            dtype: the variable's dtype; default the layer's variable dtype.
            trainable: bool, whether gradients update it (default True).
            autocast: bool, read it in the compute dtype under a mixed precision policy.
            regularizer: a regularizer (or its name) whose penalty joins the layer's `losses`.
            constraint: a constraint (or its name) applied after each optimizer update.
            aggregation: how replicas combine it in distributed training: "none", "mean",
                "sum" or "only_first_replica".
            overwrite_with_gradient: bool, the optimizer assigns the gradient to the variable
                instead of stepping (for float8 scaling factors).
            name: str, default "variable_<n>".

        Returns:
            The new backend `Variable`.

        Raises:
            ValueError: the layer was already built and called (weights created in `call`).

        Examples:
            >>> layer = tripod.layers.Layer()
            >>> w = layer.add_weight(shape=(2, 3), initializer="zeros", name="w")
            >>> w.path, tuple(w.shape), len(layer.weights)
            ('layer/w', (2, 3), 1)
        """
        if self._state_locked:
            raise ValueError(
                f"Layer '{self.name}' ({type(self).__name__}): add_weight() was called after the "
                "layer was built (e.g. in call()), which would create new weights on every call. "
                "As in Keras 3, create weights in __init__() or build() (run once, before the "
                "first "
                "call): move the add_weight() call into build()."
            )
        shape = () if shape is None else tuple(shape)
        dtype = dtypes.standardize_dtype(dtype or self.variable_dtype)
        if initializer is None:
            initializer = "glorot_uniform" if dtypes.is_float(dtype) else "zeros"
        initializer = initializers.get(initializer)
        with name_scope.name_scope(self.name, caller=self):  # the path: <scopes>/<layer>/<name>
            variable = ops.Variable(
                initializer,
                shape=shape,
                dtype=dtype,
                trainable=trainable,
                autocast=autocast,
                aggregation=aggregation,
                name=name,
            )
        variable._made_trainable = trainable  # its place in `weights`, whatever comes later
        if not self._trainable:  # a frozen layer's new weights start frozen, as in Keras
            variable.trainable = False
        variable.regularizer = regularizers.get(regularizer)
        variable.constraint = constraints.get(constraint)
        variable.overwrite_with_gradient = overwrite_with_gradient
        self._own_variables.append(variable)
        _structure.version += 1
        return variable

    def add_variable(
        self,
        shape,
        initializer,
        dtype=None,
        trainable=True,
        autocast=True,
        regularizer=None,
        constraint=None,
        name=None,
    ):
        """Create a variable owned by this layer: `add_weight` with `shape` and `initializer`
        required."""
        return self.add_weight(
            shape=shape,
            initializer=initializer,
            dtype=dtype,
            trainable=trainable,
            autocast=autocast,
            regularizer=regularizer,
            constraint=constraint,
            name=name,
        )

    # -- saving hooks ----------------------------------------------------------------------------
    def save_own_variables(self, store):
        """Write this layer's own variables into `store` under "0", "1", ..."""
        for i, v in enumerate(self._own_weights()):
            store[str(i)] = v.numpy()

    def load_own_variables(self, store):
        """Read this layer's own variables from `store`, checking count and shapes."""
        own = self._own_weights()
        if len(store) != len(own):
            raise ValueError(
                f"Layer '{self.name}' expects {len(own)} variables, but the file holds "
                f"{len(store)} for it."
            )
        for i, v in enumerate(own):
            value = store[str(i)]
            if tuple(value.shape) != tuple(v.shape):
                raise ValueError(
                    f"Layer '{self.name}': variable {v.path} has shape {v.shape}, but the file "
                    f"holds shape {tuple(value.shape)}."
                )
        for i, v in enumerate(own):
            v.assign(store[str(i)])


def _visit(layer, result, seen, recursive):
    """Append `layer` and (all, or only its direct) sub-layers not yet `seen` to `result`, depth
    first. A module function: a closure calling itself would be a reference cycle per call."""
    if id(layer) in seen:
        return
    seen.add(id(layer))
    result.append(layer)
    for child in layer._layers:
        if recursive:
            _visit(child, result, seen, recursive)
        elif id(child) not in seen:
            seen.add(id(child))
            result.append(child)
