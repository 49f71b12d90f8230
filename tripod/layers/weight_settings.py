"""The initializer, regularizer and constraint a layer keeps for each of its weights.

A layer with a weight `kernel` takes the arguments `kernel_initializer`, `kernel_regularizer` and
`kernel_constraint`, keeps them resolved as attributes of the same names, creates the weight with
them and lists them, serialized, in its config. These three steps are written once here.
"""

from tripod.layers import constraints, initializers, regularizers

# Keras lists a layer's settings by kind: every initializer, then every regularizer, then every
# constraint.
_KINDS = (("initializer", initializers), ("regularizer", regularizers), ("constraint", constraints))


def resolve(layer, prefix, initializer, regularizer, constraint):
    """Set `layer.<prefix>_initializer`, `_regularizer` and `_constraint` from their arguments
    (names, configs or objects)."""
    for (kind, module), value in zip(_KINDS, (initializer, regularizer, constraint)):
        setattr(layer, f"{prefix}_{kind}", module.get(value))


def add(layer, prefix, shape, name=None, initializer=None):
    """A weight of `layer` (named `name`, else `prefix`) created with the layer's settings for
    `prefix`; `initializer` replaces the kept one."""
    return layer.add_weight(
        shape=shape,
        name=name or prefix,
        initializer=getattr(layer, f"{prefix}_initializer") if initializer is None else initializer,
        regularizer=getattr(layer, f"{prefix}_regularizer"),
        constraint=getattr(layer, f"{prefix}_constraint"),
    )


def config(layer, *prefixes):
    """The serialized settings of `prefixes` as config entries, by kind then in the given order;
    a setting the layer does not keep (e.g. an `activity_initializer`) is left out."""
    return {
        f"{prefix}_{kind}": module.serialize(getattr(layer, f"{prefix}_{kind}"))
        for kind, module in _KINDS
        for prefix in prefixes
        if hasattr(layer, f"{prefix}_{kind}")
    }
