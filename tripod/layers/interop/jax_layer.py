"""`JaxLayer` and `FlaxLayer`: a pure JAX function, or a Flax linen module, as a tripod layer.

The function's parameters and state (pytrees of arrays) become tripod variables: the params'
leaves trainable, the state's leaves non-trainable, their tree structures kept to rebuild the
trees on each call. Both layers need the jax backend. A Python function or a Flax module cannot
be rebuilt from a saved config without running code, so `from_config` refuses: rebuild the
layer in code (or inside a registered layer's `__init__`) and load the weights.
"""

import inspect

from tripod.backends import active, dtypes
from tripod.backends.common import tree
from tripod.backends.common.optional import require
from tripod.backends.common.seed import SeedGenerator, draw_seed
from tripod.layers.layer import Layer

ops = active()

#: the argument names `call_fn` may take, in Keras's order
_CALL_ARGS = ("params", "state", "rng", "inputs", "training")


def _require_jax(layer):
    """A clear error when the active backend is not jax (the function computes on jax arrays)."""
    if ops.name != "jax":
        raise RuntimeError(
            f"{layer} needs the jax backend (TRIPOD_BACKEND=jax); the active backend is "
            f"{ops.name!r}."
        )


def _argument_names(fn, what, allowed, required):
    """The parameter names of `fn`, checked against `allowed` and `required`."""
    names = list(inspect.signature(fn).parameters)
    unknown = [n for n in names if n not in allowed]
    if unknown or required not in names:
        raise ValueError(
            f"{what} must take arguments named among {allowed} (with {required!r}); "
            f"received {names}."
        )
    return names


def _placeholders(input_shape):
    """Zero inputs shaped like `input_shape` (None dims as 1), for an `init_fn` to read shapes."""
    return tree.map_shape_structure(
        lambda shape: ops.zeros([1 if d is None else d for d in shape]), input_shape
    )


