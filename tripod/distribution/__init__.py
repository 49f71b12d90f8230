"""`tripod.distribution`: train on several devices or processes with one API on every backend.

Keras 3's `keras.distribution` names and meanings (`DeviceMesh`, `TensorLayout`, `LayoutMap`,
`DataParallel`, `ModelParallel`, ...), run by each framework's own engine: `jax.sharding`,
`torch.distributed` (DDP, DTensor, FSDP2) and `tf.distribute`. See docs/distribution.md.
"""

from tripod.distribution.distributions import (
    DataParallel,
    Distribution,
    ModelParallel,
    distribute_tensor,
    distribution,
    set_distribution,
)
from tripod.distribution.layout_map import LayoutMap
from tripod.distribution.mesh import DeviceMesh, TensorLayout
from tripod.distribution.processes import (
    get_device_count,
    initialize,
    list_devices,
    num_processes,
    process_id,
)

__all__ = [
    "DataParallel",
    "DeviceMesh",
    "Distribution",
    "LayoutMap",
    "ModelParallel",
    "TensorLayout",
    "distribute_tensor",
    "distribution",
    "get_device_count",
    "initialize",
    "list_devices",
    "num_processes",
    "process_id",
    "set_distribution",
]
