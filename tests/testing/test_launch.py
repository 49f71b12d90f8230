"""`tripod.testing.launch`: results by process, failures and timeouts as clear errors, never a hang."""

import time

import pytest

from tests.testing import launched
from tripod.backends import config
from tripod.testing import LaunchError, launch
from tripod.testing import launcher as launch_module

#: launches processes and times them out: run away from other test processes. The launched
#: processes run the numpy backend whatever the suite's, so the module runs once, in the numpy run.
pytestmark = [
    pytest.mark.serial,
    pytest.mark.skipif(
        config.backend() != "numpy", reason="backend-independent: runs once, in the numpy run"
    ),
]

ONE_PROCESS = {"TRIPOD_BACKEND": "numpy"}


def test_a_launched_function_returns_its_result():
    assert launch(launched.where_am_i, 1, args=("x",), env=ONE_PROCESS) == [("x", "0", 0)]


def test_each_process_gets_the_runs_variables():
    environments = launch_module.run_environments(3, {"A": "1"})
    assert [e["TRIPOD_DISTRIBUTION_PROCESS_ID"] for e in environments] == ["0", "1", "2"]
    addresses = environments[0]["TRIPOD_DISTRIBUTION_JOB_ADDRESSES"].split(",")
    assert len(set(addresses)) == 3 and all(a.startswith("127.0.0.1:") for a in addresses)
    assert all(
        e["A"] == "1" and e["TRIPOD_DISTRIBUTION_NUM_PROCESSES"] == "3" for e in environments
    )


def test_a_failing_process_stops_the_run_with_its_error(monkeypatch):
    monkeypatch.setattr(launch_module, "GRACE_SECONDS", 1)
    start = time.monotonic()
    # One process: the backend need not join a run, and the failure is the function's own.
    with pytest.raises(
        LaunchError, match=r"(?s)process 0 of 1 exited with code 1.*RuntimeError: broken here"
    ):
        launch(launched.fail_in_process, 1, args=(0, "broken here"), env=ONE_PROCESS, timeout=120)
    assert time.monotonic() - start < 60


def test_a_run_past_its_timeout_is_killed():
    start = time.monotonic()
    with pytest.raises(LaunchError, match="still running after the timeout"):
        launch(launched.sleep, 1, args=(600,), env=ONE_PROCESS, timeout=8)
    assert time.monotonic() - start < 30


def test_a_function_that_new_processes_cannot_import_is_refused_clearly():
    with pytest.raises(ValueError, match="not importable by name"):
        launch(lambda: 1, 1, env=ONE_PROCESS)
