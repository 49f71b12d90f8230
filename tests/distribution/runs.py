"""Training runs for the distributed tests: called in the test process (one device, the
reference) and by `tripod.testing.launch` in launched processes (under a distribution)."""

import importlib
import os

import numpy as np

import tripod
from tripod import distribution, layers

RNG = np.random.default_rng(0)
X = RNG.normal(size=(32, 4)).astype("float32")
Y = RNG.normal(size=(32, 3)).astype("float32")
WEIGHTS = [RNG.normal(size=s).astype("float32") * 0.5 for s in ((4, 8), (8,), (8, 3), (3,))]


class Batches(tripod.utils.PyDataset):
    """X and Y in batches of 8, as a PyDataset."""

    def __len__(self):
        return 4

    def __getitem__(self, index):
        return X[index * 8 : (index + 1) * 8], Y[index * 8 : (index + 1) * 8]


def model_for_tests():
    """A two-layer MLP holding `WEIGHTS`, compiled with SGD and a metric."""
    model = tripod.Sequential(
        [layers.Input((4,)), layers.Dense(8, activation="relu"), layers.Dense(3)]
    )
    model.set_weights(WEIGHTS)
    model.compile(tripod.optimizers.SGD(0.1), "mse", metrics=["mae"])
    return model


def make_distribution(kind):
    """None (one device), "data" (DataParallel over every device), "model" (the first Dense
    kernel split on its output dimension over a 'model' axis of every device) or "sharded"
    (both kernels split over the batch axis: sharded data parallel, FSDP2 on torch)."""
    if kind is None:
        return None
    if kind == "data":
        return distribution.DataParallel()
    count = distribution.get_device_count()
    if kind == "sharded":
        layout_map = distribution.LayoutMap(distribution.DeviceMesh((count,), ("batch",)))
        layout_map["dense.*kernel"] = ("batch", None)
        return distribution.ModelParallel(layout_map=layout_map)
    mesh = distribution.DeviceMesh((1, count), ("batch", "model"))
    layout_map = distribution.LayoutMap(mesh)
    layout_map["dense/kernel"] = (None, "model")
    layout_map["dense/bias"] = ("model",)
    return distribution.ModelParallel(layout_map=layout_map, batch_dim_name="batch")


def batches_of(data):
    """X and Y in batches of 8 as fit takes them: arrays, a PyDataset, a `tf.data.Dataset` or a
    torch `DataLoader` (the last two built in their framework, in order)."""
    if data == "arrays":
        return (X, Y), {"batch_size": 8}
    if data == "pydataset":
        return (Batches(),), {}
    if data == "tf.data":
        tf = importlib.import_module("tensorflow")
        return (tf.data.Dataset.from_tensor_slices((X, Y)).batch(8),), {}
    torch_data = importlib.import_module("torch.utils.data")
    tensors = [importlib.import_module("torch").from_numpy(a) for a in (X, Y)]
    return (torch_data.DataLoader(torch_data.TensorDataset(*tensors), batch_size=8),), {}


def train(kind=None, data="arrays", epochs=2, shuffle=False, save_to=None):
    """Fit the test MLP under distribution `kind` on `data` (see `batches_of`); the weights,
    logs and predictions afterwards (and the run's size)."""
    distribution.set_distribution(make_distribution(kind))
    model = model_for_tests()
    source, options = batches_of(data)
    history = model.fit(*source, epochs=epochs, shuffle=shuffle, verbose=0, **options)
    evaluated = model.evaluate(X, Y, batch_size=8, verbose=0, return_dict=True)
    result = {
        "weights": [np.asarray(w) for w in model.get_weights()],
        "history": history.history,
        "evaluate": evaluated,
        "predict": model.predict(X, batch_size=16, verbose=0),
        "processes": distribution.num_processes(),
        "devices": distribution.get_device_count(),
    }
    if save_to is not None:
        model.save(save_to)
    distribution.set_distribution(None)
    return result


def rank_zero_saves_and_predicts(path):
    """The common idiom: every process fits under DataParallel, then process 0 alone saves the
    weights and predicts (None elsewhere)."""
    distribution.set_distribution(make_distribution("data"))
    model = model_for_tests()
    model.fit(X, Y, batch_size=8, epochs=2, shuffle=False, verbose=0)
    predictions = None
    if distribution.process_id() == 0:
        model.save_weights(path)
        predictions = model.predict(X, batch_size=16, verbose=0)
    distribution.set_distribution(None)
    return predictions


def reload(kind, path):
    """Predictions of a fresh model placed under distribution `kind` (by a first predict), then
    given the weights of `path` with `load_weights`."""
    distribution.set_distribution(make_distribution(kind))
    model = model_for_tests()
    model.predict(X, batch_size=16, verbose=0)
    model.load_weights(path)
    predictions = model.predict(X, batch_size=16, verbose=0)
    distribution.set_distribution(None)
    return predictions


def die_during_fit(index):
    """Process `index` leaves the run after one epoch; the others go on training."""
    distribution.set_distribution(make_distribution("data"))
    model = model_for_tests()

    class Leave(tripod.callbacks.Callback):
        def on_epoch_end(self, epoch, logs=None):
            if distribution.process_id() == index:
                os._exit(3)

    model.fit(X, Y, batch_size=8, epochs=50, verbose=0, callbacks=[Leave()])
