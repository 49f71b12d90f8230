"""`print_msg`: where tripod's progress and messages go, as `tripod.config` switches it."""

import logging
import sys

from tripod.backends import config

logger = logging.getLogger("tripod")


def print_msg(message, line_break=True):
    """Write `message` to stdout while interactive logging is enabled, else log it (INFO, logger
    `tripod`) for jobs whose output goes to log files."""
    if config.is_interactive_logging_enabled():
        sys.stdout.write(message + "\n" if line_break else message)
        sys.stdout.flush()
    else:
        logger.info(message)
