"""Frameworks and converters talk a lot: their logging silenced for a block, then restored."""

import contextlib
import logging
import os


@contextlib.contextmanager
def quiet_loggers(names, verbose=False):
    """Within the block, the loggers `names` log errors only (unless `verbose`); their levels
    are restored afterwards."""
    if verbose:
        yield
        return
    loggers = [logging.getLogger(name) for name in names]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels):
            logger.setLevel(level)


@contextlib.contextmanager
def environment(**settings):
    """Within the block, the environment variables `settings` default to the values given (one
    the user set keeps theirs); afterwards the environment is as it was."""
    added = [name for name in settings if name not in os.environ]
    for name in added:
        os.environ[name] = settings[name]
    try:
        yield
    finally:
        for name in added:
            os.environ.pop(name, None)
