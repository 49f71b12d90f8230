"""The benchmark scripts still run (not timed: tiny problem sizes, one run), and every side of a
problem builds the same model."""

import importlib

import pytest

import tripod
from tripod.backends import config

pytestmark = pytest.mark.skipif(config.backend() == "numpy", reason="benchmarks time training")


#: the fast tier's problems (one dense, one convolutional); the slow tier runs every problem
FAST_PROBLEMS = ("tutorial_mlp", "small_cnn")


@pytest.fixture(
    scope="module",
    params=[
        pytest.param(FAST_PROBLEMS, id="two-problems"),
        pytest.param(None, id="every-problem", marks=pytest.mark.slow),
    ],
)
def rows(request):
    """One untimed round of each problem on every side, tiny sizes, in order: the benchmark's own
    pipeline (a tripod + native worker process and a Keras one)."""
    run = importlib.import_module("benchmarks.run")
    problems = list(request.param or run.ALL_PROBLEMS)
    rows = list(run.measure(config.backend(), problems, runs=1, tiny=True))
    assert [r["problem"] for r in rows] == problems
    return rows


def test_each_problem_runs_on_tripod_native_and_keras(rows):
    run = importlib.import_module("benchmarks.run")
    for r in rows:
        for side in ("tripod", "native", "keras"):
            assert (
                r[f"{side}_ms_per_step"] > 0
                and r[f"{side}_first_epoch_s"] > 0
                and r[f"{side}_predict_per_s"] > 0
            )
    table = run.table(rows).splitlines()
    assert len(table) == 2 + len(rows) and all(
        f"| {r['problem']} |" in table[2 + i] for i, r in enumerate(rows)
    )


def test_tripod_native_and_keras_models_have_the_same_parameter_count(rows):
    for r in rows:
        print(
            f"{r['problem']}: (trainable, batch-norm statistics) tripod {r['tripod_params']}, "
            f"native {r['native_params']}, Keras {r['keras_params']}"
        )
    assert all(r["tripod_params"] == r["native_params"] == r["keras_params"] for r in rows)
    for r in rows:
        if r["problem"] == "resnet":  # batch-norm statistics are counted (every-problem run)
            assert r["tripod_params"][1] > 0


def test_memory_script_reports_both_peaks():
    memory = importlib.import_module("benchmarks.memory")
    backend = config.backend()
    ours, native = (
        memory.peak(backend, "tripod", "tutorial_mlp"),
        memory.peak(backend, "native", "tutorial_mlp"),
    )
    assert ours > 50 and native > 50  # MiB: both processes really ran the framework


def test_run_chooses_backends_and_sides():
    run = importlib.import_module("benchmarks.run")
    args = run.arguments(["resnet,lstm", "2", "--backends", "torch,jax", "--no-keras"])
    assert (args.problems, args.runs, args.backends, args.no_keras) == (
        "resnet,lstm",
        2,
        "torch,jax",
        True,
    )


def test_jit_compile_is_torch_only():
    run = importlib.import_module("benchmarks.run")
    assert run.arguments(["--backends", "torch", "--jit-compile"]).jit_compile
    assert not run.arguments(["--backends", "torch"]).jit_compile
    with pytest.raises(SystemExit):
        run.arguments(["--backends", "torch,jax", "--jit-compile"])


@pytest.mark.skipif(config.backend() != "torch", reason="--jit-compile times torch.compile")
def test_jit_compile_times_compiled_tripod_and_native_steps(monkeypatch):
    models = importlib.import_module("benchmarks.models")
    monkeypatch.setitem(models.COMPILE_OPTIONS, "jit_compile", True)
    model, compile_args = models.build(tripod, "tutorial_mlp")
    assert compile_args["jit_compile"] is True and model.jit_compile is True  # predict compiles
    run = importlib.import_module("benchmarks.run")
    (r,) = run.measure("torch", ["tutorial_mlp"], runs=1, keras=False, tiny=True, jit_compile=True)
    assert all(
        r[f"{side}_{key}"] > 0
        for side in ("tripod", "native")
        for key in ("ms_per_step", "first_epoch_s", "predict_per_s")
    )


def test_import_time_script_times_a_fresh_import():
    timing = importlib.import_module("benchmarks.import_time")
    framework, own = timing.seconds(config.backend())
    assert 0 < framework < 120 and 0 < own < 120
