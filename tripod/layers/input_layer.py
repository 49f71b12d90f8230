"""`InputLayer` and `Input`: where a functional graph starts."""

from tripod.backends import dtypes
from tripod.backends.common.keras_tensor import KerasTensor
from tripod.layers.layer import Layer
from tripod.layers.node import Node


class InputLayer(Layer):
    """The layer behind `tripod.Input`: holds the symbolic tensor a functional graph starts
    from.

    Usually made by `tripod.Input(...)`; as the first layer of a `Sequential` model it fixes
    the model's input shape. It has no weights; calling the model feeds data in its place.

    Args:
        shape: tuple of ints (None for a size that varies) or an int, the shape of one example,
            without the batch axis.
        batch_size: int, a fixed batch size; default None (any).
        dtype: the input's dtype; default floatx ("float32").
        sparse: bool, accepted for Keras compatibility; tripod's tensors are dense.
        ragged: bool, accepted for Keras compatibility; tripod's tensors are dense.
        batch_shape: the full shape, batch axis included, instead of `shape` and `batch_size`.
        input_tensor: an existing `KerasTensor` to hold instead of a new one (its shape and
            dtype win).
        optional: bool, the model accepts None for this input (default False).
        name: str, the layer's (and the tensor's) name; default a unique one.
        **kwargs: the `Layer` arguments; Keras 2's `input_shape` and `batch_input_shape` are
            read as `shape` and `batch_shape`.

    Raises:
        ValueError: both or neither of `shape` and `batch_shape` given, or an `input_tensor`
            that is not a `KerasTensor`.

    Examples:
        >>> layer = tripod.layers.InputLayer(shape=(3,), batch_size=8)
        >>> layer.batch_shape, layer.dtype
        ((8, 3), 'float32')
        >>> first = tripod.layers.InputLayer(shape=(4,))
        >>> model = tripod.Sequential([first, tripod.layers.Dense(2)])
        >>> model.output_shape
        (None, 2)
    """

    def __init__(
        self,
        shape=None,
        batch_size=None,
        dtype=None,
        sparse=None,
        ragged=None,
        batch_shape=None,
        input_tensor=None,
        optional=False,
        name=None,
        **kwargs,
    ):
        if "input_shape" in kwargs:
            shape = kwargs.pop("input_shape")
        if "batch_input_shape" in kwargs:
            batch_shape = kwargs.pop("batch_input_shape")
        super().__init__(name=name, **kwargs)
        if shape is not None and batch_shape is not None:
            raise ValueError("InputLayer: pass either `shape` or `batch_shape`, not both.")
        if input_tensor is not None:
            if not isinstance(input_tensor, KerasTensor):
                raise ValueError(
                    f"InputLayer: input_tensor must be a KerasTensor, received {input_tensor!r}."
                )
            batch_shape, dtype = input_tensor.shape, input_tensor.dtype
        if batch_shape is None:
            if shape is None:
                raise ValueError(
                    "InputLayer: pass a `shape` (without the batch dimension) or a `batch_shape`."
                )
            if isinstance(shape, int):
                shape = (shape,)
            batch_shape = (batch_size,) + tuple(shape)
        self._batch_shape = tuple(None if d is None else int(d) for d in batch_shape)
        self._dtype = dtypes.standardize_dtype(dtype)
        self.sparse, self.ragged, self.optional = bool(sparse), bool(ragged), optional
        self.built = True
        tensor = (
            input_tensor
            if input_tensor is not None
            else KerasTensor(self._batch_shape, self._dtype, name=self.name)
        )
        Node(self, (), {}, tensor)
        self._output_tensor = tensor

    @property
    def batch_shape(self):
        """The input shape, batch dimension first (None where unknown)."""
        return self._batch_shape

    @property
    def dtype(self):
        return self._dtype

    def call(self):
        return self._output_tensor

    def get_config(self):
        return {
            "batch_shape": list(self._batch_shape),
            "dtype": self._dtype,
            "sparse": self.sparse,
            "ragged": self.ragged,
            "name": self.name,
            "optional": self.optional,
        }


def Input(
    shape=None,
    batch_size=None,
    dtype=None,
    sparse=None,
    ragged=None,
    batch_shape=None,
    name=None,
    tensor=None,
    optional=False,
):
    """A symbolic input tensor: the start of a functional model.

    Layers called on it return symbolic tensors with their output shapes, which
    `tripod.Model(inputs, outputs)` turns into a model; no data flows until the model is called.

    Args:
        shape: tuple of ints (None for a size that varies), the shape of one example, without
            the batch axis.
        batch_size: int, a fixed batch size; default None (any).
        dtype: the input's dtype (default floatx, "float32"); e.g. "int32" for token ids.
        sparse: bool, accepted for Keras compatibility; tripod's tensors are dense.
        ragged: bool, accepted for Keras compatibility; tripod's tensors are dense.
        batch_shape: the full shape, batch axis included, instead of `shape` and `batch_size`.
        name: str, the input's name (the key of a dict of inputs); default a unique one.
        tensor: an existing symbolic tensor to wrap instead of creating one.
        optional: bool, the model accepts None for this input.

    Returns:
        A `KerasTensor` with `shape` (batch axis first) and `dtype`.

    Raises:
        ValueError: both or neither of `shape` and `batch_shape` given.

    Examples:
        >>> x = tripod.Input((28, 28, 1), name="image")
        >>> x.shape, x.dtype
        ((None, 28, 28, 1), 'float32')
        >>> tripod.layers.Dense(10)(x).shape
        (None, 28, 28, 10)
    """
    layer = InputLayer(
        shape=shape,
        batch_size=batch_size,
        dtype=dtype,
        sparse=sparse,
        ragged=ragged,
        batch_shape=batch_shape,
        input_tensor=tensor,
        optional=optional,
        name=name,
    )
    return layer.output
