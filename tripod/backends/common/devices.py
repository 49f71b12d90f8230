"""`device(name)`, and device names as Keras writes them ("cpu", "gpu:1", "/GPU:0"), parsed once
for every backend."""

from tripod.backends import config
from tripod.backends.common.assemble import load


def parse_device(device_name):
    """`(type, index)` of a device name: `"gpu:1"` -> `("gpu", 1)`, `"cpu"` -> `("cpu", 0)`;
    `cuda` is read as `gpu`. A ValueError names what was received."""
    if not isinstance(device_name, str) or not device_name.strip():
        raise ValueError(
            f"device: expected a device name such as 'cpu' or 'gpu:0', received {device_name!r}."
        )
    text = device_name.strip().lower().rsplit("/", 1)[-1].removeprefix("device:")
    kind, _, index = text.partition(":")
    kind = "gpu" if kind == "cuda" else kind
    if not kind.isidentifier() or (index and not index.isdigit()):
        raise ValueError(
            f"device: cannot read the device name {device_name!r}; expected e.g. 'cpu', 'gpu:1'."
        )
    return kind, int(index or 0)


def device(device_name):
    """A context manager placing the tensors created inside it on `device_name` (`"cpu"`,
    `"gpu:0"`, ...), through the active backend's own device scope."""
    return load(config.backend()).device_scope(device_name)
