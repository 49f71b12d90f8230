"""`benchmarks/int8_predict.py` still runs (tiny sizes, untimed): int8 weights take a quarter of
the float32 bytes (plus the scales) and give outputs close to float32's."""

import importlib


def test_int8_benchmark_runs_and_shrinks_the_weights():
    bench = importlib.import_module("benchmarks.int8_predict")
    result = bench.measure(width=16, depth=2, batch=4, runs=1, batches=1)
    float_bytes, int8_bytes = result["float32"][1], result["int8"][1]
    kernels, biases = 2 * 16 * 16, 2 * 16
    assert float_bytes == 4 * (kernels + biases)
    assert int8_bytes == kernels + 4 * biases + 4 * 2 * 16  # int8 kernels, float biases, scales
    assert result["max_abs_diff"] < 0.1
    assert result["float32"][0] > 0 and result["int8"][0] > 0
