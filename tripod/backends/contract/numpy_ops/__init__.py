"""NumPy-style array ops, stated in six modules by what they do."""

from tripod.backends.contract.numpy_ops import (
    arrays,
    comparison,
    creation,
    elementwise,
    products,
    reductions,
)

#: the modules stating the numpy-style ops
SECTIONS = (elementwise, comparison, reductions, creation, arrays, products)
