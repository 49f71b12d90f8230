"""`Discretization`: values bucketed by sorted bin boundaries (given, or adapted as quantiles)."""

import numpy as np

from tripod.layers.preprocessing import _encoding
from tripod.layers.preprocessing.data_layer import Constant, DataLayer

_MODES = ("int", "one_hot", "multi_hot", "count")


class Discretization(DataLayer):
    """Bucket each value by sorted bin boundaries: index `i` where `b[i - 1] <= x < b[i]`.

    A value below the first boundary gets 0 and one at or above the last gets
    `len(bin_boundaries)`. The boundaries are given, or set by `adapt(data)` to `num_bins - 1`
    exact ("lower") quantiles of the data, computed on the host. With `output_mode="int"` the
    outputs are int bucket indices of the input's shape; the other modes encode them as in
    `CategoryEncoding`, over `len(bin_boundaries) + 1` buckets.

    Args:
        bin_boundaries: sorted list of numbers, the boundaries; default None (set by `adapt`).
        num_bins: int > 0, the number of buckets `adapt` makes; only without `bin_boundaries`.
        epsilon: float, kept in the config only (the quantiles are exact); default 0.01.
        output_mode: "int" (default), "one_hot", "multi_hot" or "count".
        sparse: bool, must be False (sparse outputs are not supported).
        dtype: the layer's dtype policy (default: the global policy).
        name: str, the layer's name (default: one made from the class name).

    Raises:
        ValueError: both `bin_boundaries` and `num_bins` are given, `num_bins` is not a positive
            integer, unsorted `bin_boundaries`, an unknown `output_mode`, `sparse=True`, `adapt`
            without `num_bins`, or a call before the boundaries are set.

    Examples:
        >>> layer = tripod.layers.Discretization(bin_boundaries=[0.0, 1.0, 2.0])
        >>> tripod.ops.convert_to_numpy(layer(np.array([[-1.5, 0.5, 1.0, 3.0]]))).tolist()
        [[0, 1, 2, 3]]
        >>> layer = tripod.layers.Discretization(num_bins=4)
        >>> layer.adapt(np.arange(8.0))
        >>> layer.bin_boundaries
        [1.0, 3.0, 5.0]
    """

    def __init__(
        self,
        bin_boundaries=None,
        num_bins=None,
        epsilon=0.01,
        output_mode="int",
        sparse=False,
        dtype=None,
        name=None,
    ):
        super().__init__(dtype=dtype, name=name)
        if bin_boundaries is not None and num_bins is not None:
            raise ValueError(
                f"Discretization '{self.name}': pass bin_boundaries or num_bins, not both."
            )
        if num_bins is not None and (not isinstance(num_bins, int) or num_bins < 1):
            raise ValueError(
                f"Discretization '{self.name}': num_bins must be a positive integer, received "
                f"{num_bins!r}."
            )
        _encoding.check_choice(self, "output_mode", output_mode, _MODES)
        _encoding.check_no_sparse(self, sparse)
        self.num_bins = num_bins
        self.epsilon = epsilon
        self.output_mode = output_mode
        self.sparse = sparse
        self._set_boundaries(bin_boundaries)

    def _set_boundaries(self, bin_boundaries):
        self.bin_boundaries = None if bin_boundaries is None else [float(b) for b in bin_boundaries]
        if self.bin_boundaries is not None:
            if any(b > a for a, b in zip(self.bin_boundaries[1:], self.bin_boundaries)):
                raise ValueError(
                    f"Discretization '{self.name}': bin_boundaries must be sorted, received "
                    f"{bin_boundaries!r}."
                )
            self._boundaries = Constant(self.bin_boundaries, self.compute_dtype)

    def adapt(self, data):
        """Set the bin boundaries to the quantiles of `data` (arrays or an iterable of batches)."""
        if self.num_bins is None:
            raise ValueError(f"Discretization '{self.name}': adapt() needs num_bins.")
        values = np.concatenate([b.reshape(-1) for b in _encoding.iterate_batches(data)]).astype(
            np.float64
        )
        quantiles = np.linspace(0.0, 1.0, self.num_bins + 1)[1:-1]
        self._set_boundaries(np.quantile(values, quantiles, method="lower").tolist())

    def _depth(self):
        return len(self.bin_boundaries) + 1

    def call(self, inputs):
        if self.bin_boundaries is None:
            raise ValueError(
                f"Discretization '{self.name}': call adapt() or pass bin_boundaries before calling "
                "the layer."
            )
        ops = self.backend
        indices = ops.digitize(ops.cast(inputs, self.compute_dtype), self._boundaries.on(ops))
        return _encoding.encode(
            indices, self.output_mode, self._depth(), self.compute_dtype, backend=ops
        )

    def compute_output_spec(self, inputs):
        depth = self._depth() if self.bin_boundaries is not None else self.num_bins
        shape = _encoding.encoded_shape(inputs.shape, self.output_mode, depth)
        return _encoding.spec(shape, "int32" if self.output_mode == "int" else self.compute_dtype)

    def get_config(self):
        return {
            "bin_boundaries": self.bin_boundaries,
            "num_bins": self.num_bins,
            "epsilon": self.epsilon,
            "output_mode": self.output_mode,
            "sparse": self.sparse,
            "name": self.name,
            "dtype": self.dtype_policy.name,
        }
