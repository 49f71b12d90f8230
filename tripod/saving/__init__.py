"""Saving: the registry of serializable classes, object configs and the checkpoint format.

The package's public names (`tripod.saving.load_model`, ...) are those of `tripod.saving.api`.
"""

from tripod.saving.api import *  # noqa: F403 (the public namespace, listed in api.__all__)
from tripod.saving.api import __all__  # noqa: F401
