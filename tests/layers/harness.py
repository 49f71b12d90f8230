"""The shared layer test: one call checks what every layer must do, on the active backend."""

import os
import warnings

import numpy as np

import tripod
from tests.backends.ops.harness import stored_dtype
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
    return tree.map_structure(
        lambda t: None if t is None else np.asarray(ops.convert_to_numpy(t)), x
    )


def run_layer_test(
    layer_cls,
    init_kwargs=None,
    input_shape=(2, 3),
    input_dtype="float32",
    input_data=None,
    call_kwargs=None,
    expected_output_shape=None,
    expected_output_dtype=None,
    expected_num_trainable_weights=None,
    expected_num_non_trainable_weights=None,
    expected_num_seed_generators=None,
    supports_masking=None,
    run_training_check=True,
    run_symbolic_check=True,
    run_compiled_check=True,
):
    """Build, call (symbolically and eagerly), round-trip the config, check weight counts, that
    one gradient step changes the trainable weights and that a model of the layer compiled with
    `jit_compile=True` predicts and trains one step as the eager one does. Returns the eager
    output as NumPy.

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

    data = (
        input_data
        if input_data is not None
        else tree.map_shape_structure(lambda s: random_input(s, input_dtype), input_shape)
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
            assert ops.dtype(t) == stored_dtype(expected_output_dtype)
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
    if run_compiled_check and _compiles(layer_cls):
        check_compiled_step(layer_cls(**init_kwargs), data, call_kwargs, train=run_training_check)
    return to_numpy(output)


def _shape_list(outputs):
    """The shape of every (non-None) output tensor, in flat order."""
    return [tuple(t.shape) for t in tree.flatten(outputs) if t is not None]


def _same_shapes(actual, expected):
    if isinstance(expected, dict):
        return set(actual) == set(expected) and all(
            _same_shapes(actual[k], expected[k]) for k in expected
        )
    if expected and isinstance(expected[0], (tuple, list)):
        return len(actual) == len(expected) and all(
            _same_shapes(a, e) for a, e in zip(actual, expected)
        )
    return tuple(actual) == tuple(expected)


def _check_one_gradient_step(layer, data, call_kwargs):
    """One SGD step on sum(outputs^2) must change every trainable weight that the loss reaches."""
    weights = layer.trainable_weights
    before = [w.numpy().copy() for w in weights]

    def loss_fn():
        out = (
            layer(data, training=True, **call_kwargs)
            if layer._call_has_training_arg
            else layer(data, **call_kwargs)
        )
        return sum(
            ops.sum(ops.square(ops.cast(t, "float32"))) for t in tree.flatten(out) if t is not None
        )

    _, grads = tripod.value_and_grad(loss_fn, weights)()
    for w, g in zip(weights, grads):
        w.assign(ops.subtract(w.value, ops.multiply(ops.cast(g, w.dtype), 0.1)))
    changed = [not np.allclose(b, w.numpy()) for b, w in zip(before, weights)]
    assert any(changed), f"{type(layer).__name__}: a gradient step changed no trainable weight"


class _Wrapper(tripod.Model):
    """A model that calls one layer (with fixed call arguments): any layer, any input structure."""

    def __init__(self, layer, call_kwargs):
        super().__init__()
        self.inner = layer
        self.call_kwargs = call_kwargs

    def call(self, inputs, training=False):
        if self.inner._call_has_training_arg:
            return self.inner(inputs, training=training, **self.call_kwargs)
        return self.inner(inputs, **self.call_kwargs)


#: the layers whose compiled check runs on torch, where torch.compile costs seconds per layer
#: (TRIPOD_COMPILE_ALL=1 runs it for every layer test; tests/layers/rnn/test_compiled.py covers
#: Bidirectional)
TORCH_COMPILED_LAYERS = frozenset(
    {
        "Dense",
        "Conv2D",
        "GRU",
        "LSTM",
        "BatchNormalization",
        "LayerNormalization",
        "MultiHeadAttention",
        "Embedding",
        "Concatenate",
    }
)


def _compiles(layer_cls):
    """Whether run_layer_test holds `layer_cls`'s compiled step to its eager one here (numpy
    compiles nothing)."""
    if not TRAINS:
        return False
    if config.backend() != "torch" or os.environ.get("TRIPOD_COMPILE_ALL") == "1":
        return True
    return layer_cls.__name__ in TORCH_COMPILED_LAYERS


def check_compiled_step(layer, data, call_kwargs=None, train=True, rtol=1e-4, atol=1e-5):
    """A model of `layer` compiled with jit_compile=True predicts like the eager one and, after
    one `fit` step (SGD on the mean squared outputs), holds the same weights."""
    model = _Wrapper(layer, call_kwargs or {})
    model(data)  # built, so both runs start from the same weights
    initial = model.get_weights()
    batch = len(tree.flatten(data)[0])
    eager = _predict_and_fit(model, initial, data, batch, train, run_eagerly=True)
    with warnings.catch_warnings():
        # A torch step that torch.compile could not compile runs eagerly, with a warning: the
        # comparison would then pass without having compiled anything.
        warnings.filterwarnings("error", message="torch.compile could not compile")
        compiled = _predict_and_fit(model, initial, data, batch, train, jit_compile=True)
    name = type(layer).__name__
    if any(l._seed_generators() for l in layer._flatten_layers()):
        # Training draws random numbers, which a compiled step draws differently: the weights
        # need only be finite.
        assert all(np.all(np.isfinite(w)) for w in compiled[1] if w.dtype.kind == "f"), name
        eager, compiled = eager[:1], compiled[:1]
    for what, want, got in zip(("predictions", "weights after one fit step"), eager, compiled):
        assert len(want) == len(got), (
            f"{name} with jit_compile=True: {len(got)} {what}, eager {len(want)}"
        )
        for i, (w, g) in enumerate(zip(want, got)):
            np.testing.assert_allclose(
                g,
                w,
                rtol=rtol,
                atol=atol,
                err_msg=f"{name} with jit_compile=True: {what} [{i}] differ from eager",
            )


def _predict_and_fit(model, initial, data, batch, train, **compile_kwargs):
    """(predictions, weights after one fit step: none when not trained) of `model`, starting
    from weights `initial`."""
    model.set_weights(initial)
    model.compile(optimizer=tripod.optimizers.SGD(0.1), loss="mse", **compile_kwargs)
    outputs = model.predict(data, batch_size=batch, verbose=0)
    predictions = [np.asarray(p) for p in tree.flatten(outputs)]
    if not (
        train
        and TRAINS
        and model.trainable_weights
        and all(p.dtype.kind == "f" for p in predictions)
    ):
        return predictions, []
    targets = tree.map_structure(lambda p: np.zeros(p.shape, p.dtype), outputs)
    model.fit(data, targets, batch_size=batch, epochs=1, shuffle=False, verbose=0)
    return predictions, model.get_weights()
