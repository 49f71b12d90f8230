"""NumPy-style array ops, stated in four modules by what they do."""

from tripod.backends.contract.numpy_ops import arrays, creation, elementwise, reductions

#: the modules stating the numpy-style ops
SECTIONS = (elementwise, reductions, creation, arrays)
