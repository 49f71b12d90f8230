"""Functions run by `tripod.testing.launch` in tests (importable by name in new processes)."""

import os
import time

import tripod


def where_am_i(tag):
    """This process's place in the run, as the run's variables and tripod see it."""
    return tag, os.environ["TRIPOD_DISTRIBUTION_PROCESS_ID"], tripod.distribution.process_id()


def fail_in_process(index, message):
    """Raise in process `index`; the others wait far longer than any test's timeout."""
    if os.environ["TRIPOD_DISTRIBUTION_PROCESS_ID"] == str(index):
        raise RuntimeError(message)
    time.sleep(600)


def sleep(seconds):
    time.sleep(seconds)
