"""Watching a logged metric: which direction is better, and whether a value improved on another."""

import warnings

import numpy as np

_MIN_HINTS = ("loss", "error", "crossentropy", "mse", "mae", "mape", "msle", "hinge", "divergence")
_MAX_HINTS = (
    "acc",
    "auc",
    "precision",
    "recall",
    "iou",
    "f1",
    "fbeta",
    "fmeasure",
    "r2",
    "specificity",
)


def resolve_mode(owner, mode):
    """`mode` checked: "min", "max" or "auto" (an unknown mode warns and falls back to "auto")."""
    if mode not in ("auto", "min", "max"):
        warnings.warn(
            f"{owner} mode {mode!r} is unknown, falling back to 'auto' mode.", stacklevel=3
        )
        return "auto"
    return mode


def infer_mode(owner, monitor, model=None):
    """ "min" or "max" for `monitor`, from the metric's `_direction` or its name."""
    name = monitor.removeprefix("val_")
    for metric in getattr(model, "metrics", None) or []:
        direction = getattr(metric, "_direction", None)
        if getattr(metric, "name", None) == name and direction in ("up", "down"):
            return "max" if direction == "up" else "min"
    lowered = name.lower()
    if any(hint in lowered for hint in _MIN_HINTS):
        return "min"
    if any(hint in lowered for hint in _MAX_HINTS):
        return "max"
    raise ValueError(
        f"{owner} callback received monitor={monitor!r}, but cannot tell whether that metric should "
        "be minimized or maximized. Pass mode='min' or mode='max'."
    )


class Monitor:
    """The best value seen of one logged quantity, and the improvement test (beyond `min_delta`)."""

    def __init__(self, owner, monitor, mode="auto", min_delta=0.0):
        self.owner = owner
        self.monitor = monitor
        self.mode = resolve_mode(owner, mode)
        self.min_delta = abs(float(min_delta))
        self.direction = None if self.mode == "auto" else self.mode

    def resolve(self, model=None):
        """Fix the direction ("auto" is inferred now, when the model's metrics exist)."""
        if self.direction is None:
            self.direction = infer_mode(self.owner, self.monitor, model)
        return self.direction

    def worst(self):
        """The starting 'best' value: any finite value improves on it."""
        return np.inf if self.resolve() == "min" else -np.inf

    def improved(self, current, reference):
        """Whether `current` is better than `reference` by more than `min_delta`."""
        if self.resolve() == "min":
            return bool(current < reference - self.min_delta)
        return bool(current > reference + self.min_delta)

    def value(self, logs):
        """The monitored value in `logs` as a float, or None (with a warning) if it is missing."""
        value = (logs or {}).get(self.monitor)
        if value is None:
            available = ",".join(sorted(logs or {}))
            warnings.warn(
                f"{self.owner} is conditioned on metric `{self.monitor}`, which is not available. "
                f"Available metrics are: {available}.",
                stacklevel=3,
            )
            return None
        return float(np.asarray(value))
