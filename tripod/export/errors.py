"""Export errors that name the layer and the format, whichever converter failed underneath."""

from tripod.layers.layer import Layer


class ExportError(RuntimeError):
    """A model could not be written in the requested format; `layer` names the layer whose call
    failed while the converter traced it (None when the failure is not inside one layer)."""

    def __init__(self, message, layer=None, format=None):
        super().__init__(message)
        self.layer = layer
        self.format = format


def failing_layer(exc, top):
    """The innermost layer (not `top`, the model itself) whose `call` is on `exc`'s traceback."""
    found = None
    tb = exc.__traceback__
    while tb is not None:
        frame = tb.tb_frame
        owner = frame.f_locals.get("self")
        if isinstance(owner, Layer) and owner is not top and frame.f_code.co_name == "call":
            found = owner
        tb = tb.tb_next
    return found


def explain(exc, model, format, backend):
    """`exc`, raised while exporting `model` to `format` on `backend`, as an ExportError that
    names the layer being traced (when one was) and keeps the converter's message."""
    layer = failing_layer(exc, model)
    where = f" in layer '{layer.name}' ({type(layer).__name__})" if layer is not None else ""
    message = (
        f"Exporting model '{model.name}' to format={format!r} on the {backend} backend failed"
        f"{where}: {type(exc).__name__}: {exc}"
    )
    return ExportError(message, layer=layer, format=format)
