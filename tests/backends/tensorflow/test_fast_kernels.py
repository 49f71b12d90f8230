"""The tensorflow backend's faster kernels for convnet training: clips by Python numbers (ReLU6)
with a lean gradient, and batch norm in training through TensorFlow's fused kernel. Each is held
to NumPy and to the formula it replaces, values and gradients."""

import numpy as np
import pytest

from tripod.backends import active, config
from tripod.backends.common import fast_paths

pytestmark = pytest.mark.skipif(config.backend() != "tensorflow", reason="tensorflow's kernels")

ops = active()
rng = np.random.default_rng(0)
SPECIAL = [np.nan, -np.inf, np.inf, -0.0, 0.0, 6.0, -1.5, 2.0, 3.0, -7.0, 6.5, 1e-30]


@pytest.fixture(scope="module")
def tf():
    return pytest.importorskip("tensorflow")


def _value_and_grad(tf, fn, *args):
    """fn(*args) and the gradient of sum(fn(*args) * weights) for each argument, traced."""
    weights = rng.standard_normal(fn(*args).shape).astype("float32")

    @tf.function
    def run(*args):
        with tf.GradientTape() as tape:
            tape.watch(args)
            y = fn(*args)
            loss = tf.reduce_sum(tf.cast(y, tf.float32) * weights)
        return y, tape.gradient(loss, args)

    y, grads = run(*(tf.constant(a) for a in args))
    return np.asarray(y), [np.asarray(g) for g in grads], weights


# -- clip ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("low, high", [(0, 6), (0.0, 6.0), (-1.5, 2), (2, 2), (0, np.inf)])
def test_clip_by_numbers_matches_numpy_with_the_bounds_kept_in_the_gradient(tf, low, high):
    x = np.array(SPECIAL + list(rng.uniform(-8, 8, 52)), "float32")
    y, (grad,), weights = _value_and_grad(tf, lambda x: ops.clip(x, low, high), x)
    expected = np.minimum(np.maximum(x, np.float32(low)), np.float32(high))
    np.testing.assert_array_equal(y, expected)
    np.testing.assert_array_equal(np.signbit(y), np.signbit(expected))  # relu6(-0.0) is +0.0
    kept = (x >= low) & (x <= high)
    np.testing.assert_array_equal(grad, np.where(kept, weights, 0))


def test_clip_by_numbers_gradient_equals_maximum_then_minimum(tf):
    x = np.round(rng.uniform(-8, 8, (4, 5, 6)), 0).astype("float32")  # many values on the bounds

    def previous(x):
        return tf.minimum(tf.maximum(x, 0.0), 6.0)

    y, (grad,), weights = _value_and_grad(tf, lambda x: ops.clip(x, 0, 6), x)
    with tf.GradientTape() as tape:
        t = tf.constant(x)
        tape.watch(t)
        loss = tf.reduce_sum(previous(t) * weights)
    np.testing.assert_array_equal(y, np.asarray(previous(x)))
    np.testing.assert_array_equal(grad, np.asarray(tape.gradient(loss, t)))


def test_clip_by_numbers_drops_upstream_nans_where_clipped(tf):
    x = tf.constant([-1.0, 0.0, 3.0, 6.0, 7.0])
    dy = tf.constant([np.nan, np.nan, 1.0, np.nan, np.nan])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = ops.clip(x, 0, 6)
    grad = np.asarray(tape.gradient(y, x, output_gradients=dy))
    np.testing.assert_array_equal(grad, [0.0, np.nan, 1.0, np.nan, 0.0])  # as maximum/minimum's


