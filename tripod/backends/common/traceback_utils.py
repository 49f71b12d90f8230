"""Tracebacks without tripod's internal frames, as `tripod.config.enable_traceback_filtering` asks.

An error raised deep inside a fit loop carries dozens of tripod frames that say nothing about the
user's code; the decorated entry points re-raise it with only the frames outside tripod.
"""

import functools
import os
import types

from tripod.backends import config

#: frames from files under this folder are internal
_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _internal(frame):
    return os.path.abspath(frame.f_code.co_filename).startswith(_PACKAGE_DIR + os.sep)


def without_internal_frames(tb):
    """Traceback `tb` without the frames of tripod's own files (None when only those: the
    frames of the caller, which the error gathers as it propagates, are what remains)."""
    kept = []
    while tb is not None:
        if not _internal(tb.tb_frame):
            kept.append(tb)
        tb = tb.tb_next
    filtered = None
    for entry in reversed(kept):
        filtered = types.TracebackType(filtered, entry.tb_frame, entry.tb_lasti, entry.tb_lineno)
    return filtered


def filter_traceback(fn):
    """`fn` re-raising its errors without tripod's internal frames while filtering is enabled."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if not config.is_traceback_filtering_enabled():
            return fn(*args, **kwargs)
        try:
            return fn(*args, **kwargs)
        except Exception as e:  # noqa: BLE001 (re-raised at once: only its traceback is trimmed)
            # the same error, re-raised: its message and cause are kept
            raise e.with_traceback(without_internal_frames(e.__traceback__))  # noqa: B904

    return wrapper
