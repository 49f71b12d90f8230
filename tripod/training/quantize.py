"""`Model.quantize`: quantize every quantizable layer of a model, optionally filtered by name."""

import re
import warnings

from tripod.layers.quantization import config as qconfig


def _selected(layer, filters):
    """Whether `filters` (None, a regex, a list of regexes or a predicate) selects `layer`."""
    if filters is None:
        return True
    if isinstance(filters, str):
        return re.search(filters, layer.name) is not None
    if isinstance(filters, (list, tuple)):
        return any(re.search(pattern, layer.name) for pattern in filters)
    return bool(filters(layer))


def quantize_model(model, mode=None, config=None, filters=None, type_check=True):
    """Call `quantize` on each selected leaf layer of `model`; layers without it are skipped
    with a warning, as in Keras. The compiled steps are dropped so the next call retraces."""
    if (
        filters is not None
        and not isinstance(filters, (str, list, tuple))
        and not callable(filters)
    ):
        raise ValueError(
            "quantize: filters must be a regex string, a list of regex strings or a callable, "
            f"received {type(filters).__name__}."
        )
    config = qconfig.resolve(mode, config)
    changed = False
    for layer in model._flatten_layers():
        if not _selected(layer, filters) or len(layer._flatten_layers()) != 1:
            continue
        try:
            layer.quantize(config.mode, type_check=type_check, config=config)
            changed = True
        except NotImplementedError as e:
            warnings.warn(str(e), stacklevel=3)
    if changed and getattr(model, "_steps", None):
        model._sync()
        model._steps = {}
