"""`tripod.ops`: every op of the active backend, with Keras 3 names and signatures; the ops are
built in tripod/api/ops.py from the ops contract, and each kind has its namespace (`tripod.ops.nn`,
...), all at the top here but image (as in Keras 3)."""

from tripod.ops import core, image, linalg, math, nn, numpy

# each kind module names its ops in `__all__`
from tripod.ops.core import *
from tripod.ops.linalg import *
from tripod.ops.math import *
from tripod.ops.nn import *
from tripod.ops.numpy import *

__all__ = (
    ["core", "image", "linalg", "math", "nn", "numpy"]
    + core.__all__
    + linalg.__all__
    + math.__all__
    + nn.__all__
    + numpy.__all__
)
