"""`python -m tripod.testing parity`: its output and exit codes (0 agree, 1 violation, 2 usage).

Runs once, in the numpy run of the matrix: each call starts a subprocess per backend.
"""

import json
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

from tests.testing.test_parity import HELPERS, broken_model, exact_sequential
from tripod.backends import config
from tripod.testing.__main__ import main

pytestmark = pytest.mark.skipif(
    config.backend() != "numpy", reason="runs every backend itself: once, in the numpy run"
)

ROOT = pathlib.Path(__file__).resolve().parents[2]


def cli(*args):
    """Run `python -m tripod.testing ARGS` from the repository root (numpy in the parent)."""
    env = {**os.environ, "TRIPOD_BACKEND": "numpy"}
    command = [sys.executable, "-m", "tripod.testing", *map(str, args)]
    return subprocess.run(
        command, env=env, cwd=ROOT, capture_output=True, text=True, timeout=300, check=False
    )


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """The exact and the broken model as .keras files, with inputs in .npz files."""
    folder = tmp_path_factory.mktemp("cli")
    model, x, expected = exact_sequential()
    model.save(folder / "exact.keras")
    np.savez(folder / "exact.npz", x=x)
    broken_model().save(folder / "broken.keras")
    np.savez(folder / "broken.npz", x=np.linspace(-2, 2, 12, dtype="float32").reshape(3, 4))
    return folder, expected


def test_agreement_prints_the_table_and_exits_0(files):
    folder, _ = files
    out = cli(
        "parity",
        folder / "exact.keras",
        folder / "exact.npz",
        "--backends",
        "numpy,jax",
        "--per-layer",
    )
    assert out.returncode == 0, out.stdout + out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "Backend parity against numpy (atol=1e-05, rtol=1e-05) on numpy, jax: OK"
    assert any(line.split()[:3] == ["out", "jax", "0"] for line in lines)
    assert any(line.split()[:3] == ["hidden", "jax", "0"] for line in lines)


def test_violations_exit_1_and_json_lists_them(files):
    folder, _ = files
    out = cli(
        "parity",
        folder / "broken.keras",
        folder / "broken.npz",
        "--backends",
        "jax,torch",
        "--reference",
        "numpy",
        "--atol",
        "1e-6",
        "--rtol",
        "0",
        "--import",
        HELPERS,
        "--json",
    )
    assert out.returncode == 1, out.stdout + out.stderr
    report = json.loads(out.stdout)
    assert report["ok"] is False and report["atol"] == 1e-6 and report["rtol"] == 0
    assert report["backends"] == ["numpy", "jax", "torch"]
    [comparison] = report["comparisons"]
    x = np.linspace(-2, 2, 12, dtype="float32")
    diff = np.abs((x * np.float32(1.001)).astype(np.float64) - x)
    assert comparison["backend"] == "jax" and comparison["name"] == "fail"
    assert comparison["max_abs"] == diff.max() and comparison["mismatched"] == int(
        np.sum(diff > 1e-6)
    )
    assert "deliberate failure on torch" in report["failures"]["torch"]


@pytest.mark.parametrize(
    "args, message",
    [
        ((), "the following arguments are required: command"),
        (("parity", "m.keras"), "the following arguments are required: inputs"),
        (("parity", "m.keras", "x.npz", "--atol", "tight"), "invalid float value: 'tight'"),
        (("parity", "MODEL", "INPUTS", "--backends", "numpy,theano"), "Unknown backend 'theano'"),
        (("parity", "missing.keras", "INPUTS"), "no model file at"),
    ],
)
def test_bad_usage_exits_2(files, capsys, args, message):
    folder, _ = files
    paths = {"MODEL": str(folder / "exact.keras"), "INPUTS": str(folder / "exact.npz")}
    with pytest.raises(SystemExit) as exited:
        main([paths.get(a, a) for a in args])
    assert exited.value.code == 2
    assert message in capsys.readouterr().err


def test_bad_usage_exits_2_from_the_shell():
    out = cli("parity", "missing.keras", "missing.npz")
    assert out.returncode == 2 and "no inputs file at 'missing.npz'" in out.stderr


def test_help_exits_0():
    out = cli("parity", "--help")
    assert out.returncode == 0 and "--per-layer" in out.stdout and "--import MODULE" in out.stdout
