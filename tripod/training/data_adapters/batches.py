"""The shape of a batch: x, (x,), (x, y) or (x, y, sample_weight)."""


def unpack_x_y_sample_weight(data):
    """(x, y, sample_weight) from a batch given as x, (x,), (x, y) or (x, y, sample_weight)."""
    if isinstance(data, list):
        data = tuple(data)
    if not isinstance(data, tuple):
        return data, None, None
    if len(data) == 1:
        return data[0], None, None
    if len(data) == 2:
        return data[0], data[1], None
    if len(data) == 3:
        return data
    raise ValueError(
        f"A batch must be x, (x,), (x, y) or (x, y, sample_weight); received {len(data)} items."
    )


def pack_x_y_sample_weight(x, y=None, sample_weight=None):
    """The batch for x, y and sample_weight in its shortest form: x alone when there is no y
    and x is not a tuple or list (as Keras 3, so a custom `train_step` gets the array itself)."""
    if y is None:
        return (x,) if isinstance(x, (tuple, list)) else x
    if sample_weight is None:
        return (x, y)
    return (x, y, sample_weight)