class JaxLayer(Layer):
    """A pure JAX function as a layer: the output is `call_fn(params, state, rng, inputs,
    training)` (jax backend only).

    `call_fn`'s arguments are recognised by name, and it may take any of them (only `inputs`
    is required). `params` (trainable) and `state` (non-trainable) are pytrees of arrays, given
    here or made on the first call by `init_fn`; their leaves become the layer's variables, so
    tripod trains and saves them. A `call_fn` taking `state` returns `(outputs, new_state)`,
    and the new state is written back to the variables. `rng` is a fresh key drawn from `seed`
    in training and None at inference. A config cannot rebuild the function: `from_config`
    raises (see the module docstring).

    Args:
        call_fn: the function computing the output, with parameters named among "params",
            "state", "rng", "inputs" (required) and "training".
        init_fn: a function of "inputs" (zeros shaped like the first input, None sizes as 1)
            and optionally "rng" and "training", returning the params, or `(params, state)`
            when `call_fn` takes `state`; default None (then pass `params` and/or `state`).
        params: a pytree of arrays, the trainable parameters; default None.
        state: a pytree of arrays, the non-trainable state; default None.
        seed: int, seed of the keys passed as `rng`; default None.
        native_serialization_platforms: accepted for Keras compatibility and unused (Keras
            reads it on its tensorflow backend only).
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        RuntimeError: the active backend is not jax.
        ValueError: `call_fn` or `init_fn` takes an argument not named above (or no
            `inputs`), neither `init_fn` nor `params`/`state` is given, or (on the first call)
            `init_fn` returns no `(params, state)` pair where `call_fn` takes `state`.

    Examples:
        >>> import jax.numpy as jnp
        >>> def call_fn(params, inputs):
        ...     return inputs @ params["w"] + params["b"]
        >>> def init_fn(rng, inputs):
        ...     return {"w": jnp.ones((inputs.shape[-1], 2)), "b": jnp.zeros((2,))}
        >>> layer = tripod.layers.JaxLayer(call_fn, init_fn)
        >>> print(tripod.ops.convert_to_numpy(layer(np.ones((1, 3)))))
        [[3. 3.]]
        >>> sorted(tuple(w.shape) for w in layer.trainable_weights)
        [(2,), (3, 2)]
    """

    def __init__(
        self,
        call_fn,
        init_fn=None,
        params=None,
        state=None,
        seed=None,
        native_serialization_platforms=None,
        **kwargs,
    ):
        _require_jax(type(self).__name__)
        super().__init__(**kwargs)
        self.call_fn, self.init_fn = call_fn, init_fn
        self.seed = seed
        self.native_serialization_platforms = native_serialization_platforms
        label = self._label()
        self._call_args = _argument_names(call_fn, f"{label}: call_fn", _CALL_ARGS, "inputs")
        if init_fn is not None:
            self._init_args = _argument_names(
                init_fn, f"{label}: init_fn", ("rng", "inputs", "training"), "inputs"
            )
        elif params is None and state is None:
            raise ValueError(f"{self._label()}: pass init_fn, or the params (and state) to use.")
        # As in Keras, only a call_fn taking `rng` has a seed generator (a variable).
        self.seed_generator = SeedGenerator(seed) if "rng" in self._call_args else None
        self._params = self._state = None
        if params is not None or state is not None:
            self._track(params, state)
            self.built = True

    def _label(self):
        return f"{type(self).__name__} '{self.name}'"

    def build(self, input_shape):
        """Make the params (and state) with `init_fn` on placeholder inputs."""
        if self._params is not None or self._state is not None:
            return
        # As in Keras, the init key comes from the global generator (tripod.utils.set_random_seed).
        args = {"rng": draw_seed(None, ops), "inputs": _placeholders(input_shape), "training": True}
        made = self.init_fn(**{name: args[name] for name in self._init_args})
        if "state" in self._call_args:
            if not isinstance(made, (tuple, list)) or len(made) != 2:
                raise ValueError(
                    f"{self._label()}: call_fn takes `state`, so init_fn must return "
                    f"(params, state); received {type(made).__name__}."
                )
            self._track(*made)
        else:
            self._track(made, None)

    def _track(self, params, state):
        """Variables for the leaves of `params` (trainable) and `state` (non-trainable)."""
        self._params = self._variables_of(params, "params", trainable=True)
        self._state = self._variables_of(state, "state", trainable=False)

    def _variables_of(self, pytree, prefix, trainable):
        """(structure, variables): one variable per leaf, named after its path in the tree; the
        structure keeps None for leaves (rebuilt with the variables' values on each call)."""
        if pytree is None:
            return None
        variables = []
        for path, leaf in tree.flatten_with_path(pytree):
            name = ".".join([prefix] + [str(key) for key in path])
            value = ops.convert_to_tensor(leaf)
            variable = self.add_weight(
                shape=ops.shape(value),
                dtype=dtypes.standardize_dtype(value.dtype),
                initializer="zeros",
                trainable=trainable,
                autocast=False,
                name=name,
            )
            variable.assign(value)
            variables.append(variable)
        return tree.map_structure(lambda _: None, pytree), variables

    @staticmethod
    def _tree(tracked):
        """The pytree of a `_variables_of` result with the variables' current values."""
        if tracked is None:
            return None
        structure, variables = tracked
        return tree.pack_sequence_as(structure, [v.value for v in variables])

    def call(self, inputs, training=False):
        available = {
            "params": lambda: self._tree(self._params),
            "state": lambda: self._tree(self._state),
            "rng": lambda: self.seed_generator.next() if training else None,
            "inputs": lambda: inputs,
            "training": lambda: bool(training),
        }
        outputs = self.call_fn(**{name: available[name]() for name in self._call_args})
        if "state" not in self._call_args:
            return outputs
        outputs, new_state = outputs
        if self._state is not None:
            values = tree.flatten(new_state)
            if len(values) != len(self._state[1]):
                raise ValueError(
                    f"{self._label()}: call_fn returned a state of {len(values)} arrays; the "
                    f"layer holds {len(self._state[1])}."
                )
            for variable, value in zip(self._state[1], values):
                variable.assign(value)
        return outputs

    def get_config(self):
        """The base layer config: the function itself cannot be saved (see `from_config`)."""
        return {**super().get_config(), "seed": self.seed}

    @classmethod
    def from_config(cls, config):
        """Always an error: the wrapped JAX code cannot be rebuilt from a config."""
        raise ValueError(
            f"{cls.__name__} '{config.get('name')}' wraps Python code that a saved config cannot "
            f"rebuild. Create the {cls.__name__} again in code and call load_weights(), or build "
            f"it inside the __init__ of a registered Layer subclass "
            "(tripod.saving.register_keras_serializable), which then loads with load_model."
        )


