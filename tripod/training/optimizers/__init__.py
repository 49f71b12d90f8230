"""Optimizers (`tripod.optimizers`): each one's update rule in `tripod.ops`, on the shared
`Optimizer` pipeline; learning-rate schedules in `schedules`."""

from tripod.saving import registry, serialization
from tripod.training.optimizers import legacy, schedules
from tripod.training.optimizers.adafactor import Adafactor
from tripod.training.optimizers.adagrad import Adadelta, Adagrad
from tripod.training.optimizers.adam import Adam, AdamW
from tripod.training.optimizers.adamax import Adamax
from tripod.training.optimizers.base import Optimizer
from tripod.training.optimizers.ftrl import Ftrl
from tripod.training.optimizers.lamb import Lamb
from tripod.training.optimizers.lion import Lion
from tripod.training.optimizers.loss_scale_optimizer import LossScaleOptimizer
from tripod.training.optimizers.multi_optimizer import MultiOptimizer, OptimizerMap
from tripod.training.optimizers.muon import Muon
from tripod.training.optimizers.nadam import Nadam
from tripod.training.optimizers.rmsprop import RMSprop
from tripod.training.optimizers.schedule_free_adamw import ScheduleFreeAdamW
from tripod.training.optimizers.sgd import SGD

_MODULE = "keras.optimizers"
_CLASSES = (
    Adadelta,
    Adafactor,
    Adagrad,
    Adam,
    AdamW,
    Adamax,
    Ftrl,
    Lamb,
    Lion,
    LossScaleOptimizer,
    MultiOptimizer,
    Muon,
    Nadam,
    Optimizer,
    OptimizerMap,
    RMSprop,
    SGD,
    ScheduleFreeAdamW,
)
for _cls in _CLASSES:
    registry.register_builtin(_cls, _MODULE)

#: built-in classes by lower-case name: identifiers are case-insensitive ("adam", "SGD", "RMSprop")
_BY_NAME = {cls.__name__.lower(): cls for cls in _CLASSES}


def serialize(optimizer):
    """The config of an optimizer, in Keras 3's schema."""
    return serialization.serialize_keras_object(optimizer)


def deserialize(config, custom_objects=None):
    """An optimizer from its config; `class_name` may also be a lower-case name such as "adam"."""
    if isinstance(config, dict) and config.get("module") is None:
        cls = _BY_NAME.get(str(config.get("class_name")).lower())
        if cls is not None:
            config = {**config, "class_name": cls.__name__, "module": _MODULE}
    return serialization.deserialize_keras_object(config, custom_objects)


def get(identifier):
    """An optimizer from an instance, a name ("adam", "SGD", ...) or a config; None stays None."""
    if identifier is None or isinstance(identifier, Optimizer):
        return identifier
    if isinstance(identifier, dict):
        optimizer = deserialize(identifier)
    elif isinstance(identifier, str):
        cls = _BY_NAME.get(identifier.lower()) or registry.get_registered_object(identifier)
        optimizer = cls() if isinstance(cls, type) and issubclass(cls, Optimizer) else None
    else:
        optimizer = None
    if not isinstance(optimizer, Optimizer):
        raise ValueError(f"Could not interpret optimizer identifier: {identifier!r}")  # noqa: TRY004 (as Keras)
    return optimizer


__all__ = [cls.__name__ for cls in _CLASSES] + [
    "deserialize",
    "get",
    "legacy",
    "schedules",
    "serialize",
]
