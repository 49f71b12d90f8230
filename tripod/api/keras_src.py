"""The private `keras.src` paths the stand-in for Keras provides (`stand_in.use_as_keras`).

Libraries built on Keras reach into a few of its private modules. These are the paths KerasHub
0.32, KerasTuner 1.4 and keras-rs 0.4 import or call, and the symbolic-scope query
(`in_symbolic_scope`) other libraries ask, each mapped onto tripod's own equivalent; a path not
listed fails with an ImportError naming it and the file importing it.
"""

import os
import sys
import types

from tripod import distribution, ops, saving
from tripod.api.forwarding import forwarding
from tripod.backends import active
from tripod.backends.common import symbolic_scope
from tripod.backends.common.seed import draw_seed
from tripod.layers import masks, tracking
from tripod.saving import serialization
from tripod.training.data_adapters.array_adapter import class_weight_to_sample_weight
from tripod.training.losses.loss import LossFunctionWrapper


def module(name):
    """The stand-in module of private path `name`: its names from PATHS, and its listed
    submodules (a path on the way to listed ones, such as keras.src.utils, holds those alone)."""
    children = [path for path in PATHS if path.startswith(name + ".")]
    if name not in PATHS and not children and name != "keras.src":
        raise ImportError(
            f"{name} is a private Keras path that the tripod stand-in does not provide (imported "
            f"from {importer()}); the paths it maps are listed in tripod/api/keras_src.py."
        )
    names = PATHS.get(name, {})
    if isinstance(names, types.ModuleType):
        return forwarding(name, names)
    return forwarding(name, types.SimpleNamespace(**names, __all__=sorted(names)))


def importer():
    """The file whose import statement is being served (the first frame outside the import
    machinery and the stand-in)."""
    here = os.path.dirname(__file__)
    frame = sys._getframe(1)
    while frame is not None:
        filename = frame.f_code.co_filename
        if not filename.startswith("<frozen") and os.path.dirname(filename) != here:
            return f"{filename}:{frame.f_lineno}"
        frame = frame.f_back
    return "an unknown file"


def standardize_shape(shape):
    """A shape as a tuple of ints and None (unknown sizes), as Keras's backend gives it."""
    return tuple(None if size is None else int(size) for size in shape)


def jax_draw_seed(seed):
    """A PRNG key (a tensor of two uint32 words) for `seed` (None, an int or a SeedGenerator)."""
    backend = active()
    return backend.convert_to_tensor(draw_seed(seed, backend))


def in_grain_data_pipeline():
    """False: tripod's layers never run inside a Grain data pipeline (they run in tf.data maps,
    or on arrays), so a library's Grain-specific conversions never apply."""
    return False


#: {private path: its names, or the tripod module it is}
PATHS = {
    "keras.src.backend": {
        "get_keras_mask": masks.get_keras_mask,
        "set_keras_mask": masks.set_keras_mask,
        "standardize_shape": standardize_shape,
        "in_symbolic_scope": symbolic_scope.in_symbolic_scope,
    },
    # asked by layers and losses that act differently while only output specs are inferred
    "keras.src.backend.common.symbolic_scope": {
        "SymbolicScope": symbolic_scope.SymbolicScope,
        "get_symbolic_scope": symbolic_scope.get_symbolic_scope,
        "in_symbolic_scope": symbolic_scope.in_symbolic_scope,
    },
    "keras.src.backend.jax.random": {"jax_draw_seed": jax_draw_seed},
    "keras.src.distribution.distribution_lib": {
        "distribution": distribution.distribution,
        "distribute_tensor": distribution.distribute_tensor,
        "set_distribution": distribution.set_distribution,
    },
    "keras.src.losses.losses": {"LossFunctionWrapper": LossFunctionWrapper},
    "keras.src.ops": ops,
    "keras.src.saving": saving,
    "keras.src.saving.serialization_lib": {
        "in_safe_mode": serialization.in_safe_mode,
        "serialize_keras_object": serialization.serialize_keras_object,
        "deserialize_keras_object": serialization.deserialize_keras_object,
    },
    "keras.src.trainers.data_adapters.data_adapter_utils": {
        "class_weight_to_sample_weights": class_weight_to_sample_weight
    },
    "keras.src.utils.backend_utils": {"in_grain_data_pipeline": in_grain_data_pipeline},
    "keras.src.utils.tracking": {
        "no_automatic_dependency_tracking": tracking.no_automatic_dependency_tracking
    },
}
