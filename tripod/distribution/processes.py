"""The processes and devices of a run: `initialize`, `list_devices`, `num_processes`, ...

`initialize()` reads what it is not given from the environment, in this order: the arguments,
`TRIPOD_DISTRIBUTION_*`, `KERAS_DISTRIBUTION_*` (`JOB_ADDRESSES`, `NUM_PROCESSES`,
`PROCESS_ID`), then torchrun's `MASTER_ADDR`/`MASTER_PORT`, `WORLD_SIZE` and `RANK`.
"""

import os

from tripod.backends import active

ops = active()

_PREFIXES = ("TRIPOD_DISTRIBUTION_", "KERAS_DISTRIBUTION_")
_TORCHRUN = {"JOB_ADDRESSES": None, "NUM_PROCESSES": "WORLD_SIZE", "PROCESS_ID": "RANK"}


def list_devices(device_type=None):
    """Every device of the run (all processes'), as strings such as "cpu:0" or "gpu:1"."""
    if device_type is not None and device_type.lower() not in ("cpu", "gpu", "tpu"):
        raise ValueError(
            f"list_devices: device_type must be 'cpu', 'gpu' or 'tpu', received {device_type!r}."
        )
    return ops.list_devices(None if device_type is None else device_type.lower())


def get_device_count(device_type=None):
    """How many devices of `device_type` (every kind when None) the run has."""
    return len(list_devices(device_type))


def num_processes():
    """How many processes the run has (1 unless `initialize` joined several)."""
    return ops.process_count()


def process_id():
    """This process's index in the run, from 0."""
    return ops.process_index()


def is_chief():
    """Whether this process is the one that prints and writes files (process 0)."""
    return ops.process_index() == 0


def initialize(job_addresses=None, num_processes=None, process_id=None):
    """Join a multi-process run (call it first thing in each process, before building models).

    `job_addresses`: "host:port" of the coordinator, or a comma-separated list with one address
    per process (the first coordinates). Missing values come from the environment (see module
    docstring). With one process there is nothing to join, and nothing happens.
    """
    addresses = job_addresses if job_addresses is not None else _from_env("JOB_ADDRESSES")
    count = _as_int(
        num_processes if num_processes is not None else _from_env("NUM_PROCESSES"), "num_processes"
    )
    index = _as_int(process_id if process_id is not None else _from_env("PROCESS_ID"), "process_id")
    if count in (None, 1):
        return
    if addresses is None or index is None:
        raise ValueError(
            f"initialize: a run of {count} processes needs job_addresses and process_id (or "
            "TRIPOD_DISTRIBUTION_JOB_ADDRESSES / _PROCESS_ID, or torchrun's MASTER_ADDR, "
            f"MASTER_PORT and RANK); received job_addresses={addresses!r}, process_id={index!r}."
        )
    if not 0 <= index < count:
        raise ValueError(f"initialize: process_id must lie in [0, {count}), received {index}.")
    addresses = _address_list(addresses)
    if len(addresses) not in (1, count):
        raise ValueError(
            f"initialize: job_addresses lists {len(addresses)} addresses; give the coordinator's "
            f"alone or one per process ({count})."
        )
    ops.initialize_processes(addresses, count, index)


def _from_env(name):
    for prefix in _PREFIXES:
        value = os.environ.get(prefix + name)
        if value:
            return value
    if name == "JOB_ADDRESSES":
        host, port = os.environ.get("MASTER_ADDR"), os.environ.get("MASTER_PORT")
        return f"{host}:{port}" if host and port else None
    return os.environ.get(_TORCHRUN[name])


def _as_int(value, what):
    if value is None:
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ValueError(f"initialize: {what} must be an integer, received {value!r}.") from None


def _address_list(addresses):
    """`addresses` as a list of "host:port" strings; a clear error for one without a port."""
    if isinstance(addresses, str):
        addresses = addresses.split(",")
    addresses = [a.strip() for a in addresses if a.strip()]
    bad = [a for a in addresses if not a.rpartition(":")[2].isdigit()]
    if bad or not addresses:
        raise ValueError(
            f"initialize: job addresses must be 'host:port' strings, received {bad or addresses}."
        )
    return addresses
