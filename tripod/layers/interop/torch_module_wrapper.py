"""`TorchModuleWrapper`: a `torch.nn.Module` as a tripod layer (torch backend only).

The module's parameters and persistent buffers become the layer's variables through the
backend's `adopt_variable` hook, sharing their storage: tripod's optimizers, `save_weights` and
`load_weights` act on the module itself, and the module's own updates (BatchNorm's running
statistics) are the variables' values. A module cannot be rebuilt from a file without running
code, so `from_config` refuses and says how to load such a model instead.
"""

from tripod.backends import active
from tripod.backends.common import name_scope
from tripod.backends.common.keras_tensor import KerasTensor
from tripod.layers.layer import Layer

ops = active()


class TorchModuleWrapper(Layer):
    """A `torch.nn.Module` as a layer (torch backend only).

    The module's parameters (trainable as their `requires_grad` says, in `named_parameters()`
    order) and persistent buffers (non-trainable) become the layer's variables, sharing their
    storage; calling the layer calls the module, and `training` switches it between train and
    eval mode. A lazy module must have run once first, so that its parameters exist. A config
    cannot rebuild the module: `from_config` raises (see the module docstring).

    Args:
        module: the `torch.nn.Module` instance to run.
        name: str, the layer's name; default a unique one.
        output_shape: tuple, the module's output shape, batch axis included (None where
            unknown); default None, inferred by running the module on stand-in inputs.
        **kwargs: the `Layer` arguments (dtype, trainable, ...).

    Raises:
        TypeError: `module` is not a torch module, or its state cannot be tracked on the
            active backend (not torch).
        ValueError: `module` is lazy and has not run yet.

    Examples:
        >>> import torch
        >>> layer = tripod.layers.TorchModuleWrapper(torch.nn.Linear(3, 2))
        >>> [tuple(w.shape) for w in layer.trainable_weights]
        [(2, 3), (2,)]
        >>> tuple(layer(np.ones((4, 3))).shape)
        (4, 2)
        >>> norm = tripod.layers.TorchModuleWrapper(torch.nn.BatchNorm1d(3))
        >>> len(norm.trainable_weights), len(norm.non_trainable_weights)
        (2, 3)
    """

    def __init__(self, module, name=None, output_shape=None, **kwargs):
        super().__init__(name=name, **kwargs)
        needed = ("named_parameters", "named_buffers", "state_dict", "train")
        if not all(callable(getattr(module, method, None)) for method in needed):
            raise TypeError(
                f"TorchModuleWrapper '{self.name}' wraps a torch.nn.Module; received "
                f"{type(module).__name__}."
            )
        self.module = module
        self.output_shape = None if output_shape is None else tuple(output_shape)
        self.torch_variables = self._adopt_state(module)
        self.built = True

    def _adopt_state(self, module):
        """The module's parameters, then its persistent buffers, as variables sharing storage."""
        params = list(module.named_parameters())
        persistent = set(module.state_dict(keep_vars=True))
        buffers = [(n, b) for n, b in module.named_buffers() if n in persistent]
        lazy = [n for n, t in params + buffers if "Uninitialized" in type(t).__name__]
        if lazy:
            raise ValueError(
                f"TorchModuleWrapper '{self.name}': the lazy {type(module).__name__} has no "
                f"shapes yet for {lazy}; call the module once on an example input first."
            )
        state = [(n, p, p.requires_grad) for n, p in params] + [(n, b, False) for n, b in buffers]
        with name_scope.name_scope(self.name, caller=self):
            try:
                return [ops.adopt_variable(t, n, trainable) for n, t, trainable in state]
            except TypeError as e:
                raise TypeError(
                    f"TorchModuleWrapper '{self.name}' needs the torch backend "
                    f"(TRIPOD_BACKEND=torch) to track the state of its {type(module).__name__}: "
                    f"{e}"
                ) from None

    def call(self, *args, training=None, **kwargs):
        """The module's output; `training` (when given) switches it to train or eval mode."""
        if training is not None and self.module.training != bool(training):
            self.module.train(bool(training))
        return self.module(*args, **kwargs)

    def compute_output_spec(self, *args, **kwargs):
        """`output_shape` when given; else the module's output on stand-in inputs, run in eval
        mode so that shape inference changes no running statistics."""
        if self.output_shape is not None:
            return KerasTensor(self.output_shape, self.compute_dtype)
        kwargs.pop("training", None)
        was_training = self.module.training
        self.module.eval()
        try:
            return ops.compute_output_spec(self.module, *args, **kwargs)
        finally:
            self.module.train(was_training)

    def compute_output_shape(self, input_shape):
        """`output_shape` when given; else inferred by running the module on stand-ins."""
        if self.output_shape is not None:
            return self.output_shape
        return super().compute_output_shape(input_shape)

    def get_config(self):
        """What can be recorded: the module's class (the module itself needs code to rebuild)."""
        config = super().get_config()
        module_class = type(self.module)
        config.update(
            {
                "module": f"{module_class.__module__}.{module_class.__qualname__}",
                "output_shape": None if self.output_shape is None else list(self.output_shape),
            }
        )
        return config

    @classmethod
    def from_config(cls, config):
        """Always an error: rebuilding the module would mean running code from the file."""
        raise ValueError(
            f"TorchModuleWrapper '{config.get('name')}' (a {config.get('module')}) cannot be "
            "loaded from a config: tripod does not unpickle or import code from files. Rebuild "
            "the model in code and call model.load_weights(...), or wrap the torch module inside "
            "a registered Layer subclass that creates it in __init__ (then tripod.saving."
            "load_model works, given the subclass through registration or custom_objects)."
        )
