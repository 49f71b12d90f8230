"""examples/distributed_fit.py runs unchanged as two processes under each documented launch."""

import os
import shutil
import subprocess
import sys

import pytest

import tripod

pytestmark = [
    pytest.mark.multi_device,
    pytest.mark.skipif(tripod.config.backend() == "numpy", reason="numpy does not distribute"),
]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "examples", "distributed_fit.py")


def _run(command, tmp_path):
    env = {**os.environ, "TRIPOD_BACKEND": tripod.config.backend(), "TRIPOD_NUM_CPU_DEVICES": "1"}
    out = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert (tmp_path / "m.keras").exists()
    return out.stdout


def test_the_launcher_runs_the_example_as_two_processes(tmp_path):
    out = _run([sys.executable, "-m", "tripod.testing.launcher", "2", SCRIPT, "m.keras"], tmp_path)
    assert "2 process(es)" in out and out.count("accuracy ") == 1  # process 0 alone prints


@pytest.mark.skipif(tripod.config.backend() != "torch" or shutil.which("torchrun") is None, reason="torchrun")
def test_torchrun_runs_the_example_as_two_processes(tmp_path):
    out = _run(["torchrun", "--standalone", "--nproc-per-node=2", SCRIPT, "m.keras"], tmp_path)
    assert "2 process(es)" in out
