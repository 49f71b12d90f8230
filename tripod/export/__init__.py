"""`tripod.export`: a model as a deployable artifact (ONNX, TensorFlow SavedModel, torch.export),
from every backend, and `verify` to check the artifact against `model.predict`.

`model.export(path, format=...)` writes one model; `ExportArchive` writes a SavedModel with
endpoints of your choosing. See docs/export.md for which backend writes which format.
"""

from tripod.export.archive import ExportArchive
from tripod.export.errors import ExportError
from tripod.export.model_export import export_model
from tripod.export.verify import ExportMismatch, VerifyReport, verify, verify_many

__all__ = [
    "ExportArchive",
    "ExportError",
    "ExportMismatch",
    "VerifyReport",
    "export_model",
    "verify",
    "verify_many",
]
