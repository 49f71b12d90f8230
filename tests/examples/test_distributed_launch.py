"""examples/distributed_fit.py runs unchanged as two processes under each documented launch."""

import os
import re
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
    out = subprocess.run(
        command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300, check=False
    )
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert (tmp_path / "m.keras").exists()
    return out.stdout


def test_the_launcher_runs_the_example_as_two_processes(tmp_path):
    out = _run(
        [sys.executable, "-m", "tripod.testing.launch_processes", "2", SCRIPT, "m.keras"], tmp_path
    )
    assert "2 process(es)" in out and out.count("accuracy ") == 1  # process 0 alone prints


@pytest.mark.skipif(
    tripod.config.backend() != "torch" or shutil.which("torchrun") is None, reason="torchrun"
)
def test_torchrun_runs_the_example_as_two_processes(tmp_path):
    out = _run(["torchrun", "--standalone", "--nproc-per-node=2", SCRIPT, "m.keras"], tmp_path)
    assert "2 process(es)" in out


def test_the_distribution_guide_runs_as_two_processes(tmp_path):
    guide = os.path.join(ROOT, "examples", "guides", "distribution_api.py")
    env = {**os.environ, "TRIPOD_BACKEND": tripod.config.backend(), "TRIPOD_NUM_CPU_DEVICES": "1"}
    command = [sys.executable, "-m", "tripod.testing.launch_processes", "2", guide]
    out = subprocess.run(
        command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300, check=False
    )
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    # Dropout's seed state (uint32) crosses processes too; both distributions train the MLP.
    kinds = ["DataParallel"] + (
        ["ModelParallel"] if tripod.config.backend() != "tensorflow" else []
    )
    for kind in kinds:
        accuracies = [float(a) for a in re.findall(rf"{kind} accuracy: ([0-9.]+)", out.stdout)]
        assert len(accuracies) == 2 and min(accuracies) > 0.8, out.stdout
    if tripod.config.backend() == "tensorflow":
        assert out.stdout.count("ModelParallel runs on the jax and torch backends") == 2
