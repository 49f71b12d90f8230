"""`python -m tripod.testing.launch_processes N script.py [args...]`: run a script as a
distributed run of N local processes (free localhost ports, `TRIPOD_DISTRIBUTION_*` set; the
script calls `tripod.distribution.initialize()`). A failing process stops the others; the whole
run is bounded by `TRIPOD_LAUNCH_TIMEOUT` seconds (default 3600).

Each process that `tripod.testing.launch` starts runs this module too (`--call`).
"""

import importlib
import os
import pickle
import sys

from tripod.distribution import initialize
from tripod.testing.launcher import LaunchError, run, run_environments


def _call(payload, result):
    """In a launched process: join the run, call the function, keep its result for `launch`."""
    initialize()
    with open(payload, "rb") as f:
        module, name, args = pickle.load(f)  # written by `launch` in the parent process
    fn = importlib.import_module(module)
    for part in name.split("."):
        fn = getattr(fn, part)
    value = fn(*args)
    with open(result, "wb") as f:
        pickle.dump(value, f)


def _main(argv):
    if argv[:1] == ["--call"]:
        _call(*argv[1:3])
        return
    if len(argv) < 2 or not argv[0].isdigit():
        sys.exit(
            "usage: python -m tripod.testing.launch_processes NUM_PROCESSES script.py [args...]"
        )
    count, script = int(argv[0]), argv[1]
    commands = [[sys.executable, script, *argv[2:]] for _ in range(count)]
    try:
        run(
            commands,
            run_environments(count),
            float(os.environ.get("TRIPOD_LAUNCH_TIMEOUT", "3600")),
        )
    except LaunchError as error:
        sys.exit(f"tripod.testing.launch_processes: {error}")


if __name__ == "__main__":
    _main(sys.argv[1:])
