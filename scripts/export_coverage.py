"""The export coverage table: every built-in layer × export format × backend, exported and
verified against `model.predict`, or the error that stops it.

One run covers the active backend (`TRIPOD_BACKEND`): for each format that backend writes and
each case of `tests/export/catalog.py`, it exports the case's model with `model.export`, checks
the artifact with `tripod.export.verify` (run without tripod, at batch sizes 1 and 5) and records
"verified (max diff X)" or the first line of the error, in a JSON file. `--table` merges the
backends' JSON files into the Markdown table of docs/export.md.

Usage:
  TRIPOD_BACKEND=jax python scripts/export_coverage.py --out results_jax.json [--cases Dense LSTM]
  python scripts/export_coverage.py --table results_jax.json results_torch.json \
      results_tensorflow.json > table.md
"""

import argparse
import json
import os
import re
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)

import tripod.export
from tests.export import catalog
from tripod.backends import active, config

#: the file or folder name each format is written to
ARTIFACT_NAMES = {"onnx": "model.onnx", "torch": "model.pt2", "tf_saved_model": "saved_model"}
#: the batch sizes an artifact must run at (neither is the batch a converter traces with)
BATCH_SIZES = (1, 5)
#: the longest reason a table cell shows
REASON_CHARS = 70
#: the prefix `model.export` puts before the converter's own message
EXPORT_PREFIX = re.compile(r"^Exporting model .*? failed(?: in layer '[^']*' \((\w+)\))?: ")
#: `verify`'s long phrases -> the words a table cell shows instead
SHORTER = [
    (re.compile(r"^ExportMismatch: The artifact disagrees with model\.predict: "), "mismatch: "),
    (re.compile(r"^ExportMismatch: The artifact at \S+ failed to run: "), "fails to run: "),
]


def first_line(exc):
    """`exc` as one line: its type and the first line of its message, followed by the message's
    last line when the first only introduces what follows (a subprocess's traceback, a report)."""
    lines = [line.strip() for line in str(exc).strip().splitlines() if line.strip()]
    text = lines[0] if lines else ""
    if text.endswith(":") and len(lines) > 1:
        text = f"{text} {lines[-1]}"
    return f"{type(exc).__name__}: {text}".rstrip(": ")


def export_case(case, formats, backend, folder):
    """(model, {format: artifact path or failure record}) for one catalog case: the model is
    built once and exported in each format; a failure to build or predict fills every format."""
    try:
        model = case.build()
        model.predict(case.inputs, verbose=0)
    except Exception as exc:  # noqa: BLE001 - every failure is a table entry
        record = failed(exc, stage="model", expected=case.expected_errors.get(backend))
        return None, {fmt: record for fmt in formats}
    exported = {}
    for fmt in formats:
        path = os.path.join(folder, f"{case.name}-{fmt}-{ARTIFACT_NAMES[fmt]}")
        try:
            model.export(path, format=fmt, verbose=False)
            exported[fmt] = path
        except Exception as exc:  # noqa: BLE001
            exported[fmt] = failed(exc, stage="export")
    return model, exported


def verify_all(checks):
    """{(case name, format): record} for every exported artifact in `checks` (case, model,
    format, path), all run in one process without tripod by `verify_many`."""
    found = tripod.export.verify_many(
        [(path, model, case.inputs, fmt) for case, model, fmt, path in checks],
        batch_sizes=BATCH_SIZES, timeout=3600,
    )  # fmt: skip
    return {(case.name, fmt): verified(result)
            for (case, _, fmt, _), result in zip(checks, found)}  # fmt: skip


def verified(result):
    """The record of one artifact's `verify_many` result (a report or an exception)."""
    if isinstance(result, Exception):
        return failed(result, stage="verify")
    diff = float(result.max_abs_diff)
    return {"ok": True, "max_abs_diff": diff, "text": f"verified (max diff {diff:.2g})"}


def failed(exc, stage, expected=None):
    """The record of an error at `stage` ("model", "export" or "verify"); `expected` is the
    catalog's fragment of the error this backend should raise, kept when the error has it."""
    return {"ok": False, "stage": stage, "text": first_line(exc),
            "expected": expected if expected and expected in str(exc) else None}  # fmt: skip


