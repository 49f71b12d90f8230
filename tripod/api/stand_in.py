"""`use_as_keras()`: tripod answers `import keras`, for libraries written against Keras 3.

Called before such a library is imported, it puts a finder first on `sys.meta_path`:

- `keras` resolves to a module forwarding to `tripod` that reports the Keras API version tripod
  implements (`keras.version()`, `keras.__version__`), so libraries take their Keras 3 paths;
- `keras.<name>` to a module forwarding to `tripod.<name>` (the same classes and functions, so
  `isinstance` holds across both names);
- `keras.src.<path>`, Keras's private modules, to the few that KerasHub, KerasTuner and keras-rs
  use (`keras_src.PATHS`); any other fails with an ImportError naming it and its importer.

Nothing of the real Keras is imported: TensorFlow's `tf.keras` is the stand-in too.
"""

import importlib
import importlib.abc
import importlib.machinery
import sys
import types

from tripod.api.forwarding import forwarding

#: The Keras API version tripod implements, reported as `keras.__version__` under the stand-in.
KERAS_API_VERSION = "3.15.0"
#: Whether Keras was imported before tripod (tripod imports this module first): by the user, so
#: the stand-in cannot replace it. One imported later came with a framework (TensorFlow imports
#: Keras when both are installed), which the stand-in takes the place of.
_KERAS_BEFORE_TRIPOD = "keras" in sys.modules


def use_as_keras():
    """Make `import keras` and `keras.<namespace>` resolve to tripod in this process.

    Call it before importing a library that imports Keras (KerasHub, KerasTuner, keras-rs):
        >>> import tripod
        >>> tripod.use_as_keras()
        >>> import keras
        >>> keras.layers.Dense is tripod.layers.Dense, keras.version()
        (True, '3.15.0')

    Raises:
        RuntimeError: the real Keras is imported already (the stand-in could not replace it).
    """
    if any(isinstance(finder, _Finder) for finder in sys.meta_path):
        return
    loaded = sys.modules.get("keras")
    if loaded is not None and _KERAS_BEFORE_TRIPOD:
        raise RuntimeError(
            "use_as_keras() must run before `keras` is imported, and the Keras package at "
            f"{getattr(loaded, '__file__', '?')} was imported before tripod: import tripod and "
            "call it first thing, in a fresh process."
        )
    for name in [name for name in sys.modules if name == "keras" or name.startswith("keras.")]:
        del sys.modules[name]  # a framework's import of Keras: the stand-in answers from now on
    sys.meta_path.insert(0, _Finder())


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds and makes every `keras` module (a package each, so submodules import)."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname != "keras" and not fullname.startswith("keras."):
            return None
        return importlib.machinery.ModuleSpec(fullname, self, is_package=True)

    def create_module(self, spec):
        return _module(spec.name)

    def exec_module(self, module):
        """Nothing to run: the module forwards to tripod."""


def _module(name):
    """The stand-in module `name` ("keras", "keras.<name>" or "keras.src.<path>")."""
    import tripod  # tripod imports this module first: the finder reaches it once it is whole
    from tripod.api import keras_src  # (it imports the backend, hence the framework)

    if name == "keras":
        module = forwarding("keras", tripod)
        module.__version__ = KERAS_API_VERSION
        module.version = lambda: KERAS_API_VERSION
        return module
    if name == "keras._tf_keras":  # where TensorFlow finds `tf.keras`
        return forwarding(name, types.SimpleNamespace())
    if name == "keras._tf_keras.keras":
        return importlib.import_module("keras")  # tf.keras is the stand-in too
    if name == "keras.src" or name.startswith("keras.src."):
        return keras_src.module(name)
    target = "tripod" + name[len("keras") :]
    try:
        return forwarding(name, importlib.import_module(target))
    except ModuleNotFoundError:
        raise ImportError(
            f"{name}: tripod has no {target} (the stand-in for Keras maps keras.<name> to "
            f"tripod.<name>; imported from {keras_src.importer()})."
        ) from None
