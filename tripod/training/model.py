"""`Model`: a layer that groups layers, with summary and lookup; subclass it and write `call`.

`Model(inputs, outputs)` builds a functional model; a subclass whose `__init__` passes
`inputs=` and `outputs=` to `super().__init__` becomes a functional model too, as in Keras 3.
"""

import inspect

from tripod.backends import active
from tripod.backends.common import stateless, tree
from tripod.backends.common.keras_tensor import KerasTensor
from tripod.distribution.distributions import distribution
from tripod.export.model_export import export_model
from tripod.layers.layer import Layer, check_known_kwargs
from tripod.saving import registry
from tripod.saving.model_saving import SavingMixin
from tripod.training import summary
from tripod.training.quantize import quantize_model
from tripod.training.trainer import Trainer

ops = active()


class Model(Trainer, SavingMixin, Layer):
    """A layer made of layers: the object you compile, fit, save and load.

    Build one of three ways: `Model(inputs, outputs)` joins symbolic tensors from `tripod.Input`
    into a functional model; a subclass creates its layers in `__init__` and writes `call`;
    `tripod.Sequential` stacks layers. A subclass whose `__init__` passes `inputs=` and
    `outputs=` to `super().__init__` becomes a functional model, as in Keras 3.

    Args:
        *args: `inputs, outputs` by position, for a functional model.
        **kwargs: `inputs`: a functional model's input tensor(s) from `tripod.Input` (one, a
            list or a dict); `outputs`: the tensor(s) computed from them; `name`: str, default
            a unique name made from the class name; `trainable`: bool, whether `fit` updates
            the weights (default True); `dtype`: the dtype policy (default floatx). A
            subclassed model takes only `name`, `trainable` and `dtype`.

    Raises:
        TypeError: a subclassed model received arguments other than name, trainable, dtype.

    Examples:
        A functional model:

        >>> inputs = tripod.Input((4,))
        >>> outputs = tripod.layers.Dense(2)(tripod.layers.Dense(8, activation="relu")(inputs))
        >>> model = tripod.Model(inputs, outputs)
        >>> model.count_params()
        58
        >>> model.predict(np.ones((3, 4)), verbose=0).shape
        (3, 2)

        A subclassed model:

        >>> class TwoLayers(tripod.Model):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.hidden = tripod.layers.Dense(8, activation="relu")
        ...         self.out = tripod.layers.Dense(1)
        ...     def call(self, x):
        ...         return self.out(self.hidden(x))
        >>> model = TwoLayers()
        >>> tuple(model(np.ones((2, 3))).shape)
        (2, 1)
    """

    _keras_module = "keras"
    # The trainer's list of the variables it trains is bookkeeping, not the model's own state.
    _UNTRACKED = Layer._UNTRACKED | {"_trained_variables", "_initial_epoch", "_loss_tracker"}
    #: set by `tripod.training.functional` once `Functional` exists
    _functional_class = None

    def __new__(cls, *args, **kwargs):
        functional = cls is Model and ("inputs" in kwargs or len(args) >= 2)
        return super().__new__(Model._functional_class if functional else cls, *args, **kwargs)

    def __init__(self, *args, **kwargs):
        functional = Model._functional_class
        if ("inputs" in kwargs or len(args) >= 2) and not isinstance(self, functional):
            # A subclass passing inputs/outputs up: its class becomes a functional model.
            _functional_bases(type(self), functional)
            functional.__init__(self, *args, **kwargs)
            return
        check_known_kwargs(self, kwargs, _LAYER_ARGS)
        super().__init__(**kwargs)
        self._init_trainer()
        if args:
            raise TypeError(
                f"{type(self).__name__}: unexpected positional arguments {list(args)}; a "
                "subclassed model takes name, trainable and dtype."
            )

    def build(self, input_shape=None):
        """Build the layers by tracing `call` on a symbolic input of `input_shape`."""
        if input_shape is not None and type(self).call is not Model.call:
            specs = tree.map_shape_structure(
                lambda s: KerasTensor(s, self.compute_dtype), input_shape
            )
            with stateless.StatelessScope():
                self.compute_output_spec(specs)
        self.built = True

    def call(self, *args, **kwargs):
        raise NotImplementedError(
            f"Model {type(self).__name__} has no call(); subclass Model and write call(), or "
            "build a functional model with Model(inputs, outputs)."
        )

    @property
    def layers(self):
        """The direct sub-layers. (A plain `Layer` has no such property, as in Keras: its own
        `self.layers = [...]` is an attribute like any other.)"""
        return self._listed_layers()

    def _listed_layers(self):
        """What `layers` lists: a functional model and a `Sequential` list their own."""
        return list(self._layers)

    @layers.setter
    def layers(self, _):
        raise AttributeError(
            f"{type(self).__name__}.layers is reserved by Model (its sub-layers): store the list "
            "under another name."
        )

    @property
    def distribute_strategy(self):
        """The `tf.distribute` strategy the steps run under (the distribution's, else
        TensorFlow's current one), as Keras's tensorflow trainer has it; the other backends
        have none (AttributeError)."""
        dist = distribution()
        try:
            return ops.distribute_strategy(None if dist is None else dist.engine)
        except NotImplementedError as error:
            raise AttributeError(f"Model.distribute_strategy: {error}") from None

    def zero_grad(self, set_to_none=True):
        """Clear the gradients `loss.backward()` left on the model's variables (torch, as
        `torch.nn.Module.zero_grad`), before a custom `train_step` takes new ones."""
        ops.zero_grad(self.variables, set_to_none=set_to_none)

    def quantize(self, mode=None, config=None, filters=None, **kwargs):
        """Quantize the weights of every quantizable layer ("int8" or "float8"; `config` a
        `tripod.quantizers.QuantizationConfig`; `filters` a name regex, a list of them or a
        predicate selecting layers). The model must be built."""
        unknown = set(kwargs) - {"type_check"}
        if unknown:
            raise ValueError(
                f"{type(self).__name__}.quantize: unknown arguments {sorted(unknown)}."
            )
        quantize_model(self, mode, config, filters, kwargs.get("type_check", True))

    def get_layer(self, name=None, index=None):
        """A layer of the model, by name or by index in `model.layers`.

        Args:
            name: str, the layer's name.
            index: int, the layer's position in `model.layers` (negative counts from the end).

        Returns:
            The `Layer`.

        Raises:
            ValueError: both or neither of `name` and `index` given, an index out of range, or
                no layer of that name.

        Examples:
            >>> model = tripod.Sequential([tripod.Input((3,)), tripod.layers.Dense(2, name="out")])
            >>> model.get_layer("out") is model.get_layer(index=-1)
            True
        """
        if (name is None) == (index is None):
            raise ValueError("get_layer: pass exactly one of `name` or `index`.")
        layers = self.layers
        if index is not None:
            if not -len(layers) <= index < len(layers):
                raise ValueError(
                    f"get_layer: index {index} is out of range for {len(layers)} layers."
                )
            return layers[index]
        for layer in layers:
            if layer.name == name:
                return layer
        raise ValueError(
            f"No such layer: {name!r}. Existing layers are: {[l.name for l in layers]}."
        )

    def summary(
        self,
        line_length=None,
        positions=None,
        print_fn=None,
        expand_nested=False,
        show_trainable=False,
        layer_range=None,
    ):
        """Print a table of the layers (type, output shape, parameters) and the totals.

        Args:
            line_length: int, the table's width in characters (default fits the terminal).
            positions: the column boundaries, as fractions of the width or absolute positions.
            print_fn: a function called with each line (default `print`).
            expand_nested: bool, also list the layers inside nested models.
            show_trainable: bool, add a column saying whether each layer is trainable.
            layer_range: `[first, last]` layer names (or patterns) bounding the rows shown.
        """
        summary.print_summary(
            self, line_length, positions, print_fn, expand_nested, show_trainable, layer_range
        )

    def export(
        self, filepath, format="tf_saved_model", verbose=None, input_signature=None, **kwargs
    ):
        """Write the model's inference as an artifact: format "onnx" (every backend),
        "tf_saved_model" (tensorflow; jax through jax2tf) or "torch" (a torch.export `.pt2`).

        `input_signature` (InputSpecs or arrays) is needed only when the model has no `Input`s;
        `opset_version=` picks the ONNX opset (18 by default); other keyword arguments go to the
        converter. The file appears only once complete. See docs/export.md.
        """
        export_model(self, filepath, format, verbose, input_signature, **kwargs)

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """A model from its config: a functional graph is rebuilt call by call (as `cls` when its
        constructor takes `inputs` and `outputs`); any other config is passed to `cls(**config)`."""
        if set(config) >= _FUNCTIONAL_KEYS and _takes_inputs_and_outputs(cls):
            return Model._functional_class._from_graph_config(cls, config, custom_objects)
        with registry.custom_object_scope(custom_objects or {}):
            return super().from_config(config)


def _takes_inputs_and_outputs(cls):
    """Whether `cls(inputs=..., outputs=..., name=...)` builds a functional model of class `cls`."""
    functional = Model._functional_class
    if cls in (Model, functional):
        return True
    spec = inspect.getfullargspec(cls.__init__)
    functional_args = inspect.getfullargspec(functional.__init__).args
    passes_everything = spec.varargs is not None and spec.varkw is not None
    return spec.args[1:] == functional_args[1:] or passes_everything


#: the keys every functional model config holds
_FUNCTIONAL_KEYS = frozenset({"name", "layers", "input_layers", "output_layers"})
_LAYER_ARGS = frozenset({"name", "trainable", "dtype", "autocast", "activity_regularizer"})


def _functional_bases(cls, functional):
    """Make `cls` a functional model class in place, as Keras 3 does: `Model` becomes
    `functional` among the bases of `cls` and of its ancestors. The class stays the user's own
    (its registered name, its pickling, `type(model) is cls`); done once per class."""
    if cls is Model:
        return functional
    if cls is object or issubclass(cls, functional):
        return cls
    cls.__bases__ = tuple(_functional_bases(base, functional) for base in cls.__bases__)
    return cls
