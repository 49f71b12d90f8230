"""The preprocessing layers in input pipelines: inside a `tf.data` map (TensorFlow ops, whatever
the backend) and a torch `DataLoader` (torch ops), each gives what it gives eagerly."""

import os
import signal
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import tripod
from tests.backends.ops.harness import stored_dtype
from tripod.backends import config
from tripod.layers.preprocessing.category_encoding import CategoryEncoding
from tripod.layers.preprocessing.center_crop import CenterCrop
from tripod.layers.preprocessing.discretization import Discretization
from tripod.layers.preprocessing.hashing import HashedCrossing, Hashing
from tripod.layers.preprocessing.integer_lookup import IntegerLookup
from tripod.layers.preprocessing.normalization import Normalization
from tripod.layers.preprocessing.rescaling import Rescaling
from tripod.layers.preprocessing.resizing import Resizing

TRAINS = config.backend() != "numpy"
IMAGES = np.random.default_rng(0).uniform(0, 255, (4, 6, 8, 3)).astype("float32")
FEATURES = np.random.default_rng(1).normal(size=(4, 3)).astype("float32")
IDS = np.random.default_rng(2).integers(0, 5, (4, 3)).astype("int64")
TOKENS = np.array([[10, 20, 7], [30, 30, 0], [20, 10, 5], [0, 7, 30]], "int64")


def adapted(layer, data):
    layer.adapt(data)
    return layer


#: id -> (a fresh layer, its input: one array or a tuple of arrays)
CASES = {
    "rescaling": (lambda: Rescaling(1 / 127.5, offset=-1.0), IMAGES),
    "rescaling_per_channel": (lambda: Rescaling([1.0, 0.5, 0.25]), IMAGES),
    "resizing": (lambda: Resizing(3, 5), IMAGES),
    "resizing_crop_nearest": (lambda: Resizing(4, 4, "nearest", crop_to_aspect_ratio=True), IMAGES),
    "center_crop": (lambda: CenterCrop(3, 4), IMAGES),
    "center_crop_upscale": (lambda: CenterCrop(8, 10), IMAGES),
    "normalization": (
        lambda: Normalization(mean=[1.0, 2.0, 3.0], variance=[1.0, 4.0, 9.0]),
        FEATURES,
    ),
    "normalization_adapted": (lambda: adapted(Normalization(), FEATURES * 3 + 2), FEATURES),
    "normalization_invert": (lambda: adapted(Normalization(invert=True), FEATURES + 1), FEATURES),
    "discretization": (lambda: Discretization(bin_boundaries=[-0.5, 0.0, 0.5]), FEATURES),
    "discretization_adapted_one_hot": (
        lambda: adapted(Discretization(num_bins=3, output_mode="one_hot"), FEATURES),
        FEATURES,
    ),
    "category_encoding_multi_hot": (lambda: CategoryEncoding(5), IDS),
    "category_encoding_count": (lambda: CategoryEncoding(5, output_mode="count"), IDS),
    "hashing": (lambda: Hashing(7, salt=[3, 4]), IDS),
    "hashing_mask_one_hot": (lambda: Hashing(7, mask_value=0, output_mode="one_hot"), IDS[:, :1]),
    "hashed_crossing": (lambda: HashedCrossing(9), (IDS, IDS + 3)),
    "integer_lookup": (lambda: IntegerLookup(vocabulary=[10, 20, 30], mask_token=0), TOKENS),
    "integer_lookup_count": (
        lambda: IntegerLookup(vocabulary=[10, 20, 30], output_mode="count"),
        TOKENS,
    ),
    "integer_lookup_tf_idf": (
        lambda: IntegerLookup(
            vocabulary=[10, 20, 30], output_mode="tf_idf", idf_weights=[0.5, 1.0, 2.0]
        ),
        TOKENS,
    ),
    "integer_lookup_invert": (lambda: IntegerLookup(vocabulary=[10, 20, 30], invert=True), IDS),
    "integer_lookup_adapted": (lambda: adapted(IntegerLookup(), TOKENS), TOKENS),
}


def to_numpy(x):
    return np.asarray(tripod.ops.convert_to_numpy(x))


def apply(layer, inputs):
    """The layer on one input array or on a tuple of them (HashedCrossing)."""
    return layer(tuple(inputs)) if isinstance(inputs, (tuple, list)) else layer(inputs)


def assert_same(piped, eager, name):
    piped = np.asarray(piped)
    assert stored_dtype(piped.dtype.name) == eager.dtype, (
        f"{name}: {piped.dtype} in the pipeline, {eager.dtype} eagerly"
    )
    np.testing.assert_allclose(piped, eager, rtol=1e-5, atol=1e-5, err_msg=name)


@pytest.fixture(scope="module")
def tf():
    return pytest.importorskip("tensorflow")


@pytest.fixture(scope="module")
def torch_data():
    return pytest.importorskip("torch.utils.data")


@pytest.mark.parametrize("name", sorted(CASES))
def test_in_a_tf_data_map(tf, name):
    make, inputs = CASES[name]
    layer = make()  # built inside the map's trace, then called eagerly
    dataset = tf.data.Dataset.from_tensor_slices(inputs).batch(len(IDS))
    mapped = dataset.map(lambda *x: apply(layer, x[0] if len(x) == 1 else x))
    piped = next(iter(mapped.as_numpy_iterator()))
    eager = to_numpy(apply(layer, inputs))
    assert_same(piped, eager, name)
    again = next(iter(dataset.map(lambda *x: apply(layer, x[0] if len(x) == 1 else x))))
    np.testing.assert_allclose(np.asarray(again), eager, rtol=1e-5, atol=1e-5)  # a second trace


