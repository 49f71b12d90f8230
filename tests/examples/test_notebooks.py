"""Every tutorial notebook executes without a cell error, in a kernel on the active backend.

`TRIPOD_TEST_NOTEBOOKS` (space-separated backend names, default "jax torch tensorflow") says on
which backends the notebooks run, so CI can run them on one backend only.
"""

import os
import runpy

import pytest

from tripod.backends import config

pytest.importorskip("nbclient", reason="executing notebooks needs the `notebooks` extra")

import nbformat  # after the skip: nbclient requires it

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
runner = runpy.run_path(os.path.join(ROOT, "scripts", "execute_notebooks.py"), run_name="notebooks")
NOTEBOOK_BACKENDS = os.environ.get("TRIPOD_TEST_NOTEBOOKS", "jax torch tensorflow").split()

#: appended to each notebook: what the kernel ran on
BACKEND_CHECK = "import tripod\nprint(tripod.config.backend(), end='')"


def skip_reason(backend, notebook):
    """Why `notebook` does not run on `backend`, or None when it does."""
    if backend == "numpy":
        return "the numpy backend is inference-only: the notebooks train"
    if backend not in NOTEBOOK_BACKENDS:
        return f"TRIPOD_TEST_NOTEBOOKS={' '.join(NOTEBOOK_BACKENDS)!r} leaves out {backend}"
    return None


@pytest.mark.notebook
@pytest.mark.parametrize("path", runner["notebook_paths"](), ids=os.path.basename)
def test_notebook_executes_on_the_active_backend(path, tmp_path):
    reason = skip_reason(config.backend(), os.path.basename(path))
    if reason is not None:
        pytest.skip(reason)
    notebook = nbformat.read(path, as_version=4)
    notebook.cells.append(nbformat.v4.new_code_cell(BACKEND_CHECK))
    # TMPDIR: the files the notebook writes to a temporary folder land in tmp_path
    runner["execute"](
        notebook, os.path.dirname(path), config.backend(), environment={"TMPDIR": str(tmp_path)}
    )
    assert notebook.cells[-1].outputs[0]["text"] == config.backend()  # the kernel's backend


def test_the_eight_notebooks_are_committed_with_outputs_in_order():
    paths = runner["notebook_paths"]()
    assert [os.path.basename(p)[:3] for p in paths] == [
        "01_",
        "02_",
        "03_",
        "04_",
        "05_",
        "06_",
        "07_",
        "08_",
    ]
    for path in paths:
        code = [
            cell for cell in nbformat.read(path, as_version=4).cells if cell.cell_type == "code"
        ]
        counts = [cell.execution_count for cell in code]
        assert counts == list(range(1, len(code) + 1)), (
            f"{path}: run it with scripts/execute_notebooks.py --write"
        )


def test_each_notebook_sets_its_default_backend_before_importing_tripod():
    for path in runner["notebook_paths"]():
        source = "\n".join(
            c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code"
        )
        choice = source.find('os.environ.setdefault("TRIPOD_BACKEND"')
        assert 0 <= choice < source.find("import tripod"), path
