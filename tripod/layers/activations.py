"""Activation functions (`tripod.activations`), looked up by name in layer configs."""

from tripod.backends import active
from tripod.layers.operation import recorded
from tripod.saving import registry, serialization

ops = active()


def relu(x, negative_slope=0.0, max_value=None, threshold=0.0):
    """max(x, 0), with an optional slope below `threshold` and a ceiling at `max_value`; each
    common case is one backend kernel (relu, leaky relu, or a clip for ReLU6-style ceilings)."""
    if threshold == 0.0 and negative_slope == 0.0:
        return ops.relu(x) if max_value is None else ops.clip(x, 0.0, max_value)
    if threshold == 0.0:
        y = ops.leaky_relu(x, negative_slope=negative_slope)
    else:
        below = ops.less(x, threshold)
        y = ops.where(below, ops.multiply(ops.subtract(x, threshold), negative_slope), x)
    return y if max_value is None else ops.minimum(y, max_value)


def leaky_relu(x, negative_slope=0.2):
    """x where x >= 0, else negative_slope * x."""
    return ops.leaky_relu(x, negative_slope=negative_slope)


def elu(x, alpha=1.0):
    """x where x > 0, else alpha * (exp(x) - 1)."""
    return ops.elu(x, alpha=alpha)


def celu(x, alpha=1.0):
    """Continuously differentiable ELU."""
    return ops.celu(x, alpha=alpha)


def gelu(x, approximate=False):
    """Gaussian error linear unit (exact by default, as Keras's activation)."""
    return ops.gelu(x, approximate=approximate)


def glu(x, axis=-1):
    """Gated linear unit: first half times sigmoid of the second half along `axis`."""
    return ops.glu(x, axis=axis)


def softmax(x, axis=-1):
    """exp(x) normalized to sum to 1 along `axis`."""
    return ops.softmax(x, axis=axis)


def log_softmax(x, axis=-1):
    """log(softmax(x)), computed stably."""
    return ops.log_softmax(x, axis=axis)


def sparsemax(x, axis=-1):
    """Euclidean projection of x onto the probability simplex along `axis`."""
    return ops.sparsemax(x, axis=axis)


def hard_shrink(x, threshold=0.5):
    """x where |x| > threshold, else 0."""
    return ops.hard_shrink(x, threshold=threshold)


def soft_shrink(x, threshold=0.5):
    """x shrunk towards 0 by `threshold`, 0 inside it."""
    return ops.soft_shrink(x, threshold=threshold)


def squareplus(x, b=4):
    """(x + sqrt(x^2 + b)) / 2, a smooth ReLU."""
    return ops.squareplus(x, b=b)


def threshold(x, threshold, default_value):
    """x where x > threshold, else `default_value`."""
    return ops.threshold(x, threshold, default_value)


def exponential(x):
    """exp(x)."""
    return ops.exp(x)


def linear(x):
    """The identity: x unchanged."""
    return x


def mish(x):
    """x * tanh(softplus(x))."""
    return ops.multiply(x, ops.tanh(ops.softplus(x)))


def _unary(op_name, doc):
    """An activation that applies the backend op of the same name."""

    def activation(x):
        return getattr(ops, op_name)(x)

    activation.__name__ = activation.__qualname__ = op_name
    activation.__doc__ = doc
    return activation


sigmoid = _unary("sigmoid", "1 / (1 + exp(-x)).")
tanh = _unary("tanh", "Hyperbolic tangent.")
softplus = _unary("softplus", "log(1 + exp(x)).")
softsign = _unary("softsign", "x / (1 + |x|).")
silu = _unary("silu", "x * sigmoid(x).")
swish = _unary("swish", "x * sigmoid(x) (the same as silu).")
selu = _unary("selu", "Scaled ELU, self-normalizing.")
relu6 = _unary("relu6", "min(max(x, 0), 6).")
hard_sigmoid = _unary("hard_sigmoid", "A piecewise-linear sigmoid.")
hard_silu = _unary("hard_silu", "x * hard_sigmoid(x).")
hard_swish = _unary("hard_swish", "x * hard_sigmoid(x) (the same as hard_silu).")
hard_tanh = _unary("hard_tanh", "clip(x, -1, 1).")
log_sigmoid = _unary("log_sigmoid", "log(sigmoid(x)), computed stably.")
tanh_shrink = _unary("tanh_shrink", "x - tanh(x).")
sparse_plus = _unary("sparse_plus", "A sparse, smooth ReLU.")
sparse_sigmoid = _unary("sparse_sigmoid", "A sparse sigmoid.")

# On a KerasTensor each records a node of the functional graph (`recorded`), as Keras's
# activations do; the identity returns its input, as Keras's `linear` does.
ALL = {
    fn.__name__: fn if fn is linear else recorded(fn, f"{fn.__name__}_activation")
    for fn in (
        relu,
        leaky_relu,
        elu,
        celu,
        gelu,
        glu,
        softmax,
        log_softmax,
        sparsemax,
        hard_shrink,
        soft_shrink,
        squareplus,
        threshold,
        exponential,
        linear,
        mish,
        sigmoid,
        tanh,
        softplus,
        softsign,
        silu,
        swish,
        selu,
        relu6,
        hard_sigmoid,
        hard_silu,
        hard_swish,
        hard_tanh,
        log_sigmoid,
        tanh_shrink,
        sparse_plus,
        sparse_sigmoid,
    )
}
globals().update(ALL)
for _fn in ALL.values():
    registry.register_builtin(_fn, "keras.activations")


def serialize(activation):
    """The name of a built-in activation, else the config of a registered one."""
    name = getattr(activation, "__name__", None)
    if ALL.get(name) is activation:
        return name
    return serialization.serialize_keras_object(activation)


def deserialize(config, custom_objects=None):
    """An activation function from its name or config."""
    return get(
        config
        if isinstance(config, str)
        else serialization.deserialize_keras_object(config, custom_objects)
    )


def get(identifier):
    """An activation from None (linear), a name, a config or a callable."""
    if identifier is None:
        return linear
    if isinstance(identifier, str):
        fn = ALL.get(identifier) or registry.get_registered_object(identifier)
        if fn is None:
            raise ValueError(f"Unknown activation function: {identifier!r}.")
        return fn
    if isinstance(identifier, dict):
        return deserialize(identifier)
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret an activation from {identifier!r}.")


# Their public home is `tripod.activations`: the module `help()` names and pickle finds them in.
for _fn in (*ALL.values(), serialize, deserialize, get):
    _fn.__module__ = "tripod.activations"
