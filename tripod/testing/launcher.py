"""`launch(fn, num_processes=2)`: run a function as a distributed run of fresh local processes.

For tests and notebooks, like Accelerate's `debug_launcher`: each process gets the run's
`TRIPOD_DISTRIBUTION_*` variables (free localhost ports), calls
`tripod.distribution.initialize()`, then `fn(*args)`; `launch` returns every process's result.
A process that fails makes `launch` stop the others and raise `LaunchError` with its output, so a
broken run never hangs. `fn` must be importable by name (a module-level function).

From a shell: `python -m tripod.testing.launcher N script.py [args...]` runs a script the same way.
"""

import os
import pickle
import socket
import subprocess
import sys
import tempfile
import time

from tripod.distribution import initialize

#: seconds the other processes get to end by themselves once one has failed
GRACE_SECONDS = 30


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
            pickle.dump((fn, tuple(args)), f)
        commands = [
            [sys.executable, "-m", "tripod.testing.launcher", "--call", payload, os.path.join(folder, f"result{i}.pkl")]
            for i in range(num_processes)
        ]
        _run(commands, run_environments(num_processes, env), timeout, folder)
        results = []
        for i in range(num_processes):
            with open(os.path.join(folder, f"result{i}.pkl"), "rb") as f:
                results.append(pickle.load(f))  # written by our own child processes
        return results


def _run(commands, environments, timeout, folder=None):
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


def _call(payload, result):
    """In a launched process: join the run, call the function, keep its result for `launch`."""
    initialize()
    with open(payload, "rb") as f:
        fn, args = pickle.load(f)  # written by `launch` in the parent process
    value = fn(*args)
    with open(result, "wb") as f:
        pickle.dump(value, f)


def _main(argv):
    if argv[:1] == ["--call"]:
        _call(*argv[1:3])
        return
    if len(argv) < 2 or not argv[0].isdigit():
        sys.exit("usage: python -m tripod.testing.launcher NUM_PROCESSES script.py [args...]")
    count, script = int(argv[0]), argv[1]
    commands = [[sys.executable, script, *argv[2:]] for _ in range(count)]
    try:
        _run(commands, run_environments(count), float(os.environ.get("TRIPOD_LAUNCH_TIMEOUT", "3600")))
    except LaunchError as error:
        sys.exit(f"tripod.testing.launch: {error}")


if __name__ == "__main__":
    _main(sys.argv[1:])
