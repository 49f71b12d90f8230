"""`Layer`: lazy build, weights, tracking of sub-layers and variables, symbolic and eager calls.

A layer is `__init__` (validate arguments) -> `build(input_shape)` (`add_weight`) -> `call` ->
`compute_output_shape` -> `get_config`. Calling it on real tensors is the hot path: one check for
symbolic inputs, the build on first use, the training flag and, only when a dtype policy asks for
it, a cast of the inputs. Calling it on `KerasTensor`s records a `Node` for functional models.

The tracking of sub-layers and variables and the weight methods live in `tracking`
(`WeightTracking`, a base of `Layer`); output specs, shapes and masks and the symbolic call in
`call_outputs` (`CallOutputs`, another base); the eager-tensor masks in `masks`, the thread's call
state in `call_state`, the input autocast in `input_casting` and the build-shape helpers in
`build_shapes`. The public names of `tracking` and `masks` are importable from here too.
"""

import inspect
import warnings
import weakref

from tripod.backends import active
from tripod.backends.common import name_scope, stateless, tree
from tripod.backends.common.keras_tensor import any_symbolic
from tripod.backends.common.variables import AutocastScope
from tripod.layers import dtype_policies, naming, regularizers, remat
from tripod.layers.build_shapes import (
    ALLOWED_KWARGS,
    build_parameters,
    keras_build,
    legacy_input_shape,
    shapes_of,
)
from tripod.layers.call_outputs import CallOutputs
from tripod.layers.call_state import clear_added_losses, loss_holders, thread_state
from tripod.layers.input_casting import cast_input
from tripod.layers.input_spec import assert_input_compatibility
from tripod.layers.masks import get_keras_mask, set_keras_mask
from tripod.layers.tracking import (
    TrackedMetric,
    WeightTracking,
    frozen_structure,
    structure_changed,
)
from tripod.saving import registry, serialization

__all__ = [
    "Layer",
    "TrackedMetric",
    "frozen_structure",
    "get_keras_mask",
    "set_keras_mask",
    "structure_changed",
]

ops = active()


def check_known_kwargs(obj, kwargs, allowed):
    """Keras 3's ValueError for keyword arguments of `obj`'s constructor outside `allowed`,
    naming the class and each unknown argument with its value."""
    unknown = {key: value for key, value in kwargs.items() if key not in allowed}
    if unknown:
        raise ValueError(
            f"Unrecognized keyword arguments passed to {type(obj).__name__}: {unknown}"
        )


