"""The dataset loaders, on small files fabricated in Keras's exact layout in a temporary cache
(`KERAS_HOME`), with each module's pinned hash set to the fabricated file's."""

import gzip
import hashlib
import io
import json
import os
import pickle
import tarfile

import numpy as np
import pytest

from tripod.backends import config
from tripod.data.datasets import (
    boston_housing,
    california_housing,
    cifar10,
    cifar100,
    fashion_mnist,
    imdb,
    mnist,
    reuters,
    safe_pickle,
)


@pytest.fixture
def datasets_dir(tmp_path, monkeypatch):
    """The `datasets` cache folder of a temporary Keras home."""
    monkeypatch.setenv("KERAS_HOME", str(tmp_path / "keras"))
    folder = tmp_path / "keras" / "datasets"
    folder.mkdir(parents=True)
    return folder


def _pin(monkeypatch, module, path, attribute="FILE_HASH", algorithm="sha256"):
    """Set `module.attribute` to the hash of the fabricated file at `path`."""
    monkeypatch.setattr(module, attribute, hashlib.new(algorithm, path.read_bytes()).hexdigest())


def _ragged(sequences):
    array = np.empty(len(sequences), dtype="object")
    for i, seq in enumerate(sequences):
        array[i] = list(seq)
    return array


class _Evil:
    def __reduce__(self):
        return (os.system, ("echo pwned > pwned.txt",))


# -- mnist, fashion-mnist -------------------------------------------------------------------------
def test_mnist(datasets_dir, monkeypatch):
    rng = np.random.default_rng(0)
    arrays = {
        "x_train": rng.integers(0, 256, (3, 28, 28), dtype=np.uint8),
        "y_train": np.array([1, 2, 3], np.uint8),
        "x_test": rng.integers(0, 256, (2, 28, 28), dtype=np.uint8),
        "y_test": np.array([9, 0], np.uint8),
    }
    np.savez(datasets_dir / "mnist.npz", **arrays)
    _pin(monkeypatch, mnist, datasets_dir / "mnist.npz")
    (x_train, y_train), (x_test, y_test) = mnist.load_data()
    for name, value in zip(arrays, (x_train, y_train, x_test, y_test)):
        np.testing.assert_array_equal(value, arrays[name])
        assert value.dtype == np.uint8


def _write_idx(path, array):
    header = np.array([2049 if array.ndim == 1 else 2051, *array.shape], ">u4").tobytes()
    with gzip.open(path, "wb") as f:
        f.write(header + array.tobytes())


def test_fashion_mnist(datasets_dir):
    folder = datasets_dir / "fashion-mnist"
    folder.mkdir()
    images = {"train": np.arange(4 * 784).reshape(4, 28, 28) % 256, "test": np.ones((2, 28, 28))}
    labels = {"train": np.array([0, 9, 4, 2]), "test": np.array([7, 1])}
    for split, (labels_file, images_file) in fashion_mnist.FILES.items():
        _write_idx(folder / labels_file, labels[split].astype(np.uint8))
        _write_idx(folder / images_file, images[split].astype(np.uint8))
    (x_train, y_train), (x_test, y_test) = fashion_mnist.load_data()
    assert x_train.shape == (4, 28, 28) and x_test.shape == (2, 28, 28)
    assert x_train.dtype == y_train.dtype == np.uint8
    np.testing.assert_array_equal(x_train, images["train"])
    np.testing.assert_array_equal(y_test, [7, 1])
    _write_idx(folder / "t10k-labels-idx1-ubyte.gz", np.zeros((2, 2), np.uint8))
    with pytest.raises(ValueError, match="not an IDX file"):
        fashion_mnist.load_data()


# -- cifar ----------------------------------------------------------------------------------------
def _batch_bytes(entries, numpy_core=True):
    """A CIFAR batch pickled like the originals (protocol 2, bytes keys, numpy.core globals)."""
    data = pickle.dumps({key.encode(): value for key, value in entries.items()}, protocol=2)
    return data.replace(b"numpy._core.multiarray", b"numpy.core.multiarray") if numpy_core else data


def _write_cifar_archive(path, folder, batches):
    with tarfile.open(path, "w:gz") as tar:
        for name, data in batches.items():
            info = tarfile.TarInfo(f"{folder}/{name}")
            info.size = len(data)
            tar.addfile(info, fileobj=io.BytesIO(data))


def _images(n, start):
    return (np.arange(n * 3072).reshape(n, 3072) + start) % 251


