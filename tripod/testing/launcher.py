"""`launch(fn, num_processes=2)`: run a function as a distributed run of fresh local processes.

For tests and notebooks, like Accelerate's `debug_launcher`: each process gets the run's
`TRIPOD_DISTRIBUTION_*` variables (free localhost ports), calls
`tripod.distribution.initialize()`, then `fn(*args)`; `launch` returns every process's result.
A process that fails makes `launch` stop the others and raise `LaunchError` with its output, so a
broken run never hangs. `fn` must be importable by name (a module-level function).

From a shell, `python -m tripod.testing.launch_processes N script.py [args...]` runs a script the
same way (`tripod/testing/launch_processes.py`, which also runs each launched function).
"""

import os
import pickle
import socket
import subprocess
import sys
import tempfile
import time

#: seconds the other processes get to end by themselves once one has failed
GRACE_SECONDS = 30

#: the module each launched process runs
ENTRY = "tripod.testing.launch_processes"


class LaunchError(RuntimeError):
    """A process of a launched run failed or the run timed out. `exit_codes`: each process's
    exit code when the run stopped, None for one the launcher had to kill."""

    def __init__(self, message, exit_codes=()):
        super().__init__(message)
        self.exit_codes = list(exit_codes)


def free_ports(count):
    """`count` distinct free TCP ports on localhost."""
    sockets = [socket.socket() for _ in range(count)]
    try:
        for s in sockets:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


def run_environments(num_processes, env=None):
    """One environment per process of a local run: this one's, `env`, and the run's variables."""
    addresses = ",".join(f"127.0.0.1:{port}" for port in free_ports(num_processes))
    base = {**os.environ, **(env or {})}
    return [
        {
            **base,
            "TRIPOD_DISTRIBUTION_JOB_ADDRESSES": addresses,
            "TRIPOD_DISTRIBUTION_NUM_PROCESSES": str(num_processes),
            "TRIPOD_DISTRIBUTION_PROCESS_ID": str(index),
        }
        for index in range(num_processes)
    ]


def launch(fn, num_processes=2, args=(), env=None, timeout=300):
    """`fn(*args)` in each of `num_processes` new processes forming one run; their results,
    by process id. `env` adds environment variables (e.g. `TRIPOD_BACKEND`,
    `TRIPOD_NUM_CPU_DEVICES`); `timeout` (seconds) bounds the whole run."""
    with tempfile.TemporaryDirectory(prefix="tripod-launch-") as folder:
        payload = os.path.join(folder, "payload.pkl")
        with open(payload, "wb") as f:
            pickle.dump((*_importable_name(fn), tuple(args)), f)
        commands = [
            [sys.executable, "-m", ENTRY, "--call", payload, os.path.join(folder, f"result{i}.pkl")]
            for i in range(num_processes)
        ]
        run(commands, run_environments(num_processes, env), timeout, folder)
        results = []
        for i in range(num_processes):
            with open(os.path.join(folder, f"result{i}.pkl"), "rb") as f:
                results.append(pickle.load(f))  # written by our own child processes
        return results


def _importable_name(fn):
    """(module, qualified name) by which a new process imports `fn`; a function of a script run
    with `python -m` is found under the module's own name."""
    module = fn.__module__
    if module == "__main__":
        spec = getattr(sys.modules["__main__"], "__spec__", None)
        if spec is None:
            raise ValueError(
                f"launch: {fn.__qualname__} is defined in a script run directly; new processes "
                "import the function by name, so define it in a module (or run the script with "
                "`python -m`)."
            )
        module = spec.name
    if "<locals>" in fn.__qualname__ or "<lambda>" in fn.__qualname__:
        raise ValueError(
            f"launch: {fn.__qualname__} is not importable by name; define it at module level."
        )
    return module, fn.__qualname__


def run(commands, environments, timeout, folder=None):
    """Start the processes, wait for all of them; a `LaunchError` when one fails or time runs out.
    With `folder`, each process's output goes to a file there (and into the error), else to ours."""
    logs = [
        open(os.path.join(folder, f"output{i}.txt"), "w+b") if folder else None  # noqa: SIM115
        for i in range(len(commands))
    ]
    procs = [
        subprocess.Popen(command, env=environment, stdout=log, stderr=log and subprocess.STDOUT)
        for command, environment, log in zip(commands, environments, logs)
    ]
    try:
        failed = _wait(procs, time.monotonic() + timeout)
        if failed is not None:
            index, reason = failed
            output = f" Its output:\n{_tail(logs[index])}" if logs[index] else ""
            codes = [proc.poll() for proc in procs]
            raise LaunchError(f"process {index} of {len(procs)} {reason}.{output}", codes)
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        for log in logs:
            if log:
                log.close()


def _wait(procs, deadline):
    """Wait until every process ended well (None) or one failed or the deadline passed:
    (index, reason), after the others had `GRACE_SECONDS` to end by themselves."""
    while time.monotonic() < deadline:
        codes = [proc.poll() for proc in procs]
        bad = [i for i, code in enumerate(codes) if code not in (None, 0)]
        if bad:
            grace = min(deadline, time.monotonic() + GRACE_SECONDS)
            while time.monotonic() < grace and any(proc.poll() is None for proc in procs):
                time.sleep(0.1)
            return bad[0], f"exited with code {codes[bad[0]]}"
        if all(code == 0 for code in codes):
            return None
        time.sleep(0.05)
    running = [i for i, proc in enumerate(procs) if proc.poll() is None]
    return running[0], f"was still running after the timeout (processes {running} were)"


def _tail(log, limit=6000):
    log.flush()
    log.seek(0)
    text = log.read().decode(errors="replace")
    return text[-limit:]
