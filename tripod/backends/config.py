"""Global settings: which backend runs, the default float type, epsilon and image data format,
and Keras's runtime switches (logging, traceback filtering, flash attention, debugging caps).

The backend is resolved once, at import: `TRIPOD_BACKEND` > `KERAS_BACKEND` (what every Keras
guide sets) > `$TRIPOD_HOME/tripod.json` (default `~/.tripod`) > the first installed of jax,
torch, tensorflow.
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

#: Keras's runtime switches; flash_attention is None ("where available"), True or False
_switches = {
    "interactive_logging": True,
    "traceback_filtering": True,
    "flash_attention": None,
    "max_epochs": None,
    "max_steps_per_epoch": None,
}


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
    if not isinstance(data, dict):  # a malformed file, not a wrong argument type
        raise ValueError(f"tripod: the config file {path} must hold a JSON object")  # noqa: TRY004
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
    """The backend to run: the environment (`TRIPOD_BACKEND`, then `KERAS_BACKEND`), then the
    config file, then the first installed."""
    requested = (
        os.environ.get("TRIPOD_BACKEND")
        or os.environ.get("KERAS_BACKEND")
        or file_settings.get("backend")
    )
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


def set_backend(backend):
    """Keras reloads its modules on a new backend; tripod picks its backend once, at import (every
    module binds the backend's ops then), so naming the running backend is accepted and any
    other is a clear error saying how to switch: set `TRIPOD_BACKEND` before importing tripod."""
    name = str(backend).strip().lower()
    check_backend_name(name)
    if name != _backend:
        raise RuntimeError(
            f"set_backend({backend!r}): tripod is running on {_backend!r} and picks its backend "
            f"once, at import. Set TRIPOD_BACKEND={name} (or KERAS_BACKEND) in the environment "
            "before `import tripod`, e.g. in a new process."
        )


def is_nnx_enabled():
    """False: tripod has no Flax NNX integration (Keras's JAX-only NNX mode)."""
    return False


def enable_interactive_logging():
    """Write progress bars and messages to stdout (the default)."""
    _switches["interactive_logging"] = True


def disable_interactive_logging():
    """Send progress and messages to the `logging` module (logger `tripod`) instead of stdout:
    for jobs whose output goes to log files."""
    _switches["interactive_logging"] = False


def is_interactive_logging_enabled():
    """Whether progress and messages go to stdout (True) or to `logging` (False)."""
    return _switches["interactive_logging"]


def enable_traceback_filtering():
    """Hide tripod's internal frames from the tracebacks of errors raised in fit, evaluate,
    predict and layer calls (the default)."""
    _switches["traceback_filtering"] = True


def disable_traceback_filtering():
    """Show full tracebacks, tripod's internal frames included (for debugging tripod itself)."""
    _switches["traceback_filtering"] = False


def is_traceback_filtering_enabled():
    """Whether tracebacks hide tripod's internal frames."""
    return _switches["traceback_filtering"]


def enable_flash_attention():
    """Let attention use a fused (flash) kernel wherever the backend has one (the default)."""
    _switches["flash_attention"] = None


def disable_flash_attention():
    """Never use a fused (flash) attention kernel unless a call asks for one explicitly."""
    _switches["flash_attention"] = False


def is_flash_attention_enabled():
    """False when disabled, else None: a fused kernel is used where the backend has one."""
    return _switches["flash_attention"]


def _cap(value, what):
    """A positive int limit, or None for no limit."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"set_{what}: expected a positive int or None, received {value!r}.")
    return value


def set_max_epochs(max_epochs):
    """Cap the epochs of every `fit` (None: no cap); for quick debugging runs. The environment
    variable `TRIPOD_MAX_EPOCHS` (or `KERAS_MAX_EPOCHS`) sets it at import."""
    _switches["max_epochs"] = _cap(max_epochs, "max_epochs")


def max_epochs():
    """The cap on the epochs of every `fit`, or None."""
    return _switches["max_epochs"]


def set_max_steps_per_epoch(max_steps_per_epoch):
    """Cap the steps of each epoch of `fit`, `evaluate` and `predict` (None: no cap); for quick
    debugging runs. `TRIPOD_MAX_STEPS_PER_EPOCH` (or `KERAS_MAX_STEPS_PER_EPOCH`) sets it at import."""
    _switches["max_steps_per_epoch"] = _cap(max_steps_per_epoch, "max_steps_per_epoch")


def max_steps_per_epoch():
    """The cap on the steps of each epoch of `fit`, `evaluate` and `predict`, or None."""
    return _switches["max_steps_per_epoch"]


def _env_int(name):
    """The int value of `TRIPOD_<name>`, else `KERAS_<name>`, else None."""
    value = os.environ.get(f"TRIPOD_{name}") or os.environ.get(f"KERAS_{name}")
    if not value:
        return None
    try:
        return int(value)
    except ValueError:
        raise ValueError(
            f"tripod: {name} from the environment must be an int, received {value!r}."
        ) from None


set_max_epochs(_env_int("MAX_EPOCHS"))
set_max_steps_per_epoch(_env_int("MAX_STEPS_PER_EPOCH"))
