"""The import rules of DESIGN.md: frameworks only inside their backend, layers lean one way."""

import ast
import pathlib

PACKAGE = pathlib.Path(__file__).resolve().parent.parent / "tripod"
FRAMEWORKS = ("torch", "jax", "jaxlib", "tensorflow")
#: files run in a process without tripod (as a deployment runs an artifact): no tripod imports
STANDALONE = (
    "export/serve_artifact.py",
    "backends/torch/program_runner.py",
    "backends/tensorflow/saved_model_runner.py",
)


def _imported_roots(path):
    tree = ast.parse(path.read_text(), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module.split(".")[0]


def test_frameworks_are_imported_only_in_their_backend():
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE).parts
        home = parts[1] if parts[0] == "backends" and len(parts) > 2 else None
        for root in _imported_roots(path):
            owner = "jax" if root == "jaxlib" else root
            if root in FRAMEWORKS and owner != home:
                offenders.append(f"{path.relative_to(PACKAGE)} imports {root}")
    assert not offenders, offenders


def test_backends_import_nothing_above_them():
    offenders = []
    for path in (PACKAGE / "backends").rglob("*.py"):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.ImportFrom)
                and node.module
                and node.module.startswith("tripod.")
            ):
                if not node.module.startswith("tripod.backends"):
                    offenders.append(f"{path.relative_to(PACKAGE)}: {node.module}")
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.startswith("tripod.") and not alias.name.startswith(
                        "tripod.backends"
                    ):
                        offenders.append(f"{path.relative_to(PACKAGE)}: {alias.name}")
    assert not offenders, offenders


def test_standalone_scripts_import_nothing_from_tripod():
    for name in STANDALONE:
        assert "tripod" not in set(_imported_roots(PACKAGE / name)), name