class FlaxLayer(JaxLayer):
    """A Flax linen module as a layer (jax backend, `flax` installed).

    The layer runs the module's `__call__` (or `method`). Its variables become the layer's:
    the "params" collection trainable, every other collection (e.g. "batch_stats")
    non-trainable state that training updates. The layer's `training` flag reaches the module
    as `training`, or as `deterministic` inverted, when its method takes one; dropout draws
    its keys from the layer's seed. Like `JaxLayer`, it cannot be rebuilt from a config.

    Args:
        module: a `flax.linen.Module` instance.
        method: a method of the module's class to run instead of `__call__` (e.g.
            `MyModule.encode`); default None.
        variables: the module's variables as `module.init` returns them (a dict with
            "params" and any other collections); default None, made by `module.init` on the
            first call.
        **kwargs: `seed` (int, seed of the dropout keys) and the `Layer` arguments (name,
            dtype, trainable, ...).

    Raises:
        RuntimeError: the active backend is not jax.
        ImportError: flax is not installed.
        TypeError: `module` is not a Flax module.

    Examples:
        >>> import flax.linen as nn
        >>> layer = tripod.layers.FlaxLayer(nn.Dense(4))
        >>> tuple(layer(np.ones((2, 3))).shape)
        (2, 4)
        >>> sorted(tuple(w.shape) for w in layer.trainable_weights)
        [(3, 4), (4,)]
    """

    def __init__(self, module, method=None, variables=None, **kwargs):
        _require_jax(type(self).__name__)
        require("flax", "flax", "FlaxLayer")
        if not (hasattr(module, "init") and hasattr(module, "apply")):
            raise TypeError(
                f"FlaxLayer: module must be a flax.linen.Module; received {type(module).__name__}."
            )
        self.module, self.method = module, method
        self._mode_arg = self._training_argument(module, method)
        params = state = None
        if variables is not None:
            params = variables["params"]
            state = {key: value for key, value in variables.items() if key != "params"}
        super().__init__(self._apply, init_fn=self._init, params=params, state=state, **kwargs)

    @staticmethod
    def _training_argument(module, method):
        """ "training" or "deterministic" when the method takes it, else None."""
        fn = module.__call__ if method is None else method
        names = inspect.signature(fn).parameters
        return next((name for name in ("training", "deterministic") if name in names), None)

    def _mode(self, training):
        """The keyword arguments telling the module whether it is training."""
        if self._mode_arg is None:
            return {}
        return {self._mode_arg: bool(training) if self._mode_arg == "training" else not training}

    def _init(self, rng, inputs):
        """The module's variables, split into (params, other collections)."""
        keys = {"params": rng, "dropout": ops.add(rng, ops.convert_to_tensor([1, 0], "uint32"))}
        made = self.module.init(keys, inputs, method=self.method, **self._mode(True))
        made = dict(made)
        return made.pop("params", {}), made

    def _apply(self, params, state, rng, inputs, training):
        """The module applied; the non-params collections are mutable and returned updated."""
        variables = {"params": params, **state}
        mutable = sorted(state) if state else False
        rngs = {} if rng is None else {"dropout": rng}
        result = self.module.apply(
            variables,
            inputs,
            rngs=rngs,
            method=self.method,
            mutable=mutable,
            **self._mode(training),
        )
        if not mutable:
            return result, state
        outputs, updated = result
        return outputs, {key: updated.get(key, state[key]) for key in state}
