"""A module no saved file may ever import: importing it leaves a marker file (tests check)."""

import os

open(os.environ.get("TRIPOD_EVIL_MARKER", os.devnull), "w").close()