def run(out, names=None, formats=None):
    """Cover the active backend's formats for the catalog's cases (or those `names`): export
    every case, then verify every artifact in one process (a framework starts once, not per
    artifact); write the results to `out` as JSON and return them."""
    formats = list(formats or active().export_formats())
    cases = [c for c in catalog.CASES if not names or c.name in names or c.layer in names]
    backend = config.backend()
    started = time.time()
    results, checks = {}, []
    with tempfile.TemporaryDirectory() as folder:
        for case in cases:
            model, exported = export_case(case, formats, backend, folder)
            results[case.name] = {fmt: found for fmt, found in exported.items()
                                  if not isinstance(found, str)}  # fmt: skip
            checks += [(case, model, fmt, found) for fmt, found in exported.items()
                       if isinstance(found, str)]  # fmt: skip
            print(f"[{time.time() - started:6.1f}s] exported {case.name}", flush=True)
        for (name, fmt), record in verify_all(checks).items():
            results[name][fmt] = record
    summary = {"backend": backend, "formats": formats,
               "seconds": round(time.time() - started, 1),
               "missing_layers": catalog.missing_layers(),
               "results": {c.name: {f: results[c.name][f] for f in formats} for c in cases}}  # fmt: skip
    save(summary, out)
    return summary


def save(summary, out):
    """Write `summary` to `out` as JSON, replacing the previous file only once written."""
    with open(out + ".tmp", "w") as f:
        json.dump(summary, f, indent=1)
    os.replace(out + ".tmp", out)


def short_reason(text):
    """A table cell's reason: the converter's message without `model.export`'s preamble (the
    failing layer class kept in front), cut to `REASON_CHARS`, safe inside a Markdown table."""
    match = EXPORT_PREFIX.match(text.partition(": ")[2])
    if match:
        rest = text.partition(": ")[2][match.end() :]
        text = f"{match.group(1)}: {rest}" if match.group(1) else rest
    for pattern, words in SHORTER:
        text = pattern.sub(words, text)
    text = text.replace("|", "\\|").replace("`", "'")
    return text if len(text) <= REASON_CHARS else text[: REASON_CHARS - 1] + "…"


def cell(record):
    """ "✓" for a verified artifact, else "error: <short reason>" (the catalog's words for an
    expected error); blank for no record."""
    if record is None:
        return ""
    if record["ok"]:
        return "✓"
    return f"error: {short_reason(record.get('expected') or record['text'])}"


def table(paths):
    """The Markdown coverage table of the given result files: a row per case, a column per
    backend × format, and a last line counting verified cells per column."""
    runs = []
    for path in paths:
        with open(path) as f:
            runs.append(json.load(f))
    columns = [(r, fmt) for r in runs for fmt in r["formats"]]
    rows = list(dict.fromkeys(name for r in runs for name in r["results"]))
    lines = [
        "| layer | " + " | ".join(f"{r['backend']} {fmt}" for r, fmt in columns) + " |",
        "|---" * (len(columns) + 1) + "|",
    ]
    for name in rows:
        cells = [cell(r["results"].get(name, {}).get(fmt)) for r, fmt in columns]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    counts = [sum(1 for res in r["results"].values() if res.get(fmt, {}).get("ok"))
              for r, fmt in columns]  # fmt: skip
    lines.append("| **verified** | " + " | ".join(f"{n}/{len(rows)}" for n in counts) + " |")
    return "\n".join(lines)


def main(argv=None):
    """Parse the command line: one backend's run (`--out`) or the merged table (`--table`)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", help="JSON file for this backend's results "
                        "(default results_<backend>.json)")  # fmt: skip
    parser.add_argument("--cases", nargs="+", help="only these catalog cases (or layer names)")
    parser.add_argument("--formats", nargs="+", help="only these formats")
    parser.add_argument("--table", nargs="+", metavar="JSON",
                        help="print the Markdown table merging these result files")  # fmt: skip
    args = parser.parse_args(argv)
    if args.table:
        print(table(args.table))
        return
    run(args.out or f"results_{config.backend()}.json", args.cases, args.formats)


if __name__ == "__main__":
    main()
