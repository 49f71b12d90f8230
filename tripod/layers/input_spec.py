"""`InputSpec`: what a layer accepts (rank, dtype, sizes of given axes), checked on every call."""

from tripod.backends import dtypes
from tripod.backends.common import tree


class InputSpec:
    """The rank, dtype and axis sizes a layer input must have; None leaves a property free."""

    def __init__(self, dtype=None, shape=None, ndim=None, max_ndim=None, min_ndim=None, axes=None,
                 allow_last_axis_squeeze=False, name=None, optional=False):  # fmt: skip
        self.dtype = dtypes.standardize_dtype(dtype) if dtype is not None else None
        self.shape = tuple(shape) if shape is not None else None
        self.ndim = len(self.shape) if self.shape is not None else ndim
        self.max_ndim = max_ndim
        self.min_ndim = min_ndim
        self.axes = {int(k): v for k, v in (axes or {}).items()}
        self.allow_last_axis_squeeze = allow_last_axis_squeeze
        self.name = name
        self.optional = optional

    def get_config(self):
        """The spec's arguments, as a dict."""
        return {
            "dtype": self.dtype, "shape": self.shape, "ndim": self.ndim, "max_ndim": self.max_ndim,
            "min_ndim": self.min_ndim, "axes": self.axes,
        }  # fmt: skip

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def __repr__(self):
        items = ", ".join(f"{k}={v}" for k, v in self.get_config().items() if v not in (None, {}))
        return f"InputSpec({items})"


def _check_one(layer_name, spec, shape, index):
    where = f"Input {index} of layer '{layer_name}'"
    rank = len(shape)
    if spec.ndim is not None and rank != spec.ndim and not (
        spec.allow_last_axis_squeeze and rank in (spec.ndim - 1, spec.ndim + 1)
    ):
        raise ValueError(f"{where} is incompatible with the layer: expected ndim={spec.ndim}, "
                         f"found ndim={rank}. Full shape received: {shape}")  # fmt: skip
    if spec.max_ndim is not None and rank > spec.max_ndim:
        raise ValueError(f"{where} is incompatible with the layer: expected max_ndim="
                         f"{spec.max_ndim}, found ndim={rank}. Full shape received: {shape}")  # fmt: skip
    if spec.min_ndim is not None and rank < spec.min_ndim:
        raise ValueError(f"{where} is incompatible with the layer: expected min_ndim="
                         f"{spec.min_ndim}, found ndim={rank}. Full shape received: {shape}")  # fmt: skip
    for axis, size in spec.axes.items():
        if not -rank <= axis < rank:
            raise ValueError(f"{where} is incompatible with the layer: expected an axis {axis}, "
                             f"found ndim={rank}. Full shape received: {shape}")  # fmt: skip
        actual = shape[axis]
        if size is not None and actual is not None and actual != size:
            raise ValueError(f"{where} is incompatible with the layer: expected axis {axis} of "
                             f"the input shape to have value {size}, but received input with "
                             f"shape {shape}")  # fmt: skip
    if spec.shape is not None:
        for expected, actual in zip(spec.shape, shape):
            if expected is not None and actual is not None and expected != actual:
                raise ValueError(f"{where} is incompatible with the layer: expected shape="
                                 f"{spec.shape}, found shape={shape}")  # fmt: skip


def assert_input_compatibility(input_spec, inputs, layer_name):
    """Raise ValueError naming the layer, the expected and the received shape, on a mismatch."""
    if not input_spec:
        return
    specs = tree.flatten(input_spec)
    flat = tree.flatten(inputs)
    if len(flat) < len([s for s in specs if s is not None and not s.optional]):
        raise ValueError(
            f"Layer '{layer_name}' expects {len(specs)} input(s), but it received {len(flat)}."
        )
    for index, (spec, x) in enumerate(zip(specs, flat)):
        if spec is None or x is None:
            continue
        shape = getattr(x, "shape", None)
        if shape is None:
            raise TypeError(f"Input {index} of layer '{layer_name}' is not a tensor: {x!r}")
        _check_one(layer_name, spec, tuple(shape), index)
