"""`Hashing` and `HashedCrossing`: integer (or string) features hashed into a fixed number of bins.

The hash is tripod's own and is the same on every backend (it does not reproduce Keras's
FarmHash bins): each value becomes a 32-bit key (integers: their low 32 bits, xor-ed with the
mixed high 32 bits for 64-bit types; strings, on the host: the 32-bit FNV-1a hash of their UTF-8
bytes), the key goes through MurmurHash3's 32-bit finalizer `fmix32` (after xor-ing each salt),
and the bin is `(hash & 0x7FFFFFFF) % num_bins`. Integer hashing runs on tensors with wrapping
int32 arithmetic, so it traces under jit and runs in input pipelines; string inputs (NumPy
str/object arrays) are keyed on the host. Every helper takes the backend `ops` to compute with.
"""

import numpy as np

import tripod.backends
from tripod.backends import config, dtypes
from tripod.layers.preprocessing import _encoding
from tripod.layers.preprocessing.data_layer import DataLayer

_host = tripod.backends.load("numpy")  # keys of constants (the mask value), computed on the host

_MODES = ("int", "one_hot", "multi_hot", "count")
_C1 = np.int32(np.uint32(0x85EBCA6B).view(np.int32))
_C2 = np.int32(np.uint32(0xC2B2AE35).view(np.int32))
_FNV_PRIME = np.int32(0x01000193)
_FNV_OFFSET = 0x811C9DC5


def _shift_right_logical(ops, h, bits):
    """The unsigned right shift of int32 `h` (right_shift is arithmetic on negative values)."""
    return ops.bitwise_and(ops.right_shift(h, bits), (1 << (32 - bits)) - 1)


def _fmix32(ops, h):
    """MurmurHash3's finalizer on int32 bits: every input bit affects every output bit."""
    h = ops.bitwise_xor(h, _shift_right_logical(ops, h, 16))
    h = ops.multiply(h, ops.convert_to_tensor(_C1))
    h = ops.bitwise_xor(h, _shift_right_logical(ops, h, 13))
    h = ops.multiply(h, ops.convert_to_tensor(_C2))
    return ops.bitwise_xor(h, _shift_right_logical(ops, h, 16))


def _fnv1a(text):
    """The 32-bit FNV-1a hash of a string's UTF-8 bytes, as a signed int32 value."""
    h = _FNV_OFFSET
    for byte in text.encode("utf-8") if isinstance(text, str) else bytes(text):
        h = ((h ^ byte) * 0x01000193) & 0xFFFFFFFF
    return h - (1 << 32) if h >= 1 << 31 else h


def is_string_array(x):
    return (
        isinstance(x, (np.ndarray, list, tuple, str, bytes)) and np.asarray(x).dtype.kind in "USO"
    )


def keys(ops, x, label="Hashing"):
    """The int32 key tensor of integer tensors or host string arrays (`label` names the layer
    in errors)."""
    if is_string_array(x):
        array = np.asarray(x)
        flat = np.fromiter((_fnv1a(v) for v in array.reshape(-1)), dtype=np.int32, count=array.size)
        return ops.convert_to_tensor(flat.reshape(array.shape))
    x = ops.convert_to_tensor(x)
    try:
        dtype = ops.dtype(x)
    except TypeError:  # a dtype tripod has no name for: string tensors (tf.string)
        dtype = None
    if dtype is None or (not dtypes.is_int(dtype) and dtype != "bool"):
        raise TypeError(
            f"{label}: expected integer tensors or NumPy string arrays (strings are hashed on "
            f"the host; string tensors are not supported), received a tensor of dtype {x.dtype}."
        )
    if dtype in ("int64", "uint64", "uint32"):
        low = ops.cast(ops.bitwise_and(x, 0xFFFFFFFF), "int32")
        high = ops.cast(ops.right_shift(x, 32), "int32")
        # high minus the sign of low is 0 for every value in the int32 range, so int32 and int64
        # inputs of equal value get equal keys.
        return ops.bitwise_xor(low, _fmix32(ops, ops.subtract(high, ops.right_shift(low, 31))))
    return ops.cast(x, "int32")


def _salts(salt):
    """The salt as a list of int32 values (none, one or two), validated."""
    if salt is None:
        return []
    values = [salt] if isinstance(salt, int) else list(salt)
    if not 1 <= len(values) <= 2 or not all(isinstance(v, int) for v in values):
        raise ValueError(f"salt must be an integer or a list of two integers, received {salt!r}.")
    return [np.int32(np.uint32(v & 0xFFFFFFFF).view(np.int32)) for v in values]


def to_bins(ops, h, num_bins):
    """Non-negative bins in [0, num_bins) of int32 hashes."""
    return ops.mod(ops.bitwise_and(h, 0x7FFFFFFF), num_bins)


