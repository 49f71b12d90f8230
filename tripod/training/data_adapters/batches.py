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
    raise ValueError(f"A batch must be x, (x,), (x, y) or (x, y, sample_weight); received {len(data)} items.")


def pack_x_y_sample_weight(x, y=None, sample_weight=None):
    """The batch tuple for x, y and sample_weight (shortest form)."""
    if y is None:
        return (x,)
    if sample_weight is None:
        return (x, y)
    return (x, y, sample_weight)
