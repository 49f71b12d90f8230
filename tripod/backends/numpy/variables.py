"""The numpy backend's `Variable`: a NumPy array in a mutable holder."""

import numpy as np

from tripod.backends.common import variables
from tripod.backends.numpy.core import convert_to_tensor


class Variable(variables.Variable):
    """A variable holding a NumPy array."""

    _backend_name = "numpy"

    def _to_native(self, value):
        return convert_to_tensor(value, dtype=self._dtype)

    def _store(self, native):
        self._array = np.array(
            native
        )  # an own copy, as on every backend: the caller's array may change

    def _read(self):
        return self._array

    def _write(self, native):
        self._array = np.array(native)
