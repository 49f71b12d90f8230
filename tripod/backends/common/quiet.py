"""Converters talk a lot: their logging silenced while tripod exports, unless asked to speak."""

import contextlib
import logging


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
