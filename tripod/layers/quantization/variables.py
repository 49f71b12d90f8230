"""Adding and swapping a layer's variables after it was built, as LoRA and quantization do."""

from tripod.layers.tracking import structure_changed


def add(layer, **kwargs):
    """`layer.add_weight(**kwargs)`, allowed even after the layer was called."""
    locked = layer._state_locked
    layer._state_locked = False
    try:
        return layer.add_weight(**kwargs)
    finally:
        layer._state_locked = locked


def replace(layer, attribute, new):
    """Put variable `new` where `layer.<attribute>` was, in the attribute and in the layer's
    variable order."""
    old = getattr(layer, attribute)
    own = [v for v in layer._own_variables if v is not new]
    own[next(i for i, v in enumerate(own) if v is old)] = new
    layer._own_variables[:] = own
    setattr(layer, attribute, new)
    structure_changed()