def test_cifar10(datasets_dir, monkeypatch):
    batches = {
        f"data_batch_{i}": _batch_bytes(
            {"data": _images(2, i).astype(np.uint8), "labels": [i, 9 - i], "batch_label": b"b"},
            i % 2 == 0,
        )
        for i in range(1, 6)
    }
    batches["test_batch"] = _batch_bytes(
        {"data": _images(3, 7).astype(np.uint8), "labels": [0, 1, 2]}
    )
    archive = datasets_dir / "cifar-10-batches-py-target_archive"
    _write_cifar_archive(archive, "cifar-10-batches-py", batches)
    _pin(monkeypatch, cifar10, archive)
    (x_train, y_train), (x_test, y_test) = cifar10.load_data()
    assert x_train.shape == (10, 32, 32, 3) and x_test.shape == (3, 32, 32, 3)
    assert y_train.shape == (10, 1) and y_test.shape == (3, 1)
    assert x_train.dtype == x_test.dtype == y_train.dtype == y_test.dtype == np.uint8
    expected = np.concatenate([_images(2, i) for i in range(1, 6)]).reshape(10, 3, 32, 32)
    np.testing.assert_array_equal(x_train, expected.transpose(0, 2, 3, 1))
    np.testing.assert_array_equal(y_train[:, 0], [1, 8, 2, 7, 3, 6, 4, 5, 5, 4])
    np.testing.assert_array_equal(y_test[:, 0], [0, 1, 2])
    assert os.path.isdir(datasets_dir / "cifar-10-batches-py-target" / "cifar-10-batches-py")
    monkeypatch.setattr(config, "image_data_format", lambda: "channels_first")
    (x_train, _), _ = cifar10.load_data()
    np.testing.assert_array_equal(x_train, expected)


@pytest.mark.parametrize("label_mode", ["fine", "coarse"])
def test_cifar100(datasets_dir, monkeypatch, label_mode):
    def batch(n, start):
        return _batch_bytes(
            {
                "data": _images(n, start).astype(np.uint8),
                "fine_labels": list(range(50, 50 + n)),
                "coarse_labels": [3] * n,
            }
        )

    archive = datasets_dir / "cifar-100-python-target_archive"
    _write_cifar_archive(archive, "cifar-100-python", {"train": batch(4, 0), "test": batch(2, 1)})
    _pin(monkeypatch, cifar100, archive)
    (x_train, y_train), (x_test, y_test) = cifar100.load_data(label_mode)
    assert x_train.shape == (4, 32, 32, 3) and x_test.shape == (2, 32, 32, 3)
    assert x_train.dtype == np.uint8 and y_train.shape == (4, 1) and y_test.shape == (2, 1)
    fine = label_mode == "fine"
    np.testing.assert_array_equal(y_train[:, 0], [50, 51, 52, 53] if fine else [3, 3, 3, 3])
    with pytest.raises(ValueError, match="label_mode"):
        cifar100.load_data("medium")


def test_cifar_batch_running_code_is_refused(tmp_path, monkeypatch):
    path = tmp_path / "data_batch_1"
    path.write_bytes(pickle.dumps({b"data": _Evil(), b"labels": [0]}, protocol=2))
    monkeypatch.chdir(tmp_path)
    with pytest.raises(pickle.UnpicklingError, match="system"):
        cifar10.cifar.load_batch(path)
    assert not (tmp_path / "pwned.txt").exists()


# -- imdb, reuters --------------------------------------------------------------------------------
def _write_imdb(folder, monkeypatch, x_train, x_test, y_train, y_test):
    np.savez(
        folder / "imdb.npz",
        x_train=_ragged(x_train),
        x_test=_ragged(x_test),
        y_train=np.array(y_train),
        y_test=np.array(y_test),
    )
    _pin(monkeypatch, imdb, folder / "imdb.npz")


IMDB_CASES = [
    # (arguments, expected x_train[0], expected x_test[0]) for train [[1, 5, 2]], test [[3, 7]]
    ({}, [1, 4, 8, 5], [1, 6, 2]),  # the largest index (10) falls outside [0, max) as in Keras
    ({"num_words": 11}, [1, 4, 8, 5], [1, 6, 10]),
    ({"num_words": 6, "skip_top": 2}, [2, 4, 2, 5], [2, 2, 2]),
    ({"num_words": 6, "skip_top": 2, "oov_char": None}, [4, 5], []),
    ({"start_char": None, "index_from": 0, "num_words": 100}, [1, 5, 2], [3, 7]),
    ({"start_char": 9, "index_from": 1, "oov_char": 0, "num_words": 8}, [0, 2, 6, 3], [0, 4, 0]),
    ({"maxlen": 5}, [1, 4, 8, 5], [1, 6, 2]),
]


@pytest.mark.parametrize("kwargs, train, test", IMDB_CASES)
def test_imdb_encoding(datasets_dir, monkeypatch, kwargs, train, test):
    _write_imdb(datasets_dir, monkeypatch, [[1, 5, 2]], [[3, 7]], [1], [0])
    (x_train, y_train), (x_test, y_test) = imdb.load_data(**kwargs)
    assert x_train.dtype == object and x_train.shape == (1,) and x_test.shape == (1,)
    assert x_train[0] == train and x_test[0] == test
    assert list(y_train) == [1] and list(y_test) == [0]


