"""Checks every image augmentation layer must pass, written once: each test module calls them
with its layer, arguments and images."""

import numpy as np
import tensorflow as tf

import tripod
from tripod.backends import config

TRAINS = config.backend() != "numpy"


def to_numpy(x):
    return tripod.ops.convert_to_numpy(x) if not isinstance(x, np.ndarray) else x


def images(batch=2, height=8, width=10, channels=3, low=0, high=255, seed=0):
    """Random float32 images in channels_last layout."""
    return (
        np.random.RandomState(seed)
        .uniform(low, high, (batch, height, width, channels))
        .astype("float32")
    )


def check_inference_identity(layer_cls, kwargs, x):
    """training=False gives the input back, as floats."""
    out = to_numpy(layer_cls(**kwargs)(x, training=False))
    np.testing.assert_allclose(out, x.astype("float32"))
    assert out.dtype == np.float32


def check_seeded(layer_cls, kwargs, x, rtol=1e-5, atol=1e-4):
    """Two layers with one seed give the same outputs; a stream of calls moves on."""
    a, b = layer_cls(seed=7, **kwargs), layer_cls(seed=7, **kwargs)
    first = to_numpy(a(x, training=True))
    np.testing.assert_allclose(to_numpy(b(x, training=True)), first, rtol=rtol, atol=atol)
    return first


def check_pipeline_matches_eager(layer_cls, kwargs, x, rtol=1e-5, atol=1e-3):
    """In a tf.data map (computed with TensorFlow ops whatever the backend) the layer gives what it
    gives eagerly on the active backend: the same seed, the same augmentation on every backend."""
    eager = to_numpy(layer_cls(seed=11, **kwargs)(x, training=True))
    layer = layer_cls(seed=11, **kwargs)
    # batched in the pipeline: the batch size is known only at run time there
    dataset = tf.data.Dataset.from_tensor_slices(x).batch(len(x))
    dataset = dataset.map(lambda t: layer(t, training=True))
    piped = next(iter(dataset.as_numpy_iterator()))
    np.testing.assert_allclose(piped, eager, rtol=rtol, atol=atol)


def check_unbatched(layer_cls, kwargs, x):
    """One image without the batch axis comes back without it, transformed like a batch of one."""
    single = to_numpy(layer_cls(seed=5, **kwargs)(x[0], training=True))
    batch = to_numpy(layer_cls(seed=5, **kwargs)(x[:1], training=True))
    np.testing.assert_allclose(single, batch[0], rtol=1e-5, atol=1e-3)


def check_channels_first(layer_cls, kwargs, x, rtol=1e-5, atol=1e-3):
    """channels_first gives the channels_last result, transposed."""
    last = to_numpy(layer_cls(seed=5, data_format="channels_last", **kwargs)(x, training=True))
    first = layer_cls(seed=5, data_format="channels_first", **kwargs)(
        np.transpose(x, (0, 3, 1, 2)), training=True
    )
    np.testing.assert_allclose(
        np.transpose(to_numpy(first), (0, 2, 3, 1)), last, rtol=rtol, atol=atol
    )


def check_config_round_trip(layer_cls, kwargs):
    layer = layer_cls(seed=3, **kwargs)
    config_ = layer.get_config()
    again = layer_cls.from_config(config_)
    assert again.get_config() == config_


def check_in_model(layer_cls, kwargs, x):
    """Inside a Sequential model: fit runs (the augmentation in the compiled step), predict is the
    inference path."""
    model = tripod.Sequential(
        [
            tripod.Input(x.shape[1:]),
            layer_cls(seed=1, **kwargs),
            tripod.layers.Flatten(),
            tripod.layers.Dense(1),
        ]
    )
    if TRAINS:
        model.compile("sgd", "mse")
        model.fit(x, np.zeros((len(x), 1), "float32"), epochs=1, batch_size=len(x), verbose=0)
    assert model.predict(x, verbose=0).shape == (len(x), 1)


def check_all(layer_cls, kwargs, x, channels_first=True):
    """Every check above, for layers with no check-specific needs."""
    check_inference_identity(layer_cls, kwargs, x)
    check_seeded(layer_cls, kwargs, x)
    check_pipeline_matches_eager(layer_cls, kwargs, x)
    check_unbatched(layer_cls, kwargs, x)
    if channels_first:
        check_channels_first(layer_cls, kwargs, x)
    check_config_round_trip(layer_cls, kwargs)
    check_in_model(layer_cls, kwargs, x)
