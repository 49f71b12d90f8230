"""`Progbar`: the Keras-style progress bar (`12/50 ━━━━━━━━━━━━━━━━━━━━ 1s 20ms/step - loss: 0.31`).

It redraws one line in a terminal or notebook and prints only the final line elsewhere (logs,
CI), so piped output stays short. With `tripod.config.disable_interactive_logging()` the final
lines go to the `logging` module instead of stdout.
"""

import os
import sys
import time

import numpy as np

from tripod.backends import config
from tripod.training.io_utils import print_msg


def _interactive():
    """Whether output goes to a terminal or a notebook, where the bar can be redrawn."""
    if not config.is_interactive_logging_enabled():
        return False
    if "ipykernel" in sys.modules:
        return True
    return (
        hasattr(sys.stdout, "isatty") and sys.stdout.isatty() and os.environ.get("TERM") != "dumb"
    )


def _format_time(seconds):
    if seconds >= 3600:
        return f"{int(seconds // 3600)}:{int(seconds % 3600 // 60):02d}:{int(seconds % 60):02d}"
    if seconds >= 60:
        return f"{int(seconds // 60)}:{int(seconds % 60):02d}"
    return f"{int(seconds)}s"


def _format_per_step(seconds, unit):
    if seconds >= 1:
        return f"{seconds:.0f}s/{unit}"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.0f}ms/{unit}"
    return f"{seconds * 1e6:.0f}us/{unit}"


def _format_value(value):
    value = float(np.mean(value))
    return f"{value:.4f}" if 1e-3 <= abs(value) < 1e4 or value == 0 else f"{value:.4e}"


class Progbar:
    """A progress bar for `target` steps (None when unknown); `update(current, values)` redraws."""

    def __init__(
        self,
        target,
        width=20,
        verbose=1,
        interval=0.05,
        stateful_metrics=None,
        stateless_metrics=None,
        unit_name="step",
    ):
        self.target = target
        self.width = width
        self.verbose = verbose
        self.interval = interval
        self.unit_name = unit_name
        self.stateful_metrics = set(stateful_metrics or ())
        self._values = {}
        self._order = []
        self._start = time.time()
        self._last_draw = 0.0
        self._interactive = _interactive()
        self._last_length = 0

    def update(self, current, values=None, finalize=None):
        """Record `values` (name, value) pairs at step `current`, and redraw when it is time."""
        finalize = (
            finalize
            if finalize is not None
            else (self.target is not None and current >= self.target)
        )
        for name, value in values or ():
            if name not in self._values:
                self._order.append(name)
            self._values[name] = value
        now = time.time()
        if self.verbose == 0 or (
            not finalize and (not self._interactive or now - self._last_draw < self.interval)
        ):
            return
        if self.verbose == 2 and not finalize:
            return
        self._last_draw = now
        line = self._line(current, now, finalize)
        if self._interactive and self.verbose == 1:
            padding = " " * max(0, self._last_length - len(line))
            print_msg("\r" + line + padding, line_break=finalize)
            self._last_length = len(line)
        else:
            print_msg(line, line_break=finalize)

    def add(self, n, values=None):
        """Advance by `n` steps."""
        self.update(getattr(self, "_current", 0) + n, values)
        self._current = getattr(self, "_current", 0) + n

    def _line(self, current, now, finalize):
        elapsed = now - self._start
        per_step = elapsed / max(current, 1)
        if self.target is not None:
            done = int(self.width * min(current, self.target) / max(self.target, 1))
            bar = (
                f"\x1b[1m{'━' * done}\x1b[0m{'━' * (self.width - done)}"
                if self._interactive
                else "━" * self.width
            )
            head = f"{current}/{self.target} {bar} "
            timing = (
                _format_time(elapsed)
                if finalize
                else _format_time(per_step * (self.target - current))
            )
        else:
            head = f"{current} "
            timing = _format_time(elapsed)
        parts = [f"{head}{timing} {_format_per_step(per_step, self.unit_name)}"]
        parts += [f"{name}: {_format_value(self._values[name])}" for name in self._order]
        return " - ".join(parts)
