"""The Keras-style scripts of examples/keras_io/ run unchanged on tripod through
`tripod.use_as_keras()`: each script's `main()` on the active backend, its own `check()` on
what it returned (the loss fell, shapes are right, a reloaded or end-to-end model predicts the
same). The scripts keep `import keras`, so they run in one subprocess per backend (the stand-in
must come before `import keras`, and this process may hold the real Keras).

slow: together the scripts train nine small models, about 60-100 s per backend on CI's machine;
the paths they take are covered by fast tests (FeatureSpace in
tests/layers/preprocessing/test_feature_space.py, `stateless_call`/`stateless_apply` in
tests/layers and tests/training, the stand-in in tests/api/test_stand_in.py).
"""

import json
import os
import subprocess
import sys

import pytest

from tripod.backends import config

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import run_keras_io_examples as runner

if config.backend() == "numpy":
    pytest.skip("the numpy reference does not train", allow_module_level=True)

pytestmark = pytest.mark.slow

_RUN_ALL = """
import json, runpy, sys, traceback
import tripod
tripod.use_as_keras()
results = {}
for name, path in json.loads(sys.argv[1]).items():  # one process: tripod is imported once
    try:
        namespace = runpy.run_path(path, run_name="keras_io")
        namespace["check"](namespace["main"]())
        results[name] = "passed"
    except Exception as e:
        results[name] = traceback.format_exc().strip().splitlines()[-1]
print("RESULTS " + json.dumps(results))
"""

BACKEND = config.backend()
NAMES = [
    name
    for name in runner.scripts()
    if runner.backends_of(name) is None or BACKEND in runner.backends_of(name)
]


@pytest.fixture(scope="module")
def results():
    paths = {name: os.path.join(runner.EXAMPLES, f"{name}.py") for name in NAMES}
    env = {**os.environ, "TRIPOD_BACKEND": BACKEND, "TF_CPP_MIN_LOG_LEVEL": "2"}
    done = subprocess.run(
        [sys.executable, "-c", _RUN_ALL, json.dumps(paths)],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    line = next(line for line in done.stdout.splitlines() if line.startswith("RESULTS "))
    return json.loads(line[len("RESULTS ") :])


@pytest.mark.parametrize("name", NAMES)
def test_keras_io_script_runs_unchanged(results, name):
    assert results[name] == "passed", results[name]
