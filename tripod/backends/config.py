"""Global settings: which backend runs, the default float type, epsilon and image data format.

The backend is resolved once, at import: `TRIPOD_BACKEND` > `$TRIPOD_HOME/tripod.json`
(default `~/.tripod`) > the first installed of jax, torch, tensorflow.
"""

import importlib.util
import json
import os

BACKENDS = ("jax", "torch", "tensorflow", "numpy")

#: backend name -> (importable framework module, pip extra that installs it)
FRAMEWORKS = {
    "jax": ("jax", "jax"),
    "torch": ("torch", "torch"),
    "tensorflow": ("tensorflow", "tensorflow"),
    "numpy": ("numpy", None),
}

_FLOATS = ("float16", "bfloat16", "float32", "float64")
_DATA_FORMATS = ("channels_last", "channels_first")

_settings = {"floatx": "float32", "epsilon": 1e-7, "image_data_format": "channels_last"}


def config_dir():
    """The folder holding `tripod.json`: `$TRIPOD_HOME`, else `~/.tripod`."""
    return os.environ.get("TRIPOD_HOME") or os.path.join(os.path.expanduser("~"), ".tripod")


def _read_config_file():
    path = os.path.join(config_dir(), "tripod.json")
    if not os.path.exists(path):
        return {}
    try:
        with open(path) as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        raise ValueError(f"tripod: cannot read the config file {path}: {e}") from e
    if not isinstance(data, dict):
        raise ValueError(f"tripod: the config file {path} must hold a JSON object")
    return data


def _is_installed(name):
    return importlib.util.find_spec(FRAMEWORKS[name][0]) is not None


def check_backend_name(name):
    """Return `name` if it names a backend whose framework is installed, else raise ValueError."""
    if name not in BACKENDS:
        raise ValueError(
            f"Unknown tripod backend {name!r}; valid backends are: {', '.join(BACKENDS)}."
        )
    if not _is_installed(name):
        extra = FRAMEWORKS[name][1]
        raise ImportError(
            f"The tripod backend {name!r} needs {FRAMEWORKS[name][0]}, which is not installed. "
            f"Install it with: pip install 'tripod[{extra}]'"
        )
    return name


def resolve_backend(file_settings):
    """The backend to run: the environment, then the config file, then the first installed."""
    requested = os.environ.get("TRIPOD_BACKEND") or file_settings.get("backend")
    if requested:
        return check_backend_name(requested.strip().lower())
    for name in ("jax", "torch", "tensorflow"):
        if _is_installed(name):
            return name
    return "numpy"


def _apply_file_settings(file_settings):
    for key, setter in (
        ("floatx", set_floatx),
        ("epsilon", set_epsilon),
        ("image_data_format", set_image_data_format),
    ):
        if key in file_settings:
            setter(file_settings[key])


def floatx():
    """The default float dtype, as a string (`"float32"` unless changed)."""
    return _settings["floatx"]


def set_floatx(value):
    """Set the default float dtype: one of float16, bfloat16, float32, float64."""
    value = str(value)
    if value not in _FLOATS:
        raise ValueError(f"set_floatx: unknown float type {value!r}; expected one of {_FLOATS}.")
    _settings["floatx"] = value


def epsilon():
    """The fuzz factor added to denominators (`1e-7` unless changed)."""
    return _settings["epsilon"]


def set_epsilon(value):
    """Set the fuzz factor used by numeric expressions."""
    _settings["epsilon"] = float(value)


def image_data_format():
    """The default image layout: `"channels_last"` or `"channels_first"`."""
    return _settings["image_data_format"]


def set_image_data_format(data_format):
    """Set the default image layout: `"channels_last"` or `"channels_first"`."""
    value = str(data_format).lower()
    if value not in _DATA_FORMATS:
        raise ValueError(
            f"set_image_data_format: expected one of {_DATA_FORMATS}, received {data_format!r}."
        )
    _settings["image_data_format"] = value


def standardize_data_format(data_format):
    """`data_format` checked, or the global default when it is None."""
    if data_format is None:
        return image_data_format()
    value = str(data_format).lower()
    if value not in _DATA_FORMATS:
        raise ValueError(f"data_format must be one of {_DATA_FORMATS}, received {data_format!r}.")
    return value


_file_settings = _read_config_file()
_apply_file_settings(_file_settings)
_backend = resolve_backend(_file_settings)


def backend():
    """The name of the backend tripod runs on: jax, torch, tensorflow or numpy."""
    return _backend