def default_dtype(output_mode):
    """The layer dtype when none is given, as in Keras: int64 bins, or floatx encodings."""
    return "int64" if output_mode == "int" else config.floatx()


def encode_bins(ops, bins, output_mode, num_bins, dtype):
    """int32 `bins` in `output_mode`, in `dtype`: the bins cast ("int"), or their encoding."""
    if output_mode == "int":
        return ops.cast(bins, dtype)
    return _encoding.encode(bins, output_mode, num_bins, dtype, backend=ops)


class Hashing(DataLayer):
    """Hash integer or string values into `num_bins` bins.

    Each value's bin is computed by tripod's own hash (the same on every backend, but not the bins
    Keras's FarmHash gives): integer tensors are hashed on the device, NumPy string arrays (and
    lists of strings) on the host; string tensors are not supported. With `mask_value`, that value
    goes to bin 0 and the others to bins 1 .. num_bins - 1. With `output_mode="int"` the outputs
    are bins of the input's shape; the other modes encode them as in `CategoryEncoding`. Outputs
    are in the layer's dtype, as in Keras: int64 by default for "int" (stored as int32 on JAX
    without 64-bit mode), `tripod.config.floatx()` for the other modes.

    Args:
        num_bins: int > 0 (at least 2 with a `mask_value`), the number of bins.
        mask_value: the value (int or str) sent to bin 0, or None (default).
        salt: None (default), an int, or a list of two ints mixed into the hash, for other bins.
        output_mode: "int" (default), "one_hot", "multi_hot" or "count".
        sparse: bool, must be False (sparse outputs are not supported).
        **kwargs: the `Layer` arguments (name, dtype (default "int64" for "int", else floatx),
            trainable, ...).

    Raises:
        ValueError: `num_bins` is not a positive integer (or is 1 with a `mask_value`), a bad
            `salt`, an unknown `output_mode`, `sparse=True`, or a dtype other than int32 or int64
            with `output_mode="int"`.
        TypeError: the input is neither integers nor NumPy strings (e.g. floats or a string
            tensor).

    Examples:
        >>> layer = tripod.layers.Hashing(num_bins=4)
        >>> tripod.ops.convert_to_numpy(layer(np.array([[1, 2, 3, 4]]))).tolist()
        [[3, 2, 3, 1]]
        >>> tripod.ops.convert_to_numpy(layer(np.array([["a", "b", "c"]]))).tolist()
        [[3, 2, 1]]
        >>> layer = tripod.layers.Hashing(num_bins=4, mask_value=0)
        >>> tripod.ops.convert_to_numpy(layer(np.array([0, 5, 0]))).tolist()
        [0, 3, 0]
    """

    def __init__(
        self, num_bins, mask_value=None, salt=None, output_mode="int", sparse=False, **kwargs
    ):
        if kwargs.get("dtype") is None:
            kwargs["dtype"] = default_dtype(output_mode)
        super().__init__(**kwargs)
        if (
            not isinstance(num_bins, int)
            or isinstance(num_bins, bool)
            or num_bins < (2 if mask_value is not None else 1)
        ):
            raise ValueError(
                f"Hashing '{self.name}': num_bins must be a positive integer (at least 2 with a "
                f"mask_value), received {num_bins!r}."
            )
        _encoding.check_choice(self, "output_mode", output_mode, _MODES)
        _encoding.check_no_sparse(self, sparse)
        self._check_int_dtype(output_mode)
        try:
            self._salt_values = _salts(salt)
        except ValueError as e:
            raise ValueError(f"Hashing '{self.name}': {e}") from None
        self.num_bins = num_bins
        self.mask_value = mask_value
        self._mask_key = (
            None if mask_value is None else int(keys(_host, np.asarray([mask_value]))[0])
        )
        self.salt = salt
        self.output_mode = output_mode
        self.sparse = sparse

    def _check_int_dtype(self, output_mode):
        """Bins are integers: with `output_mode="int"` the dtype must be int32 or int64 (as in
        Keras)."""
        if output_mode == "int" and self.dtype not in ("int32", "int64"):
            raise ValueError(
                f"Hashing '{self.name}': with output_mode='int' the dtype must be 'int32' or "
                f"'int64', received {self.dtype_policy.name!r}."
            )

    def _label(self):
        return f"Hashing '{self.name}'"

    def __call__(self, inputs, **kwargs):
        if is_string_array(inputs):
            return self._hash(inputs)  # host strings: there is no string tensor to build or cast
        return super().__call__(inputs, **kwargs)

    def call(self, inputs):
        return self._hash(inputs)

    def _hash(self, inputs):
        ops = self.backend
        key = keys(ops, inputs, self._label())
        h = key
        for salt in self._salt_values:
            h = ops.bitwise_xor(h, ops.convert_to_tensor(salt))
            h = _fmix32(ops, h)
        if not self._salt_values:
            h = _fmix32(ops, h)
        if self.mask_value is None:
            bins = to_bins(ops, h, self.num_bins)
        else:
            bins = ops.add(to_bins(ops, h, self.num_bins - 1), 1)
            bins = ops.where(ops.equal(key, self._mask_key), 0, bins)
        return encode_bins(ops, bins, self.output_mode, self.num_bins, self.dtype)

    def compute_output_spec(self, inputs):
        shape = _encoding.encoded_shape(inputs.shape, self.output_mode, self.num_bins)
        return _encoding.spec(shape, self.dtype)

    def get_config(self):
        return {
            **super().get_config(),
            "num_bins": self.num_bins,
            "salt": self.salt,
            "mask_value": self.mask_value,
            "output_mode": self.output_mode,
            "sparse": self.sparse,
        }


