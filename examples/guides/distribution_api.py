"""The distribution API, in the order of Keras's "Distributed training with Keras 3" guide: a
device mesh and tensor layouts, data parallel training, then model parallel training with a
layout map, on whatever devices the run has (one is enough to run it; launch it as several
processes, or with TRIPOD_NUM_CPU_DEVICES=2, to split the work).

Run: TRIPOD_NUM_CPU_DEVICES=2 TRIPOD_BACKEND=jax python examples/guides/distribution_api.py
     python -m tripod.testing.launch_processes 2 examples/guides/distribution_api.py   (any backend)
"""

import numpy as np

import tripod as keras
from tripod import distribution, layers


def digits(samples=512, seed=0):
    """MNIST-shaped data (28x28 images, 10 classes) that a small MLP can learn: the class is the
    row band that is brightest."""
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, 10, samples)
    images = rng.uniform(0, 0.3, (samples, 28, 28)).astype("float32")
    for digit in range(10):
        images[labels == digit, 2 * digit + 4 : 2 * digit + 6, :] += 0.7
    return images, labels


def mlp():
    """The guide's model: flatten, two Dense layers named d1 and d2 (their paths are what the
    layout map matches)."""
    inputs = keras.Input((28, 28))
    x = layers.Flatten()(inputs)
    x = layers.Dense(200, activation="relu", name="d1")(x)
    x = layers.Dropout(0.1)(x)
    outputs = layers.Dense(10, name="d2")(x)
    return keras.Model(inputs, outputs)


def fit(model, images, labels, epochs):
    model.compile(
        optimizer=keras.optimizers.Adam(3e-3),
        loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=["accuracy"],
    )
    model.fit(images, labels, batch_size=64, epochs=epochs, verbose=0)
    return model.evaluate(images, labels, batch_size=64, verbose=0, return_dict=True)["accuracy"]


def main(epochs=3):
    distribution.initialize()  # a multi-process launch joins here; one process: nothing happens
    devices = distribution.list_devices()
    count = len(devices)
    keras.utils.set_random_seed(0)
    images, labels = digits()

    # A mesh of every device, with a batch axis and a model axis, and two layouts on it.
    mesh = distribution.DeviceMesh(shape=(1, count), axis_names=["batch", "model"], devices=devices)
    split_columns = distribution.TensorLayout(axes=(None, "model"), device_mesh=mesh)
    print(
        f"{keras.config.backend()}: {count} device(s) {devices}; a kernel layout {split_columns.axes}"
    )

    # Data parallel: the whole model on every device, each batch split over them.
    with distribution.DataParallel(devices=devices).scope():
        data_parallel_accuracy = fit(mlp(), images, labels, epochs)
    print(f"DataParallel accuracy: {data_parallel_accuracy:.3f}")

    # Model parallel: d1's kernel and bias, and d2's kernel, split over the "model" axis.
    layout_map = distribution.LayoutMap(mesh)
    layout_map["d1/kernel"] = (None, "model")
    layout_map["d1/bias"] = ("model",)
    layout_map["d2/kernel"] = ("model", None)
    model_parallel = distribution.ModelParallel(layout_map=layout_map, batch_dim_name="batch")
    try:
        with model_parallel.scope():
            model_parallel_accuracy = fit(mlp(), images, labels, epochs)
    except NotImplementedError as error:  # tensorflow: data parallel only, said clearly
        print(error)
        model_parallel_accuracy = None
    else:
        print(f"ModelParallel accuracy: {model_parallel_accuracy:.3f}")
    return data_parallel_accuracy, model_parallel_accuracy


if __name__ == "__main__":
    main()
