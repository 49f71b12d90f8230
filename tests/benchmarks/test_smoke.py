"""The benchmark scripts still run (not timed: tiny problem sizes, one run)."""

import importlib

import pytest

from tripod.backends import config

pytestmark = pytest.mark.skipif(config.backend() == "numpy", reason="benchmarks time training")


def test_benchmark_rows_for_every_problem(monkeypatch, capsys):
    bench = importlib.import_module("benchmarks.bench_backend")
    models = importlib.import_module("benchmarks.models")
    shrunk = {name: (shape, units, 32, 64, 1) for name, (shape, units, _, _, _) in models.PROBLEMS.items()}
    monkeypatch.setattr(models, "PROBLEMS", shrunk)
    monkeypatch.setattr(bench, "PROBLEMS", shrunk)
    native = importlib.import_module(f"benchmarks.{bench.NATIVE[config.backend()]}")
    monkeypatch.setattr(native, "PROBLEMS", shrunk)
    bench.main(list(shrunk), runs=1)
    rows = capsys.readouterr().out.strip().splitlines()
    assert len(rows) == len(shrunk)
    for row in rows:
        assert '"step_ratio"' in row and '"predict_ratio"' in row
