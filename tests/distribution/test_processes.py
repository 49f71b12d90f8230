"""initialize / list_devices / process counts in one process, and initialize's bad input."""

import pytest

from tripod import distribution


def test_one_process_by_default():
    assert distribution.num_processes() == 1 and distribution.process_id() == 0
    assert distribution.get_device_count() == len(distribution.list_devices()) >= 1
    assert all(":" in device for device in distribution.list_devices())


def test_list_devices_checks_the_type():
    assert distribution.get_device_count("cpu") >= 1
    with pytest.raises(ValueError, match="device_type must be"):
        distribution.list_devices("fpga")


def test_initialize_with_one_process_does_nothing(monkeypatch):
    for name in (
        "TRIPOD_DISTRIBUTION_NUM_PROCESSES",
        "KERAS_DISTRIBUTION_NUM_PROCESSES",
        "WORLD_SIZE",
    ):
        monkeypatch.delenv(name, raising=False)
    distribution.initialize()
    distribution.initialize(num_processes=1)
    assert distribution.num_processes() == 1


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"num_processes": 2, "process_id": 0}, "needs job_addresses and process_id"),
        (
            {"job_addresses": "h:1", "num_processes": 2, "process_id": 2},
            r"process_id must lie in \[0, 2\)",
        ),
        ({"job_addresses": "h", "num_processes": 2, "process_id": 0}, "'host:port' strings"),
        (
            {"job_addresses": "h:1,h:2,h:3", "num_processes": 2, "process_id": 0},
            "lists 3 addresses",
        ),
        (
            {"job_addresses": "h:1", "num_processes": "two", "process_id": 0},
            "num_processes must be an integer",
        ),
    ],
)
def test_initialize_bad_input(monkeypatch, kwargs, message):
    for name in ("JOB_ADDRESSES", "PROCESS_ID"):
        monkeypatch.delenv(f"TRIPOD_DISTRIBUTION_{name}", raising=False)
        monkeypatch.delenv(f"KERAS_DISTRIBUTION_{name}", raising=False)
    for name in ("MASTER_ADDR", "MASTER_PORT", "RANK"):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(ValueError, match=message):
        distribution.initialize(**kwargs)


def test_initialize_reads_torchruns_variables(monkeypatch):
    seen = []
    monkeypatch.setattr(
        distribution.processes.ops, "initialize_processes", lambda *a: seen.append(a)
    )
    monkeypatch.setenv("MASTER_ADDR", "10.0.0.1")
    monkeypatch.setenv("MASTER_PORT", "29500")
    monkeypatch.setenv("WORLD_SIZE", "4")
    monkeypatch.setenv("RANK", "3")
    for prefix in ("TRIPOD", "KERAS"):
        for name in ("JOB_ADDRESSES", "NUM_PROCESSES", "PROCESS_ID"):
            monkeypatch.delenv(f"{prefix}_DISTRIBUTION_{name}", raising=False)
    distribution.initialize()
    monkeypatch.setenv("KERAS_DISTRIBUTION_PROCESS_ID", "1")
    distribution.initialize()
    assert seen == [(["10.0.0.1:29500"], 4, 3), (["10.0.0.1:29500"], 4, 1)]
