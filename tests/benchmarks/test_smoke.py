"""The benchmark scripts still run (not timed: tiny problem sizes, one run)."""

import importlib

import pytest

from tripod.backends import config

pytestmark = pytest.mark.skipif(config.backend() == "numpy", reason="benchmarks time training")


def test_benchmark_rows_for_every_problem(monkeypatch, capsys):
    bench = importlib.import_module("benchmarks.bench_backend")
    problems = importlib.import_module("benchmarks.problems")
    shrunk = {name: (shape, units, 32, 64, 1) for name, (shape, units, _, _, _) in problems.PROBLEMS.items()}
    monkeypatch.setattr(problems, "PROBLEMS", shrunk)
    monkeypatch.setattr(bench, "PROBLEMS", shrunk)
    native = importlib.import_module(f"benchmarks.{bench.NATIVE[config.backend()]}")
    monkeypatch.setattr(native, "PROBLEMS", shrunk)
    bench.main(list(shrunk), runs=1)
    rows = capsys.readouterr().out.strip().splitlines()
    assert len(rows) == len(shrunk)
    for row in rows:
        assert '"step_ratio"' in row and '"predict_ratio"' in row


def test_memory_script_reports_both_peaks():
    memory = importlib.import_module("benchmarks.memory")
    backend = config.backend()
    ours, native = memory.peak(backend, "tripod", "tutorial_mlp"), memory.peak(backend, "native", "tutorial_mlp")
    assert ours > 50 and native > 50  # MiB: both processes really ran the framework


def test_import_time_script_times_a_fresh_import():
    timing = importlib.import_module("benchmarks.import_time")
    framework, own = timing.seconds(config.backend())
    assert 0 < framework < 120 and 0 < own < 120
