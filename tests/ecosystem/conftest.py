"""Each ecosystem test module runs its library's script in a fresh interpreter (the stand-in must
be in place before the library imports), once per backend and test run: the first pytest-xdist
worker to ask runs it, the others wait and read its JSON, so a module's tests share one run
wherever they are scheduled."""

import json
import os

import pytest
from filelock import FileLock

from tests.saving.helpers import run_python
from tripod.backends import config


@pytest.fixture(scope="session")
def script_json(tmp_path_factory):
    """`script_json(name, script)`: the JSON line `script` prints last, run once a test run."""
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base  # the run's folder

    def run(name, script):
        result = shared / f"ecosystem-{name}-{config.backend()}.json"
        with FileLock(f"{result}.lock"):
            if not result.exists():
                result.write_text(run_python(script, config.backend()).strip().splitlines()[-1])
        return json.loads(result.read_text())

    return run
