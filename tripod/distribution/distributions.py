"""`DataParallel` and `ModelParallel`: how a model's variables and batches lie on the devices.

A distribution is set for the whole program (`set_distribution`) or for a block
(`with distribution.scope():`); `fit`, `evaluate` and `predict` then run on its devices through
the backend's own engine (`jax.sharding`, `torch.distributed`, `tf.distribute`).
"""

import contextlib

from tripod.backends import active
from tripod.distribution import processes
from tripod.distribution.layout_map import LayoutMap
from tripod.distribution.mesh import DeviceMesh, TensorLayout

ops = active()

_current = None


def distribution():
    """The distribution in effect (set by `set_distribution` or a `scope()`), or None."""
    return _current


def set_distribution(value):
    """Make `value` (a `DataParallel`, `ModelParallel` or None) the distribution in effect."""
    global _current
    if value is not None and not isinstance(value, Distribution):
        raise TypeError(f"set_distribution: expected a Distribution or None, received {value!r}.")
    _current = value


class Distribution:
    """The base of every distribution: a device mesh and the mesh axis the batch is split over."""

    #: whether some variables are split over devices (ModelParallel)
    model_parallel = False

    def __init__(self, device_mesh, batch_dim_name=None, auto_shard_dataset=True):
        if not isinstance(device_mesh, DeviceMesh):
            raise TypeError(
                f"{type(self).__name__}: device_mesh must be a DeviceMesh, received {device_mesh!r}."
            )
        self._device_mesh = device_mesh
        self._batch_dim_name = batch_dim_name or device_mesh.axis_names[0]
        if self._batch_dim_name not in device_mesh.axis_names:
            raise ValueError(
                f"{type(self).__name__}: batch_dim_name {self._batch_dim_name!r} is not an axis of "
                f"the mesh {device_mesh.axis_names}."
            )
        self.auto_shard_dataset = auto_shard_dataset
        self._engine = None

    @property
    def device_mesh(self):
        """The mesh of devices this distribution runs on."""
        return self._device_mesh

    @property
    def batch_dim_name(self):
        """The mesh axis each batch is split over."""
        return self._batch_dim_name

    @property
    def num_replicas(self):
        """How many parts each global batch splits into (the devices along the batch axis)."""
        return self._device_mesh.axis_size(self._batch_dim_name)

    @property
    def engine(self):
        """The backend's engine running this distribution (made on first use)."""
        if self._engine is None:
            self._engine = ops.distribution_engine(self)
        return self._engine

    def get_data_layout(self, data_shape):
        """The layout of a batch of shape `data_shape`: split over the batch axis on dimension 0."""
        return TensorLayout(
            [self._batch_dim_name] + [None] * (len(data_shape) - 1), self._device_mesh
        )

    def get_variable_layout(self, variable):
        """The layout `variable` takes: whole on every device, unless a subclass says otherwise."""
        return TensorLayout([None] * len(variable.shape), self._device_mesh)

    def get_tensor_layout(self, path):
        """The layout of the intermediate tensor at `path`, or None (no constraint)."""
        del path

    @contextlib.contextmanager
    def scope(self):
        """Within the block this is the distribution in effect (the backend's scope is entered too,
        so that variables made there are the engine's from the start)."""
        global _current
        outer = _current
        _current = self
        try:
            with self.engine.scope():
                yield self
        finally:
            _current = outer

    def distribute_dataset(self, dataset):
        """`dataset` as this process reads it: unchanged (fit gives each process its rows)."""
        return dataset


class DataParallel(Distribution):
    """Every device holds the whole model and computes on its share of each batch; the
    framework averages the gradients. `devices` (or `device_mesh`, 1-D) says which devices."""

    def __init__(self, device_mesh=None, devices=None, auto_shard_dataset=True):
        if device_mesh is None:
            devices = processes.list_devices() if devices is None else list(devices)
            device_mesh = DeviceMesh((len(devices),), ("batch",), devices)
        elif devices is not None:
            raise ValueError("DataParallel: pass device_mesh or devices, not both.")
        elif len(device_mesh.shape) != 1:
            raise ValueError(
                f"DataParallel: the device mesh must be 1-D, received shape {device_mesh.shape} "
                "(use ModelParallel to split variables over a second axis)."
            )
        super().__init__(device_mesh, device_mesh.axis_names[0], auto_shard_dataset)


class ModelParallel(Distribution):
    """Variables whose path a `LayoutMap` key matches are split over mesh axes as its layout
    says; the others are whole on every device. Batches split over `batch_dim_name`."""

    model_parallel = True

    def __init__(self, *, layout_map=None, batch_dim_name=None, auto_shard_dataset=True, **kwargs):
        device_mesh = kwargs.pop("device_mesh", None)
        if kwargs:
            raise TypeError(f"ModelParallel: unexpected arguments {sorted(kwargs)}.")
        if not isinstance(layout_map, LayoutMap):
            raise TypeError(
                f"ModelParallel: layout_map must be a LayoutMap, received {layout_map!r}."
            )
        if device_mesh is not None and device_mesh is not layout_map.device_mesh:
            raise ValueError("ModelParallel: device_mesh differs from the layout map's mesh.")
        super().__init__(layout_map.device_mesh, batch_dim_name, auto_shard_dataset)
        self._layout_map = layout_map

    @property
    def layout_map(self):
        """The map from variable paths to layouts."""
        return self._layout_map

    def get_variable_layout(self, variable):
        layout = self._layout_map[variable.path]
        if layout is None:
            return super().get_variable_layout(variable)
        layout.check_shape(variable.shape, f"ModelParallel: variable {variable.path!r}")
        return layout

    def get_tensor_layout(self, path):
        return self._layout_map[path]

    def check_keys_used(self, paths):
        """A clear error for a layout-map key that matches none of `paths` (a typo would
        otherwise leave a variable silently whole)."""
        used = {self._layout_map.key_for(path) for path in paths}
        unused = [key for key in self._layout_map if key not in used]
        if unused:
            raise ValueError(
                f"ModelParallel: the layout map keys {unused} match no variable of the model; its "
                f"variables are {sorted(paths)}."
            )


def distribute_tensor(tensor, layout):
    """`tensor` laid out on the devices as `layout` (a TensorLayout) says."""
    current = distribution()
    mesh = layout.device_mesh or (current.device_mesh if current is not None else None)
    if mesh is None:
        raise ValueError(
            "distribute_tensor: the layout has no device mesh and no distribution is set."
        )
    if layout.device_mesh is None:
        layout.device_mesh = mesh
    layout.check_shape(tuple(tensor.shape), "distribute_tensor")
    same_mesh = current is not None and current.device_mesh is mesh
    engine = current.engine if same_mesh else Distribution(mesh).engine
    return engine.distribute_tensor(tensor, layout)
