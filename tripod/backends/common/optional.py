"""Optional libraries (pydot, Pillow, converters), imported only when a feature needs them."""

import importlib


def require(module, extra, feature):
    """The module `module`, imported now; an ImportError naming `feature` and the pip extra
    `tripod[extra]` that installs it when it is missing."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise ImportError(
            f"{feature} needs the optional package {module!r}, which is not installed. Install "
            f"it with: pip install 'tripod[{extra}]'"
        ) from None