def test_center_crop_needs_a_static_image_size_in_a_tf_data_map(tf):
    spec = tf.TensorSpec((None, None, 3), tf.float32)
    dataset = tf.data.Dataset.from_generator(lambda: iter(IMAGES), output_signature=spec)
    with pytest.raises(ValueError, match="CenterCrop .* must be static"):
        dataset.map(CenterCrop(3, 3))


def test_hashing_string_tensors_are_a_clear_error(tf):
    dataset = tf.data.Dataset.from_tensor_slices(np.array(["a", "b"])).batch(2)
    with pytest.raises(TypeError, match="string"):
        dataset.map(Hashing(5))


@pytest.mark.parametrize("name", sorted(CASES))
def test_in_a_torch_data_loader(torch_data, name):
    make, inputs = CASES[name]
    eager = to_numpy(apply(make(), inputs))
    layer = make()
    samples = list(zip(*inputs)) if isinstance(inputs, tuple) else list(inputs)

    def collate(batch):
        return apply(layer, torch_data.default_collate(batch))  # on torch tensors

    loader = torch_data.DataLoader(samples, batch_size=len(samples), collate_fn=collate)
    (piped,) = list(loader)
    assert_same(piped.cpu().numpy(), eager, name)


_WORKERS_SCRIPT = textwrap.dedent("""
    import numpy as np, torch
    from torch.utils.data import DataLoader
    import tripod
    from tripod.layers.preprocessing.normalization import Normalization
    from tripod.layers.preprocessing.rescaling import Rescaling

    images = np.random.default_rng(0).uniform(0, 255, (8, 4, 4, 3)).astype("float32")
    rescale, norm = Rescaling(1 / 255.0), Normalization()
    norm.adapt(images / 255.0)

    def eager(x):
        return tripod.ops.convert_to_numpy(norm(rescale(x)))

    def collate(batch):
        return norm(rescale(torch.stack([torch.from_numpy(s) for s in batch])))

    expected = eager(images)  # built and used eagerly on the active backend before the workers fork
    loader = DataLoader(list(images), batch_size=4, collate_fn=collate, num_workers=2)
    piped = np.concatenate([b.numpy() for b in loader])
    np.testing.assert_allclose(piped, expected, rtol=1e-5, atol=1e-5)
    print("same in workers")

    from tripod.layers.preprocessing.image.random_flip import RandomFlip
    flip, image = RandomFlip("horizontal", seed=3), np.arange(6, dtype="float32").reshape(1, 2, 3, 1)

    def flips(batch):  # which of 16 copies of one image came back flipped
        out = flip(torch.from_numpy(np.concatenate(batch)), training=True)
        return tuple(int(v) for v in out.numpy()[:, 0, 0, 0] != image[0, 0, 0, 0])

    loader = DataLoader([image] * 32, batch_size=16, collate_fn=flips, num_workers=2)
    first, second = list(loader), list(loader)
    assert first[0] != first[1] and first != second, (first, second)
    print("fresh draws per worker and epoch")
""")


def test_in_torch_data_loader_workers(torch_data):
    """Two worker processes (in a child process under a hard timeout, so it cannot hang)."""
    env = dict(os.environ, TRIPOD_BACKEND=config.backend())
    child = subprocess.Popen(
        [sys.executable, "-c", _WORKERS_SCRIPT],
        env=env,
        start_new_session=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        output, _ = child.communicate(timeout=180)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        child.communicate()
        pytest.fail("the DataLoader with num_workers=2 did not finish within 180 s")
    assert child.returncode == 0 and "fresh draws per worker and epoch" in output, output[-3000:]


@pytest.mark.skipif(not TRAINS, reason="the numpy backend is inference-only")
def test_fit_over_a_tf_data_pipeline(tf):
    """Rescaling and Normalization in the map train a model exactly as the same data
    preprocessed eagerly does."""
    rng = np.random.default_rng(3)
    x = rng.integers(0, 256, (32, 4)).astype("float32")
    y = (x / 255.0) @ np.array([[1.0], [-2.0], [0.5], [3.0]], "float32")
    rescale = Rescaling(1 / 255.0)
    norm = Normalization()
    norm.adapt(x / 255.0)
    dataset = (
        tf.data.Dataset.from_tensor_slices((x, y)).batch(8).map(lambda a, b: (norm(rescale(a)), b))
    )
    features = to_numpy(norm(rescale(x)))
    histories = []
    for data in ({"x": dataset}, {"x": features, "y": y, "batch_size": 8, "shuffle": False}):
        tripod.utils.set_random_seed(0)
        model = tripod.Sequential([tripod.Input((4,)), tripod.layers.Dense(1)])
        model.compile(tripod.optimizers.SGD(0.1), "mse")
        histories.append(model.fit(epochs=3, verbose=0, **data).history["loss"])
    np.testing.assert_allclose(histories[0], histories[1], rtol=1e-5)
    assert histories[0][-1] < histories[0][0]