def test_imdb_shuffle_keeps_pairs_and_maxlen_filters(datasets_dir, monkeypatch):
    train = [[i] * (i % 4 + 1) for i in range(1, 9)]
    _write_imdb(datasets_dir, monkeypatch, train, [[1], [2, 2]], list(range(1, 9)), [1, 2])
    (x_train, y_train), _ = imdb.load_data(seed=5, num_words=100)
    order = np.arange(8)
    np.random.RandomState(5).shuffle(order)
    assert [x[1] - 3 for x in x_train] == list(y_train) == list(order + 1)
    (x_train, y_train), _ = imdb.load_data(maxlen=3, num_words=100)
    assert all(len(x) < 3 for x in x_train) and sorted(y_train) == [4, 8]
    with pytest.raises(ValueError, match="maxlen"):
        imdb.load_data(maxlen=1)
    with pytest.raises(TypeError, match="nb_words"):
        imdb.load_data(nb_words=10)


def test_imdb_npz_running_code_is_refused(datasets_dir, monkeypatch):
    evil = np.empty(1, dtype=object)
    evil[0] = _Evil()
    np.savez(
        datasets_dir / "imdb.npz",
        x_train=evil,
        y_train=np.zeros(1),
        x_test=evil,
        y_test=np.zeros(1),
    )
    _pin(monkeypatch, imdb, datasets_dir / "imdb.npz")
    monkeypatch.chdir(datasets_dir)
    with pytest.raises(pickle.UnpicklingError, match="system"):
        imdb.load_data()
    assert not (datasets_dir / "pwned.txt").exists()


def test_restricted_unpickler_loads_arrays_and_containers_only():
    value = {"a": [np.arange(3, dtype=np.int16), (1, 2.5)], "b": b"raw"}
    loaded = safe_pickle.load_pickle(io.BytesIO(pickle.dumps(value, protocol=2)))
    np.testing.assert_array_equal(loaded["a"][0], np.arange(3))
    assert loaded["a"][0].dtype == np.int16 and loaded["a"][1] == (1, 2.5)
    with pytest.raises(pickle.UnpicklingError, match="builtins.eval"):
        safe_pickle.load_pickle(io.BytesIO(b"cbuiltins\neval\n(S'1'\ntR."))


@pytest.mark.parametrize(
    "module, fname", [(imdb, "imdb_word_index.json"), (reuters, "reuters_word_index.json")]
)
def test_word_index(datasets_dir, monkeypatch, module, fname):
    (datasets_dir / fname).write_text(json.dumps({"the": 1, "and": 2}))
    _pin(monkeypatch, module, datasets_dir / fname, "WORD_INDEX_HASH", "md5")
    assert module.get_word_index() == {"the": 1, "and": 2}


def test_reuters(datasets_dir, monkeypatch):
    xs = [[i, i + 1] for i in range(10)]
    np.savez(datasets_dir / "reuters.npz", x=_ragged(xs), y=np.arange(10))
    _pin(monkeypatch, reuters, datasets_dir / "reuters.npz")
    (x_train, y_train), (x_test, y_test) = reuters.load_data(test_split=0.3, num_words=100)
    assert x_train.shape == (7,) and x_test.shape == (3,) and y_train.shape == (7,)
    order = np.arange(10)
    np.random.RandomState(113).shuffle(order)
    np.testing.assert_array_equal(np.concatenate([y_train, y_test]), order)
    assert x_train[0] == [1, order[0] + 3, order[0] + 4]
    (x_train, _), _ = reuters.load_data(num_words=5, skip_top=4, oov_char=0)
    assert all(w in (0, 4) for x in x_train for w in x)
    assert len(reuters.get_label_names()) == 46 and reuters.get_label_names()[3] == "earn"


# -- housing --------------------------------------------------------------------------------------
def _write_housing(folder, monkeypatch, module, fname, n, features):
    x = np.arange(n * features, dtype="float64").reshape(n, features)
    np.savez(folder / fname, x=x, y=x[:, 0] / features)
    _pin(monkeypatch, module, folder / fname)


def test_boston_housing(datasets_dir, monkeypatch):
    _write_housing(datasets_dir, monkeypatch, boston_housing, "boston_housing.npz", 10, 13)
    (x_train, y_train), (x_test, y_test) = boston_housing.load_data(seed=3)
    assert x_train.shape == (8, 13) and x_test.shape == (2, 13) and y_test.shape == (2,)
    order = np.arange(10)
    np.random.RandomState(3).shuffle(order)
    np.testing.assert_array_equal(np.concatenate([y_train, y_test]), order)
    np.testing.assert_array_equal(x_train[:, 0] / 13, y_train)
    with pytest.raises(ValueError, match="test_split"):
        boston_housing.load_data(test_split=1.0)


def test_california_housing(datasets_dir, monkeypatch):
    _write_housing(datasets_dir, monkeypatch, california_housing, "california_housing.npz", 610, 8)
    (x_train, y_train), (x_test, y_test) = california_housing.load_data(version="small")
    assert x_train.shape == (480, 8) and x_test.shape == (120, 8)
    assert sorted(np.concatenate([y_train, y_test])) == list(range(600))
    (x_train, _), (x_test, _) = california_housing.load_data(test_split=0.5)
    assert len(x_train) == len(x_test) == 305 and x_train.dtype == np.float64
    with pytest.raises(ValueError, match="version"):
        california_housing.load_data(version="medium")
