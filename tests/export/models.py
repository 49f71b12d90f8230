"""The model kinds every exporter must handle, each with example inputs (batch 3).

Each builder returns `(model, inputs)`; models with statistics (BatchNorm) are fitted for one
step first, so the exported moving averages are not the identity.
"""

import importlib.util
import pathlib

import numpy as np

import tripod
from tripod import layers

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples"
ROWS = 3


def _rng(seed):
    return np.random.default_rng(seed)


def _floats(*shape, seed=0):
    return _rng(seed).normal(size=(ROWS,) + shape).astype("float32")


def _ints(high, *shape, seed=0):
    return _rng(seed).integers(1, high, size=(ROWS,) + shape).astype("int32")


def sequential():
    model = tripod.Sequential(
        [
            tripod.Input((4,)),
            layers.Dense(8, activation="relu"),
            layers.Dense(3, activation="softmax", name="probabilities"),
        ]
    )
    return model, _floats(4)


def functional_list():
    a, b = tripod.Input((4,), name="left"), tripod.Input((2,), name="right")
    hidden = layers.Dense(5, activation="tanh")(layers.Concatenate()([a, b]))
    outputs = [layers.Dense(2, name="first")(hidden), layers.Dense(1, name="second")(hidden)]
    return tripod.Model([a, b], outputs), [_floats(4), _floats(2, seed=1)]


def functional_dict():
    features = tripod.Input((4,), name="features")
    tokens = tripod.Input((None,), dtype="int32", name="tokens")
    pooled = layers.GlobalAveragePooling1D()(layers.Embedding(12, 3)(tokens))
    hidden = layers.Concatenate()([features, pooled])
    outputs = {
        "score": layers.Dense(1, name="score")(hidden),
        "label": layers.Dense(2, activation="softmax", name="label")(hidden),
    }
    model = tripod.Model({"features": features, "tokens": tokens}, outputs)
    return model, {"features": _floats(4), "tokens": _ints(12, 6)}


class Residual(tripod.Model):
    """A subclassed model: a residual MLP block."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.inner = layers.Dense(4, activation="relu")
        self.outer = layers.Dense(4)

    def call(self, inputs):
        return inputs + self.outer(self.inner(inputs))


def subclassed():
    model = Residual()
    x = _floats(4)
    model(x)
    return model, x


def _fitted(model, inputs, targets):
    model.compile(optimizer="sgd", loss="mse")
    model.fit(inputs, targets, epochs=1, batch_size=ROWS, verbose=0)
    return model


def convnet():
    model = tripod.Sequential(
        [
            tripod.Input((8, 8, 3)),
            layers.Conv2D(4, 3, padding="same"),
            layers.BatchNormalization(),
            layers.ReLU(),
            layers.MaxPooling2D(),
            layers.DepthwiseConv2D(3),
            layers.Dropout(0.5),
            layers.Flatten(),
            layers.Dense(2),
        ]
    )
    x = _floats(8, 8, 3)
    return _fitted(model, x, np.ones((ROWS, 2), "float32")), x


def recurrent():
    model = tripod.Sequential(
        [
            tripod.Input((5, 3)),
            layers.LSTM(4, return_sequences=True),
            layers.GRU(3),
            layers.Dense(1),
        ]
    )
    return model, _floats(5, 3)


def embedding():
    model = tripod.Sequential(
        [
            tripod.Input((None,), dtype="int32"),
            layers.Embedding(20, 4),
            layers.GlobalMaxPooling1D(),
            layers.Dense(2),
        ]
    )
    return model, _ints(20, 7)


def attention():
    x = tripod.Input((6, 8), name="sequence")
    attended = layers.MultiHeadAttention(num_heads=2, key_dim=4)(x, x)
    hidden = layers.LayerNormalization()(layers.Add()([x, attended]))
    outputs = layers.Dense(2)(layers.GlobalAveragePooling1D()(hidden))
    return tripod.Model(x, outputs), _floats(6, 8)


def _example(name):
    spec = importlib.util.spec_from_file_location(f"example_{name}", EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def example_cnn():
    model = _example("cnn").build_model()
    return model, _floats(*model.inputs[0].shape[1:])


def example_masked_lstm():
    model = _example("sequence_model").build_model(layers.LSTM(6), "masked_lstm")
    tokens = _ints(10, 7)
    tokens[:, -2:] = 0  # padding, masked by Embedding(mask_zero=True)
    return model, tokens


def example_multi_input():
    model = _example("functional_multi_input").build_model()
    stores = model.get_layer("store_embedding").input_dim
    features = _floats(*model.inputs[0].shape[1:])
    return model, {"features": features, "store_id": _ints(stores, 1)}


MODELS = {
    fn.__name__: fn
    for fn in (
        sequential,
        functional_list,
        functional_dict,
        subclassed,
        convnet,
        recurrent,
        embedding,
        attention,
        example_cnn,
        example_masked_lstm,
        example_multi_input,
    )
}
