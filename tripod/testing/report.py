"""`ParityReport`: what `check_backend_parity` found, as a table, a verdict and a dict."""

import dataclasses
import math


class ParityError(AssertionError):
    """Raised by `ParityReport.raise_for_violations` when some backend disagrees.

    An `AssertionError`, so a test that calls `raise_for_violations()` fails rather than errors.
    """


def _number(value):
    """A float for the table: 3 significant digits, "-" when there is none."""
    return "-" if value is None else f"{value:.3g}"


def _json_number(value):
    """A float JSON can hold: non-finite values as the strings "inf" / "nan"."""
    return value if value is None or math.isfinite(value) else str(value)


def _table(rows):
    """`rows` (lists of strings, the first the header) as left-aligned columns."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in rows)


@dataclasses.dataclass
class ParityReport:
    """The result of `check_backend_parity`.

    `comparisons`: one `Comparison` per output (and, with per_layer, per layer call) and
    non-reference backend. `failures`: backend -> the error (stderr tail) of a backend that
    could not run. `notes`: remarks such as "per-layer not supported for this model".
    `outputs` and `layers`: backend -> {name: NumPy array}, what each backend produced.
    """

    reference: str
    backends: list
    atol: float
    rtol: float
    comparisons: list = dataclasses.field(default_factory=list)
    failures: dict = dataclasses.field(default_factory=dict)
    notes: list = dataclasses.field(default_factory=list)
    outputs: dict = dataclasses.field(default_factory=dict, repr=False)
    layers: dict = dataclasses.field(default_factory=dict, repr=False)

    @property
    def ok(self):
        """True when every backend ran and agrees with the reference on everything compared."""
        return not self.failures and all(c.ok for c in self.comparisons)

    @property
    def violations(self):
        """The comparisons that failed, followed by one line per backend that failed to run."""
        found = [
            f"{c.backend} {c.kind} {c.name!r}: {c.describe()}" for c in self.comparisons if not c.ok
        ]
        return found + [f"{backend} failed: {error}" for backend, error in self.failures.items()]

    def raise_for_violations(self):
        """Raise `ParityError` listing every violation; return the report when there is none."""
        if not self.ok:
            raise ParityError(
                f"backends disagree with {self.reference} (atol={self.atol}, rtol={self.rtol}):\n"
                + "\n".join(f"- {line}" for line in self.violations)
            )
        return self

    def to_dict(self):
        """The report as JSON-able data (without the arrays)."""
        comparisons = []
        for c in self.comparisons:
            entry = dataclasses.asdict(c)
            entry.update(ok=c.ok, max_abs=_json_number(c.max_abs), max_rel=_json_number(c.max_rel))
            comparisons.append(entry)
        return {
            "ok": self.ok,
            "reference": self.reference,
            "backends": list(self.backends),
            "atol": self.atol,
            "rtol": self.rtol,
            "comparisons": comparisons,
            "failures": dict(self.failures),
            "notes": list(self.notes),
        }

    def __str__(self):
        verdict = "OK" if self.ok else f"{len(self.violations)} violation(s)"
        backends = ", ".join(self.backends)
        lines = [
            f"Backend parity against {self.reference} (atol={self.atol:g}, rtol={self.rtol:g}) "
            + f"on {backends}: {verdict}"
        ]
        for kind in ("output", "layer"):
            rows = [c for c in self.comparisons if c.kind == kind]
            if rows:
                header = [kind, "backend", "max abs diff", "max rel diff", "ok", ""]
                body = [
                    [
                        c.name,
                        c.backend,
                        _number(c.max_abs),
                        _number(c.max_rel),
                        "yes" if c.ok else "NO",
                        c.describe(),
                    ]
                    for c in rows
                ]
                lines += ["", _table([header] + body)]
        for backend, error in self.failures.items():
            lines += ["", f"{backend} FAILED:", error]
        lines += [f"note: {note}" for note in self.notes]
        return "\n".join(lines)
