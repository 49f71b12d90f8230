"""Neural-network ops, stated in four modules by what they do."""

from tripod.backends.contract.nn import activations, conv, losses, normalization

#: the modules stating the neural-network ops
SECTIONS = (activations, conv, losses, normalization)
