"""`InputSpec`: what a layer accepts (rank, dtype, sizes of given axes), checked on every call."""

from tripod.backends import dtypes
from tripod.backends.common import tree


class InputSpec:
    """The rank, dtype and axis sizes a layer input must have; None leaves a property free."""

    def __init__(
        self,
        dtype=None,
        shape=None,
        ndim=None,
        max_ndim=None,
        min_ndim=None,
        axes=None,
        allow_last_axis_squeeze=False,
        name=None,
        optional=False,
    ):
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
            "dtype": self.dtype,
            "shape": self.shape,
            "ndim": self.ndim,
            "max_ndim": self.max_ndim,
            "min_ndim": self.min_ndim,
            "axes": self.axes,
        }

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def __repr__(self):
        items = ", ".join(f"{k}={v}" for k, v in self.get_config().items() if v not in (None, {}))
        return f"InputSpec({items})"


def _incompatible(layer_name, index, detail):
    """The ValueError for input `index` of layer `layer_name` not fitting its spec."""
    return ValueError(
        f"Input {index} of layer '{layer_name}' is incompatible with the layer: {detail}"
    )


def _wrong_rank(layer_name, index, expected, rank, shape):
    """The ValueError for an input of rank `rank` where the spec wants `expected`."""
    detail = f"expected {expected}, found ndim={rank}. Full shape received: {shape}"
    return _incompatible(layer_name, index, detail)


def _check_one(layer_name, spec, shape, index):
    rank = len(shape)
    if (
        spec.ndim is not None
        and rank != spec.ndim
        and not (spec.allow_last_axis_squeeze and rank in (spec.ndim - 1, spec.ndim + 1))
    ):
        raise _wrong_rank(layer_name, index, f"ndim={spec.ndim}", rank, shape)
    if spec.max_ndim is not None and rank > spec.max_ndim:
        raise _wrong_rank(layer_name, index, f"max_ndim={spec.max_ndim}", rank, shape)
    if spec.min_ndim is not None and rank < spec.min_ndim:
        raise _wrong_rank(layer_name, index, f"min_ndim={spec.min_ndim}", rank, shape)
    for axis, size in spec.axes.items():
        if not -rank <= axis < rank:
            raise _wrong_rank(layer_name, index, f"an axis {axis}", rank, shape)
        actual = shape[axis]
        if size is not None and actual is not None and actual != size:
            detail = (
                f"expected axis {axis} of the input shape to have value {size}, "
                f"but received input with shape {shape}"
            )
            raise _incompatible(layer_name, index, detail)
    if spec.shape is not None:
        for expected, actual in zip(spec.shape, shape):
            if expected is not None and actual is not None and expected != actual:
                detail = f"expected shape={spec.shape}, found shape={shape}"
                raise _incompatible(layer_name, index, detail)


def _check_tensor(layer_name, spec, x, index):
    shape = getattr(x, "shape", None)
    if shape is None:
        raise TypeError(f"Input {index} of layer '{layer_name}' is not a tensor: {x!r}")
    _check_one(layer_name, spec, tuple(shape), index)


def assert_input_compatibility(input_spec, inputs, layer_name):
    """Raise ValueError naming the layer, the expected and the received shape, on a mismatch."""
    if type(input_spec) is InputSpec and not tree.is_nested(inputs):  # the common case: one of each
        if inputs is not None:
            _check_tensor(layer_name, input_spec, inputs, 0)
        return
    if not input_spec:
        return
    specs = tree.flatten(input_spec)
    flat = tree.flatten(inputs)
    if len(flat) < len([s for s in specs if s is not None and not s.optional]):
        raise ValueError(
            f"Layer '{layer_name}' expects {len(specs)} input(s), but it received {len(flat)}."
        )
    for index, (spec, x) in enumerate(zip(specs, flat)):
        if spec is not None and x is not None:
            _check_tensor(layer_name, spec, x, index)