class HashedCrossing(DataLayer):
    """Hash the cross of several features (a tuple of same-shaped inputs) into `num_bins` bins.

    The values at the same place in every input are hashed together into one bin by tripod's own
    hash (the same on every backend; integer tensors are hashed on the device, NumPy string arrays
    on the host). With `output_mode="int"` the outputs are bins of the inputs' shape; with
    "one_hot" they are one-hot vectors of length `num_bins`. Outputs are in the layer's dtype, as
    in Keras: int64 by default for "int" (stored as int32 on JAX without 64-bit mode),
    `tripod.config.floatx()` for "one_hot".

    Args:
        num_bins: int > 0, the number of bins.
        output_mode: "int" (default) or "one_hot".
        sparse: bool, must be False (sparse outputs are not supported).
        name: str, the layer's name (default: one made from the class name).
        dtype: the layer's dtype (default "int64" for "int", else floatx).
        **kwargs: the other `Layer` arguments (trainable, ...).

    Raises:
        ValueError: `num_bins` is not a positive integer, an unknown `output_mode`,
            `sparse=True`, fewer than two inputs, or inputs of different shapes.
        TypeError: an input is neither integers nor NumPy strings.

    Examples:
        >>> layer = tripod.layers.HashedCrossing(num_bins=5)
        >>> tripod.ops.convert_to_numpy(layer((np.array([1, 2]), np.array([3, 4])))).tolist()
        [2, 0]
        >>> layer = tripod.layers.HashedCrossing(num_bins=5, output_mode="one_hot")
        >>> tuple(layer((np.array([1, 2]), np.array([3, 4]))).shape)
        (2, 5)
    """

    def __init__(self, num_bins, output_mode="int", sparse=False, name=None, dtype=None, **kwargs):
        super().__init__(name=name, dtype=dtype or default_dtype(output_mode), **kwargs)
        if not isinstance(num_bins, int) or isinstance(num_bins, bool) or num_bins < 1:
            raise ValueError(
                f"HashedCrossing '{self.name}': num_bins must be a positive integer, received "
                f"{num_bins!r}."
            )
        _encoding.check_choice(self, "output_mode", output_mode, ("int", "one_hot"))
        _encoding.check_no_sparse(self, sparse)
        self.num_bins = num_bins
        self.output_mode = output_mode
        self.sparse = sparse

    def __call__(self, inputs, **kwargs):
        if isinstance(inputs, (list, tuple)) and any(is_string_array(x) for x in inputs):
            return self.call(inputs)  # host strings: there is no string tensor to build or cast
        return super().__call__(inputs, **kwargs)

    def call(self, inputs):
        if not isinstance(inputs, (list, tuple)) or len(inputs) < 2:
            raise ValueError(
                f"HashedCrossing '{self.name}': expected a tuple of at least two inputs, received "
                f"{type(inputs).__name__}."
            )
        shapes = [tuple(x.shape) if hasattr(x, "shape") else np.shape(x) for x in inputs]
        if any(shape != shapes[0] for shape in shapes[1:]):  # a list: traced sizes do not hash
            raise ValueError(
                f"HashedCrossing '{self.name}': all inputs must have the same shape, received "
                f"shapes {shapes}."
            )
        ops = self.backend
        label = f"HashedCrossing '{self.name}'"
        h = _fmix32(ops, keys(ops, inputs[0], label))
        for x in inputs[1:]:
            h = ops.multiply(h, ops.convert_to_tensor(_FNV_PRIME))
            h = _fmix32(ops, ops.bitwise_xor(h, keys(ops, x, label)))
        bins = to_bins(ops, h, self.num_bins)
        return encode_bins(ops, bins, self.output_mode, self.num_bins, self.dtype)

    def compute_output_spec(self, inputs):
        shape = _encoding.encoded_shape(inputs[0].shape, self.output_mode, self.num_bins)
        return _encoding.spec(shape, self.dtype)

    def get_config(self):
        return {
            "num_bins": self.num_bins,
            "output_mode": self.output_mode,
            "sparse": self.sparse,
            "name": self.name,
            "dtype": self.dtype_policy.name,
        }
