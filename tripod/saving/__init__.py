"""Saving: the registry of serializable classes, object configs and the checkpoint format.

The package's public names (`tripod.saving.load_model`, ...) are those of `tripod.saving.api`.
"""

from tripod.saving.api import *
from tripod.saving.api import __all__ as __all__
