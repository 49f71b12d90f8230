"""The shared layer test: one call checks what every layer must do, on the active backend."""

import numpy as np

import tripod
from tripod.backends import active, config
from tripod.backends.common import tree
from tripod.layers import Input, Layer

ops = active()
TRAINS = config.backend() != "numpy"


def random_input(shape, dtype="float32", seed=0, low=None, high=None):
    """A fixed-seed NumPy array: normal floats, or integers in [low, high) for int dtypes."""
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind in "iu":
        return rng.integers(low or 0, high or 10, shape).astype(dtype)
    if np.dtype(dtype) == bool:
        return rng.random(shape) > 0.5
    return rng.standard_normal(shape).astype(dtype)


def to_numpy(x):
    return tree.map_structure(lambda t: None if t is None else np.asarray(ops.convert_to_numpy(t)), x)


def run_layer_test(layer_cls, init_kwargs=None, input_shape=(2, 3), input_dtype="float32",
                   input_data=None, call_kwargs=None, expected_output_shape=None,
                   expected_output_dtype=None, expected_num_trainable_weights=None,
                   expected_num_non_trainable_weights=None, expected_num_seed_generators=None,
                   supports_masking=None, run_training_check=True, run_symbolic_check=True):  # fmt: skip
    """Build, call (symbolically and eagerly), round-trip the config, check weight counts and that
    one gradient step changes the trainable weights. Returns the eager output as NumPy.

    `input_shape` includes the batch dimension; `expected_output_shape` too (a structure of
    shapes for several outputs).
    """
    init_kwargs = init_kwargs or {}
    call_kwargs = call_kwargs or {}
    layer = layer_cls(**init_kwargs)
    assert isinstance(layer, Layer)

    # The config round-trips.
    config = layer.get_config()
    clone = layer_cls.from_config(config)
    assert clone.get_config() == config, f"{layer_cls.__name__}: config does not round-trip"

    data = input_data if input_data is not None else tree.map_shape_structure(
        lambda s: random_input(s, input_dtype), input_shape
    )

    if run_symbolic_check:
        shapes = tree.map_structure(lambda a: tuple(a.shape), data)
        symbolic_in = tree.map_shape_structure(
            lambda s: Input(batch_shape=(None,) + s[1:], dtype=input_dtype), shapes
        )
        symbolic_out = layer_cls(**init_kwargs)(symbolic_in, **call_kwargs)

    output = layer(data, **call_kwargs)
    actual_shapes = tree.map_structure(lambda t: None if t is None else tuple(t.shape), output)
    if expected_output_shape is not None:
        assert _same_shapes(actual_shapes, expected_output_shape), (
            f"{layer_cls.__name__}: output shape {actual_shapes} != {expected_output_shape}"
        )
    if run_symbolic_check:
        sym_shapes = _shape_list(symbolic_out)
        real_shapes = _shape_list(output)
        assert len(sym_shapes) == len(real_shapes), f"symbolic {sym_shapes} vs eager {real_shapes}"
        for sym, real in zip(sym_shapes, real_shapes):
            assert len(sym) == len(real) and all(s is None or s == r for s, r in zip(sym, real)), (
                f"symbolic {sym_shapes} vs eager {real_shapes}"
            )
    if expected_output_dtype is not None:
        for t in tree.flatten(output):
            assert ops.dtype(t) == expected_output_dtype
    if expected_num_trainable_weights is not None:
        assert len(layer.trainable_weights) == expected_num_trainable_weights
    if expected_num_non_trainable_weights is not None:
        assert len(layer.non_trainable_weights) == expected_num_non_trainable_weights
    if expected_num_seed_generators is not None:
        seeds = [g for l in layer._flatten_layers() for g in l._seed_generators()]
        assert len(seeds) == expected_num_seed_generators
    if supports_masking is not None:
        assert layer.supports_masking == supports_masking

    if run_training_check and TRAINS and layer.trainable_weights:
        _check_one_gradient_step(layer, data, call_kwargs)
    return to_numpy(output)


def _shape_list(outputs):
    """The shape of every (non-None) output tensor, in flat order."""
    return [tuple(t.shape) for t in tree.flatten(outputs) if t is not None]


def _same_shapes(actual, expected):
    if isinstance(expected, dict):
        return set(actual) == set(expected) and all(_same_shapes(actual[k], expected[k]) for k in expected)
    if expected and isinstance(expected[0], (tuple, list)):
        return len(actual) == len(expected) and all(_same_shapes(a, e) for a, e in zip(actual, expected))
    return tuple(actual) == tuple(expected)


def _check_one_gradient_step(layer, data, call_kwargs):
    """One SGD step on sum(outputs^2) must change every trainable weight that the loss reaches."""
    weights = layer.trainable_weights
    before = [w.numpy().copy() for w in weights]

    def loss_fn():
        out = layer(data, training=True, **call_kwargs) if layer._call_has_training_arg else layer(data, **call_kwargs)
        return sum(ops.sum(ops.square(ops.cast(t, "float32"))) for t in tree.flatten(out) if t is not None)

    _, grads = tripod.value_and_grad(loss_fn, weights)()
    for w, g in zip(weights, grads):
        w.assign(ops.subtract(w.value, ops.multiply(ops.cast(g, w.dtype), 0.1)))
    changed = [not np.allclose(b, w.numpy()) for b, w in zip(before, weights)]
    assert any(changed), f"{type(layer).__name__}: a gradient step changed no trainable weight"
