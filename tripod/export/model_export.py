"""`model.export`: one model's inference written as a deployable artifact, atomically."""

import os

from tripod.backends import active
from tripod.export.errors import ExportError, explain
from tripod.export.serving import ServingFunction
from tripod.export.signature import model_inputs
from tripod.saving import atomic

ops = active()

#: format -> (the backends that write it, whether the artifact is a folder)
FORMATS = {
    "onnx": (("jax", "torch", "tensorflow"), False),
    "tf_saved_model": (("tensorflow", "jax"), True),
    "torch": (("torch",), False),
}
#: Keras 3 formats tripod does not write, with what to use instead
NOT_WRITTEN = {
    "openvino": "export format='onnx' and convert it with OpenVINO's `ovc`",
    "litert": "export format='tf_saved_model' on tensorflow and convert it with the TFLite converter",
}
DEFAULT_OPSET = 18


def export_model(
    model, filepath, format="tf_saved_model", verbose=None, input_signature=None, **kwargs
):
    """Write `model`'s inference (training=False) to `filepath` as `format`; see `Model.export`."""
    check_format(format)
    opset = kwargs.pop("opset_version", None) or DEFAULT_OPSET
    endpoint = serving_function(model, input_signature)
    options = {
        "opset": opset,
        "verbose": bool(verbose),
        "variable_collections": {},
        "converter_kwargs": kwargs,
    }
    write_artifact(format, [endpoint], filepath, options, model)
    if verbose or verbose is None:
        print(f"Saved artifact at '{os.fspath(filepath)}' (format={format!r}).")


def serving_function(model, input_signature=None):
    """The model's inference as a `ServingFunction` named "serve"."""
    if not model.built and input_signature is None and not getattr(model, "inputs", None):
        raise ValueError(
            f"Model '{model.name}' is not built: call it on data or build it before export, or "
            "pass input_signature=."
        )
    structure = model_inputs(model, input_signature)
    output_names = None  # dict outputs: named by their (nested) keys
    if not isinstance(getattr(model, "_outputs_struct", None), dict) and getattr(
        model, "outputs", None
    ):
        output_names = [x._keras_history[0].name for x in model.outputs]
    return ServingFunction(
        lambda inputs: model(inputs, training=False),
        (structure,),
        model.variables,
        name="serve",
        output_names=output_names,
    )


def check_format(format):
    """A clear error for a format this backend cannot write, naming those that can."""
    if format in NOT_WRITTEN:
        raise ValueError(f"tripod does not export format={format!r}: {NOT_WRITTEN[format]}.")
    if format not in FORMATS:
        raise ValueError(f"Unknown export format {format!r}; expected one of {sorted(FORMATS)}.")
    if format not in ops.export_formats():
        writers = " or ".join(FORMATS[format][0])
        raise ValueError(
            f"format={format!r} cannot be written on the {ops.name} backend; it is written on "
            f"{writers} (TRIPOD_BACKEND). This backend writes: {list(ops.export_formats()) or 'none'}."
        )


def write_artifact(format, endpoints, filepath, options, model):
    """Have the backend write `endpoints` into a temporary path beside `filepath`, renamed into
    place only once complete; failures become an ExportError naming the traced layer."""
    is_folder = FORMATS[format][1]
    writing = atomic.atomic_dir if is_folder else atomic.atomic_file
    try:
        with writing(filepath) as tmp:
            if is_folder:
                os.rmdir(tmp)
            ops.export_artifact(format, endpoints, tmp, options)
    except (ImportError, ExportError, FileNotFoundError, FileExistsError):
        raise
    except Exception as exc:
        raise explain(exc, model, format, ops.name) from exc
