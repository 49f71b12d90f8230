"""How one backend's array differs from the reference's, with numpy `allclose` semantics."""

import dataclasses

import numpy as np


@dataclasses.dataclass
class Comparison:
    """One output (or layer) of one backend against the reference.

    `max_abs` is the largest |value - reference|; `max_rel` the largest |value - reference| /
    |reference| over elements where the reference is non-zero (both None when the arrays could
    not be compared). `mismatched` counts elements outside `atol + rtol * |reference|`;
    `problem` says what else is wrong (shape, dtype, NaN, a missing output), or is None.
    """

    name: str
    kind: str
    backend: str
    max_abs: float | None = None
    max_rel: float | None = None
    mismatched: int = 0
    size: int = 0
    problem: str | None = None

    @property
    def ok(self):
        """Whether every element is within tolerance and nothing else is wrong."""
        return self.problem is None and self.mismatched == 0

    def describe(self):
        """What is wrong, in words ("" when nothing is)."""
        parts = (
            [f"{self.mismatched}/{self.size} elements outside tolerance"] if self.mismatched else []
        )
        return "; ".join(parts + ([self.problem] if self.problem else []))


def _largest(values, where):
    return float(np.max(values, initial=0.0, where=where))


def compare(name, kind, backend, value, reference, atol, rtol):
    """A `Comparison` of `value` against `reference` (NumPy arrays) within atol and rtol."""
    found = Comparison(name, kind, backend, size=int(reference.size))
    if value.shape != reference.shape:
        found.problem = f"shape {value.shape} != reference shape {reference.shape}"
        return found
    problems = []
    if value.dtype != reference.dtype:
        problems.append(f"dtype {value.dtype} != reference dtype {reference.dtype}")
    if reference.dtype.kind not in "biufc" or value.dtype.kind not in "biufc":
        found.mismatched = int(np.sum(value != reference))
    else:
        a = value.astype(np.complex128 if value.dtype.kind == "c" else np.float64)
        r = reference.astype(np.complex128 if reference.dtype.kind == "c" else np.float64)
        with np.errstate(invalid="ignore", divide="ignore"):
            same = (a == r) | (np.isnan(a) & np.isnan(r))
            diff = np.where(same, 0.0, np.abs(a - r))
            close = same | (np.isfinite(r) & (diff <= atol + rtol * np.abs(r)))
            rel = diff / np.abs(r)
        found.max_abs = _largest(diff, ~np.isnan(diff))
        found.max_rel = _largest(rel, (r != 0) & ~np.isnan(rel))
        found.mismatched = int(np.sum(~close))
        new_nans = int(np.sum(np.isnan(a) & ~np.isnan(r)))
        if new_nans:
            problems.append(f"{new_nans} NaN where the reference has a number")
    found.problem = "; ".join(problems) or None
    return found


def missing(name, kind, backend, where):
    """A `Comparison` for an output that only one side produced (`where` says which)."""
    return Comparison(name, kind, backend, problem=f"produced only by {where}")