class Layer(WeightTracking, CallOutputs):
    """The base class of every layer and model: weights, sub-layers and a computation.

    A subclass validates its arguments in `__init__`, creates its weights in `build(input_shape)`
    with `add_weight` (called once, on the first call, when the input shape is known), computes
    in `call` with `tripod.ops`, and returns its constructor arguments from `get_config`. Layers
    and variables assigned as attributes are tracked: they appear in `weights`,
    `trainable_weights` and `layers`, and are saved with the model.

    Args:
        activity_regularizer: a regularizer (or its name) applied to the layer's output; its
            value joins `losses`.
        trainable: bool, whether the layer's weights are trained (default True).
        dtype: the dtype policy: a dtype name ("float32"), a policy name ("mixed_float16") or a
            `DTypePolicy`; default floatx.
        autocast: bool, cast floating inputs to the compute dtype (default True).
        name: str without "/", default a unique name made from the class name.

    Raises:
        ValueError: an unknown keyword argument (as in Keras 3), or `name` is not a string, or
            holds "/".

    Examples:
        >>> class Scale(tripod.layers.Layer):
        ...     def build(self, input_shape):
        ...         self.scale = self.add_weight(shape=(input_shape[-1],), initializer="ones")
        ...     def call(self, x):
        ...         return x * self.scale
        >>> layer = Scale()
        >>> print(tripod.ops.convert_to_numpy(layer(np.full((1, 3), 2.0))))
        [[2. 2. 2.]]
        >>> [tuple(w.shape) for w in layer.trainable_weights]
        [(3,)]
    """

    #: Keras 3 public module that built-in subclasses are registered under
    _keras_module = "keras.layers"
    #: the `RematScope` open when the layer was created (None: plain calls)
    _remat_scope = None
    #: Keras's flags, which layers taking Python data (a tokenizer's strings) set: False leaves
    #: the positional inputs as given (no conversion to tensors, no autocast); positional
    #: arguments that are not tensors are always allowed here, so the second changes nothing
    _convert_input_args = True
    _allow_non_tensor_positional_args = False
    #: whether the class overrides `compute_mask` (set for each subclass)
    _computes_mask = False
    #: True once a call has built the layer: its weights exist by then (Keras 3 locks them too)
    _state_locked = False
    #: whether `metrics` are those of the layer's own training (a model's): a parent leaves
    #: them out of its `metrics`, as Keras does
    _reports_own_metrics = False

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        params = inspect.signature(cls.call).parameters
        cls._call_has_training_arg = "training" in params
        cls._call_has_mask_arg = "mask" in params
        cls._computes_mask = cls.compute_mask is not Layer.compute_mask
        cls._call_arg_names = [p for p in params if p != "self"]
        if "build" in cls.__dict__:
            cls.build = keras_build(cls.__dict__["build"])
        # As in Keras: a `build` of one parameter takes the first argument's shape, whatever the
        # parameter's name; a `build` of several takes each `<call argument>_shape` by name.
        build_params = build_parameters(cls.build)
        cls._build_shape_args = build_params if len(build_params) > 1 else []
        if cls.__module__.startswith("tripod.") and not cls.__name__.startswith("_"):
            registry.register_builtin(cls, cls._keras_module)

    def __new__(cls, *args, **kwargs):
        layer = super().__new__(cls)
        # The constructor arguments, for the default get_config of simple custom layers.
        layer._init_arguments = (args, kwargs)
        return layer

    def __init__(
        self,
        *,
        activity_regularizer=None,
        trainable=True,
        dtype=None,
        autocast=True,
        name=None,
        **kwargs,
    ):
        check_known_kwargs(self, kwargs, ALLOWED_KWARGS)
        if name is not None and (not isinstance(name, str) or "/" in name):
            raise ValueError(
                f"{type(self).__name__}: name must be a string without '/', received {name!r}."
            )
        self.name = name or naming.unique_name(naming.to_snake_case(type(self).__name__))
        self._trainable = bool(trainable)
        self._dtype_policy = dtype_policies.get(dtype)
        self.autocast = autocast
        self.activity_regularizer = regularizers.get(activity_regularizer)
        self.built = False
        self.supports_masking = (
            self._computes_mask
        )  # as in Keras: a layer computing masks supports them
        self.input_spec = None
        self._own_variables = []
        self._losses = []
        self._inbound_nodes = []
        self._outbound_nodes = []
        self._build_shapes = None
        self._input_shape_arg = legacy_input_shape(kwargs)
        self._initial_weights = kwargs.get("weights")
        if remat.current_scope() is not None:
            self._remat_scope = remat.current_scope()

    # -- dtypes ----------------------------------------------------------------------------------
    @property
    def dtype_policy(self):
        return self.__dict__.get("_policy_map", self._dtype_policy)

    @dtype_policy.setter
    def dtype_policy(self, value):
        self._dtype_policy = dtype_policies.get(value)
        policy_map = self.__dict__.get("_policy_map")
        if policy_map is not None:  # the map given as dtype now holds this layer's new policy
            policy_map.pop(self.path, None)
            policy_map[self.path] = self._dtype_policy
        mode = self._dtype_policy.quantization_mode
        if mode is not None and self.built and not getattr(self, "_is_quantized", False):
            self.quantize(mode)  # a quantized policy set on a built layer quantizes it, as Keras

    @property
    def quantization_mode(self):
        """The quantization mode of the layer's weights ("int8", "float8"), None if float."""
        return self._dtype_policy.quantization_mode

    @property
    def dtype(self):
        """The dtype of the layer's variables."""
        return self._dtype_policy.variable_dtype

    @property
    def compute_dtype(self):
        """The dtype the layer computes in."""
        return self._dtype_policy.compute_dtype

    @property
    def variable_dtype(self):
        return self._dtype_policy.variable_dtype

    def _cast_inputs(self, inputs):
        """Floating inputs as tensors of the compute dtype; other inputs as they are."""
        compute_dtype = self.compute_dtype
        if tree.is_nested(inputs):
            return tree.map_structure(lambda x: cast_input(x, compute_dtype), inputs)
        return cast_input(inputs, compute_dtype)

    # -- building --------------------------------------------------------------------------------
    def build(self, input_shape=None):
        """Create the layer's weights for inputs of `input_shape`; the default creates none.

        Called once, by the first call (or by a symbolic call on `tripod.Input`), with the shape
        of the first input; a layer whose `call` takes several tensors may instead name its
        parameters after them (`build(self, query_shape, value_shape)`).

        Args:
            input_shape: tuple of ints (None for unknown sizes, the batch first), or a
                structure of such tuples for several inputs.

        Examples:
            >>> dense = tripod.layers.Dense(4)
            >>> dense.build((None, 3))
            >>> dense.built, tuple(dense.kernel.shape)
            (True, (3, 4))
        """
        self.built = True

    def _maybe_build(self, args, kwargs):
        """Build from the shapes of the call's tensor arguments (once)."""
        if self.built:
            return
        if self._build_shape_args:
            bound = dict(zip(self._call_arg_names, args), **kwargs)
            shapes = {
                name: shapes_of(bound.get(name.removesuffix("_shape")))
                for name in self._build_shape_args
                if bound.get(name.removesuffix("_shape")) is not None
            }
            self.build(**shapes)
        else:
            if type(self).build is Layer.build and any_symbolic(args, kwargs):
                self._build_by_tracing(args, kwargs)
            shapes = {"input_shape": shapes_of(self._first_argument(args, kwargs))}
            self.build(shapes["input_shape"])
        self._mark_built(shapes)
        if self._initial_weights is not None:
            self.set_weights(self._initial_weights)
            self._initial_weights = None

    def _build_by_tracing(self, args, kwargs):
        """Build the sub-layers of a layer without a `build` of its own by tracing its `call`,
        as Keras 3 does: a symbolic call that uses `compute_output_shape` never runs them (an
        eager call builds them as it runs them). A call that cannot be traced warns, as in Keras."""
        if all(layer.built for layer in self._layers):
            return
        if not self._call_has_training_arg:
            kwargs = {k: v for k, v in kwargs.items() if k != "training"}
        try:
            with stateless.StatelessScope():
                ops.compute_output_spec(self.call, *args, **kwargs)
        except Exception as error:  # noqa: BLE001 -- any failure of the user's call
            warnings.warn(
                f"Layer '{self.name}' ({type(self).__name__}) has sub-layers that are not built, "
                f"and tracing its call() to build them failed ({type(error).__name__}: {error}). "
                "Give the layer a build() method that builds them.",
                stacklevel=4,
            )

    def _mark_built(self, shapes):
        """After `build`: the shapes recorded (`get_build_config`), the layer built, its state
        locked (weights made later would be made again at every call)."""
        self._build_shapes = shapes
        self.built = True
        self._state_locked = True

    def get_build_config(self):
        """The shapes the layer was built with, so a loaded layer builds the same way (Keras 3's
        form: `{"input_shape": ...}`, or `{"shapes_dict": {...}}` for several inputs)."""
        if not self.built or self._build_shapes is None:
            return None
        if list(self._build_shapes) == ["input_shape"]:
            return dict(self._build_shapes)
        return {"shapes_dict": dict(self._build_shapes)}

    def build_from_config(self, config):
        """Build from the dict `get_build_config` returned."""
        if not config:
            return
        shapes = config.get("shapes_dict", config)

        def as_shape(value):
            return None if value is None else tree.map_shape_structure(tuple, value)

        shapes = {k: as_shape(v) for k, v in shapes.items()}
        if list(shapes) == ["input_shape"]:
            self.build(shapes["input_shape"])
        else:
            self.build(**shapes)
        self._mark_built(shapes)

    # -- calling ---------------------------------------------------------------------------------
    def call(self, *args, **kwargs):
        """The layer's computation on tensors; every subclass writes it with `tripod.ops`.

        Users call the layer itself (`layer(x)`), which builds it on first use, casts floating
        inputs to the compute dtype and fills `training` and `mask` before calling `call`.

        Args:
            *args: the input tensor(s).
            **kwargs: options a subclass declares, e.g. `training` (bool: behave as in training,
                as `Dropout` does) and `mask` (a boolean mask from a previous layer).

        Returns:
            The output tensor(s).

        Raises:
            NotImplementedError: the subclass does not define `call`.
        """
        raise NotImplementedError(f"Layer {type(self).__name__} has no call() method.")

    def __call__(self, *args, **kwargs):
        if not self.built:
            # The first call builds: what it creates (sub-layers built lazily too) nests under
            # this layer's path, as in Keras 3 (`outer/inner/kernel`).
            with self._name_scope():
                self._settle_path()
                return self._call(args, kwargs)
        return self._call(args, kwargs)

    def _name_scope(self):
        """The name scope of this layer: variables created inside it have paths below it."""
        return name_scope.name_scope(self.name, caller=self)

    @property
    def path(self):
        """The layer's path (`"outer/inner"`, its variables' prefix): None until it builds."""
        return self.__dict__.get("_path")

    def _settle_path(self):
        """Record the path the first build runs under; a `DTypePolicyMap` given as the dtype
        resolves to that path's policy then (the map stays `dtype_policy`, as in Keras)."""
        if self.path is None:
            self._path = name_scope.current_path()
            if isinstance(self._dtype_policy, dtype_policies.DTypePolicyMap):
                self._policy_map = self._dtype_policy
                self._dtype_policy = self._policy_map[self._path]

    def _call(self, args, kwargs):
        """`__call__`: a symbolic call on KerasTensors, else the computation on tensors."""
        if any_symbolic(args, kwargs):
            return self._symbolic_call(args, kwargs)
        if not self.built:
            self._maybe_build(args, kwargs)
        previous_mask = None
        if args and (self.supports_masking or self._call_has_mask_arg):
            # As Keras does on eager tensors: a mask attached to the input fills `mask=`.
            previous_mask = kwargs.get("mask")
            if previous_mask is None:
                previous_mask = get_keras_mask(args[0])
                if previous_mask is not None and self._call_has_mask_arg:
                    kwargs["mask"] = previous_mask
        if args:
            spec = self.input_spec
            if spec is not None:
                assert_input_compatibility(spec, args[0], self.name)
            if self.autocast and self._convert_input_args:
                first = args[0]
                cast = self._cast_inputs(first)
                if cast is not first:
                    args = (cast,) + args[1:]
        context = thread_state.call
        outer_training = context.training
        # As in Keras: an explicit flag, else the outer call's, else the call's own default
        # (`training=None` given to a call without the argument is dropped, not passed on).
        training = kwargs.pop("training", None)
        if training is None:
            training = outer_training
        if training is not None and self._call_has_training_arg:
            kwargs["training"] = training
        depth = context.depth
        if not depth and loss_holders:
            clear_added_losses()
        context.depth = depth + 1
        context.training = training
        scope = self._remat_scope
        call = self.call if scope is None else remat.rematerialized_call(self, scope, args, kwargs)
        try:
            policy = self._dtype_policy
            if policy.compute_dtype != policy.variable_dtype and self.autocast:
                with AutocastScope(policy.compute_dtype, ops.cast):
                    outputs = call(*args, **kwargs)
            else:
                outputs = call(*args, **kwargs)
        finally:
            context.depth = depth
            context.training = outer_training
        if self.activity_regularizer is not None:
            for y in tree.flatten(outputs):
                self.add_loss(
                    ops.divide(self.activity_regularizer(y), ops.cast(ops.shape(y)[0], y.dtype))
                )
        if self.supports_masking and (previous_mask is not None or self._computes_mask):
            self._attach_eager_masks(args[0], outputs, previous_mask)
        return outputs

    def stateless_call(
        self, trainable_variables, non_trainable_variables, *args, return_losses=False, **kwargs
    ):
        """Call with the given variable values; return outputs and the updated non-trainable
        values (and losses), leaving the layer's variables untouched."""
        trainable, non_trainable = self.trainable_variables, self.non_trainable_variables
        if len(trainable_variables) != len(trainable) or len(non_trainable_variables) != len(
            non_trainable
        ):
            raise ValueError(
                f"Layer '{self.name}': stateless_call expects {len(trainable)} trainable and "
                f"{len(non_trainable)} non-trainable values, received {len(trainable_variables)} "
                f"and {len(non_trainable_variables)}."
            )
        mapping = list(zip(trainable, trainable_variables)) + list(
            zip(non_trainable, non_trainable_variables)
        )
        with stateless.StatelessScope(state_mapping=mapping, collect_losses=return_losses) as scope:
            outputs = self(*args, **kwargs)
        new_values = [scope.get_current_value(v) for v in non_trainable]
        new_values = [
            new if new is not None else old for new, old in zip(new_values, non_trainable_variables)
        ]
        if return_losses:
            return outputs, new_values, scope.losses
        return outputs, new_values

    def quantize(self, mode=None, type_check=True, config=None):
        """Quantize the layer's weights in `mode` ("int8" or "float8"); `Dense`, `EinsumDense`
        and `Embedding` implement it (tripod.layers.quantization), other layers raise
        NotImplementedError, which `Model.quantize` skips."""
        raise NotImplementedError(
            f"Layer {type(self).__name__} does not have a `quantize` method implemented."
        )

    # -- losses ----------------------------------------------------------------------------------
    def add_loss(self, loss):
        """Add a loss term (e.g. an activity penalty) computed during `call`."""
        scope = stateless.current_scope()
        sink = scope.loss_sink if scope is not None else None
        if sink is not None:
            sink.losses.append(loss)
            return
        self._losses.append(loss)
        loss_holders.add(weakref.ref(self))

    @property
    def losses(self):
        """Losses added during the last call, plus the weight regularization penalties.

        Inside a loss-collecting stateless scope (a compiled training step), the added losses
        are the scope's: every loss added during the step.
        """
        scope = stateless.current_scope()
        sink = scope.loss_sink if scope is not None else None
        layers, regularized = self._memoized("_loss_sources_memo", self._loss_sources)
        if sink is not None:
            result = list(sink.losses)
        else:
            result = [loss for layer in layers for loss in layer._losses]
        result.extend(v.regularizer(v.value) for v in regularized)
        return result

    def _loss_sources(self):
        """What `losses` reads: every layer, and the trainable weights that have a regularizer."""
        regularized = [
            v for v in self.trainable_weights if getattr(v, "regularizer", None) is not None
        ]
        return self._flatten_layers(), regularized

    # -- config ----------------------------------------------------------------------------------
    def get_config(self):
        """The constructor arguments that rebuild this layer (without its weights), as a dict.

        `type(layer).from_config(config)` makes a new, unbuilt layer of the same configuration;
        saving stores it in a `.keras` file. A subclass with constructor arguments adds them to
        `super().get_config()`; a simple custom layer whose arguments are plain values gets them
        recorded automatically.

        Returns:
            A JSON-serializable dict: "name", "trainable", "dtype" and the layer's own arguments.

        Examples:
            >>> config = tripod.layers.Dense(3, activation="relu", name="hidden").get_config()
            >>> config["name"], config["units"], config["activation"]
            ('hidden', 3, 'relu')
            >>> tripod.layers.Dense.from_config(config).units
            3
        """
        config = {
            "name": self.name,
            "trainable": self.trainable,
            "dtype": serialization.serialize_keras_object(self.dtype_policy),
        }
        if type(self).get_config is Layer.get_config:
            args, kwargs = self._init_arguments
            if args:
                params = [
                    p for p in inspect.signature(type(self).__init__).parameters if p != "self"
                ]
                kwargs = dict(zip(params, args), **kwargs)
            extra = {k: v for k, v in kwargs.items() if k not in config}
            config.update(serialization.serialize_keras_object(extra))
        return config

    @classmethod
    def from_config(cls, config):
        """Rebuild a layer from `get_config()`'s output. Any error of the constructor comes
        back as a `TypeError` naming the class and the config, as in Keras."""
        config = dict(config)
        if isinstance(config.get("dtype"), dict):
            config["dtype"] = dtype_policies.get(config["dtype"])
        try:
            return cls(**config)
        except Exception as e:
            raise TypeError(
                f"{cls.__name__}.from_config could not rebuild the layer from config={config} "
                f"({type(e).__name__}: {e}). A custom layer whose constructor takes other "
                "arguments must override get_config() and from_config()."
            ) from e

    def __getattr__(self, name):
        # Reached only when normal lookup fails. A subclass whose __init__ skipped Layer's lacks
        # every attribute Layer sets: say so rather than name the first one missed.
        cls = type(self).__name__
        if "_own_variables" not in self.__dict__ and not name.startswith("__"):
            raise AttributeError(
                f"Layer subclass {cls} has no attribute {name!r} because {cls}.__init__() did not "
                "call `super().__init__(**kwargs)`: call it first in __init__(), as Keras 3 "
                "requires.",
                name=name,
                obj=self,
            )
        raise AttributeError(f"{cls!r} object has no attribute {name!r}", name=name, obj=self)

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}, built={self.built}>"