def test_relu6_clip_runs_the_relu6_kernel_and_no_bound_gradients(tf):
    @tf.function
    def step(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = ops.clip(x, 0.0, 6.0)
        return tape.gradient(y, x)

    graph = step.get_concrete_function(tf.TensorSpec([2, 3])).graph
    kinds = {op.type for op in graph.get_operations()}
    assert "Relu6" in kinds
    assert not kinds & {"Maximum", "Minimum", "Sum"}


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_clip_by_numbers_half_floats(tf, dtype):
    x = np.asarray(ops.cast(ops.cast(np.array(SPECIAL, "float32"), dtype), "float32"))  # rounded
    y, (grad,), weights = _value_and_grad(tf, lambda x: ops.clip(ops.cast(x, dtype), 0, 6), x)
    assert ops.dtype(ops.clip(ops.cast(x, dtype), 0, 6)) == dtype
    np.testing.assert_array_equal(y.astype("float32"), np.minimum(np.maximum(x, 0), 6))
    rounded = np.asarray(ops.cast(ops.cast(weights, dtype), "float32"))  # dy reaches x in `dtype`
    np.testing.assert_array_equal(grad, np.where((x >= 0) & (x <= 6), rounded, 0))


def test_clip_with_tensor_or_crossed_bounds_keeps_the_plain_formula(tf):
    x = np.array(SPECIAL, "float32")
    y, (grad, grad_low), weights = _value_and_grad(
        tf, lambda x, low: ops.clip(x, low, 0.5), x, np.float32(0.5)
    )
    np.testing.assert_array_equal(y, np.minimum(np.maximum(x, 0.5), 0.5))
    np.testing.assert_array_equal(grad, np.zeros_like(x))  # no x lies in [0.5, 0.5]
    assert grad_low == pytest.approx(weights[x < 0.5].sum())  # the bound still gets its gradient
    crossed = np.asarray(ops.clip(x, 3, 1))
    np.testing.assert_array_equal(crossed, np.minimum(np.maximum(x, 3), 1))


# -- batch_norm_training -------------------------------------------------------------------------
def _numpy_batch_norm(x, axis, scale, offset, epsilon):
    axes = tuple(a for a in range(x.ndim) if a != axis % x.ndim)
    shape = [-1 if a == axis % x.ndim else 1 for a in range(x.ndim)]
    mean, variance = x.mean(axes), x.var(axes)
    y = (x - mean.reshape(shape)) / np.sqrt(variance.reshape(shape) + epsilon)
    if scale is not None:
        y = y * scale.reshape(shape)
    if offset is not None:
        y = y + offset.reshape(shape)
    return y, mean, variance


def _previous_batch_norm(x, axis, scale, offset, epsilon):
    """The shared derived hook: moments, then batch_normalization."""
    axes = [a for a in range(len(x.shape)) if a != axis % len(x.shape)]
    mean, variance = ops.moments(x, axes)
    y = ops.batch_normalization(x, mean, variance, axis, offset, scale, epsilon)
    return y, mean, variance


CASES = [((4, 5, 5, 3), -1), ((6, 7), 1), ((2, 3, 4, 5, 6), 4), ((3, 4, 5), 1), ((1, 3), -1)]


@pytest.mark.parametrize("shape, axis", CASES)
@pytest.mark.parametrize("affine", [True, False])
def test_batch_norm_training_matches_numpy_and_the_previous_gradients(tf, shape, axis, affine):
    x = rng.normal(2.0, 3.0, shape).astype("float32")
    features = shape[axis]
    scale = rng.normal(1.0, 0.5, features).astype("float32") if affine else None
    offset = rng.normal(0.0, 1.0, features).astype("float32") if affine else None
    expected = _numpy_batch_norm(x.astype("float64"), axis, scale, offset, 1e-3)
    for out, want in zip(ops.batch_norm_training(x, axis, scale, offset, 1e-3), expected):
        np.testing.assert_allclose(np.asarray(out), want, rtol=2e-5, atol=2e-5)
    if not affine:
        return
    args = (x, scale, offset)
    _, new, weights = _value_and_grad(
        tf, lambda *a: ops.batch_norm_training(a[0], axis, a[1], a[2], 1e-3)[0], *args
    )
    with tf.GradientTape() as tape:
        tensors = [tf.constant(a) for a in args]
        tape.watch(tensors)
        y = _previous_batch_norm(tensors[0], axis, tensors[1], tensors[2], 1e-3)[0]
        loss = tf.reduce_sum(y * weights)
    for got, want in zip(new, tape.gradient(loss, tensors)):
        np.testing.assert_allclose(got, np.asarray(want), rtol=1e-4, atol=1e-4)


@pytest.mark.skipif(
    not fast_paths.enabled(), reason="tests a fast path: batch_norm_training is off"
)
def test_batch_norm_training_runs_the_fused_kernel_for_features_last(tf):
    @tf.function
    def step(x):
        return ops.batch_norm_training(x, -1, None, None, 1e-3)

    graph = step.get_concrete_function(tf.TensorSpec([None, 4, 4, 3])).graph
    assert "FusedBatchNormV3" in {op.type for op in graph.get_operations()}
    out, mean, variance = step(tf.ones([1, 4, 4, 3]))  # one value: variance 0, not 0 / 0
    np.testing.assert_array_equal(np.asarray(mean), np.ones(3))
    np.testing.assert_array_equal(np.asarray(variance), np.zeros(3))
    np.testing.assert_array_equal(np.asarray(out), np.zeros((1, 4, 4, 3)))


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float64"])
def test_batch_norm_training_other_dtypes(tf, dtype):
    x = rng.normal(1.0, 2.0, (8, 3, 4)).astype("float32")
    scale, offset = np.full(4, 1.5, "float32"), np.full(4, 0.25, "float32")
    cast = [ops.cast(v, dtype) for v in (x, scale, offset)]
    outs = ops.batch_norm_training(cast[0], -1, cast[1], cast[2], 1e-3)
    tolerance = 1e-12 if dtype == "float64" else 3e-2
    rounded = [np.asarray(ops.cast(c, "float64")) for c in cast]  # the inputs as in `dtype`
    expected = _numpy_batch_norm(rounded[0], -1, rounded[1], rounded[2], 1e-3)
    for out, want in zip(outs, expected):
        assert ops.dtype(out) == dtype
        got = np.asarray(ops.cast(out, "float64"))
        np.testing.assert_allclose(got, want, rtol=tolerance, atol=tolerance)
