"""`DeviceMesh` and `TensorLayout`: how devices are arranged, and how a tensor lies on them."""

import math
import re

import numpy as np

from tripod.distribution import processes


class DeviceMesh:
    """Devices arranged in a named grid, e.g. shape (2, 4) with axes ("batch", "model").

    `devices` (strings such as "cpu:0", or None for every device of the run) fill the grid in
    row-major order; their number must equal the grid's size.
    """

    def __init__(self, shape, axis_names, devices=None):
        shape, axis_names = tuple(int(n) for n in shape), tuple(axis_names)
        if len(shape) != len(axis_names):
            raise ValueError(
                f"DeviceMesh: shape {shape} and axis_names {axis_names} must have the same length."
            )
        if len(set(axis_names)) != len(axis_names):
            raise ValueError(f"DeviceMesh: axis_names {axis_names} repeat a name.")
        if devices is None:
            devices = processes.list_devices()
        else:
            devices = [device_name(d) for d in np.ravel(np.array(devices, dtype=object))]
        if len(devices) != math.prod(shape):
            raise ValueError(
                f"DeviceMesh: shape {shape} needs {math.prod(shape)} devices, received "
                f"{len(devices)}: {devices}."
            )
        self._shape = shape
        self._axis_names = axis_names
        self._devices = np.array(devices, dtype=object).reshape(shape)

    @property
    def shape(self):
        """The grid's size along each axis."""
        return self._shape

    @property
    def axis_names(self):
        """The name of each axis."""
        return self._axis_names

    @property
    def devices(self):
        """The device strings, as a NumPy array shaped like the mesh."""
        return self._devices

    def axis_size(self, name):
        """How many devices lie along axis `name`."""
        return self._shape[self._axis_names.index(name)]

    def __repr__(self):
        return f"<DeviceMesh shape={self._shape}, axis_names={self._axis_names}>"


def device_name(device):
    """A device as tripod names it ("cpu:0", "gpu:1"): a name, or a framework's device object (a
    jax `Device`, a `torch.device`, a TensorFlow device string such as "/device:GPU:1")."""
    if isinstance(device, str):
        found = re.search(r"(?:device:)?([A-Za-z]+):(\d+)$", device)
        if found is None:
            raise ValueError(f"DeviceMesh: {device!r} is not a device name such as 'cpu:0'.")
        kind = found.group(1).lower()
        return f"{'gpu' if kind == 'cuda' else kind}:{found.group(2)}"
    if hasattr(device, "platform") and hasattr(device, "id"):  # a jax Device
        return f"{device.platform}:{device.id}"
    if hasattr(device, "type") and hasattr(device, "index"):  # a torch.device
        return device_name(f"{device.type}:{device.index or 0}")
    raise TypeError(f"DeviceMesh: expected device names such as 'cpu:0', received {device!r}.")


class TensorLayout:
    """Which mesh axis, if any, splits each dimension of a tensor: `axes` holds one mesh axis
    name or None per dimension (None: that dimension is whole on every device)."""

    def __init__(self, axes, device_mesh=None):
        self._axes = tuple(axes)
        self._device_mesh = None
        if device_mesh is not None:
            self.device_mesh = device_mesh

    @property
    def axes(self):
        """Per dimension, the mesh axis splitting it, or None."""
        return self._axes

    @property
    def device_mesh(self):
        """The mesh the layout refers to (set by a `LayoutMap` or a distribution)."""
        return self._device_mesh

    @device_mesh.setter
    def device_mesh(self, mesh):
        unknown = [axis for axis in self._axes if axis is not None and axis not in mesh.axis_names]
        if unknown:
            raise ValueError(
                f"TensorLayout {self._axes}: axes {unknown} are not axes of the mesh "
                f"{mesh.axis_names}."
            )
        self._device_mesh = mesh

    def check_shape(self, shape, what):
        """A clear error when a mesh axis does not divide the dimension it splits."""
        if len(shape) != len(self._axes):
            raise ValueError(
                f"{what}: the layout {self._axes} has {len(self._axes)} axes, the tensor has shape "
                f"{tuple(shape)}."
            )
        for dim, (size, axis) in enumerate(zip(shape, self._axes)):
            if axis is not None and size % self._device_mesh.axis_size(axis):
                raise ValueError(
                    f"{what}: dimension {dim} (size {size}) of shape {tuple(shape)} does not "
                    f"divide over the {self._device_mesh.axis_size(axis)} devices of mesh axis "
                    f"{axis!r}."
                )

    def __repr__(self):
        return f"<TensorLayout axes={self._axes}>"
