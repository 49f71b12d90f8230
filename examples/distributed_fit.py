"""Distributed training: one unchanged script on one device, several devices, or several
processes, on every backend.

A digit-sized MLP (784 -> 128 -> 10) trains with `DataParallel` over every device of the run:
each process reads its share of every global batch, the framework averages the gradients, and
process 0 alone prints and writes the checkpoint, which loads on one device anywhere.

Run it:
    python examples/distributed_fit.py                                  # the local devices
    TRIPOD_NUM_CPU_DEVICES=2 python examples/distributed_fit.py         # 2 CPU devices (jax, tf)
    python -m tripod.testing.launch_processes 2 examples/distributed_fit.py     # 2 processes, any backend
    TRIPOD_BACKEND=torch torchrun --nproc-per-node=2 examples/distributed_fit.py
"""

import sys

import numpy as np

import tripod as keras
from tripod import distribution, layers


def synthetic_digits(samples, seed=0):
    """Images of 784 pixels whose class (0-9) is which block of 78 pixels is brightest."""
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, 10, samples)
    images = rng.uniform(0, 0.5, (samples, 784)).astype("float32")
    for digit in range(10):
        rows = labels == digit
        images[rows, digit * 78 : (digit + 1) * 78] += 0.5
    return images, labels


def main(epochs=3, samples=4096, save_to="distributed_mlp.keras"):
    distribution.initialize()  # joins the run when launched as several processes
    with distribution.DataParallel().scope():  # or set_distribution(...) for the whole program
        return train(epochs, samples, save_to)


def train(epochs, samples, save_to):
    """Build, fit, evaluate and save the MLP under the distribution in effect."""
    chief = distribution.process_id() == 0
    if chief:
        print(f"{keras.config.backend()}: {distribution.num_processes()} process(es), "
              f"devices {distribution.list_devices()}")  # fmt: skip
    keras.utils.set_random_seed(0)  # the same initial weights in every process
    x, y = synthetic_digits(samples)
    model = keras.Sequential(
        [keras.Input((784,)), layers.Dense(128, activation="relu"), layers.Dense(10)]
    )
    model.compile(
        optimizer=keras.optimizers.Adam(1e-3),
        loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=["accuracy"],
    )
    model.fit(x, y, batch_size=128, epochs=epochs, verbose=2 if chief else 0)
    loss, accuracy = model.evaluate(x, y, batch_size=256, verbose=0)
    model.save(save_to)  # every process takes part; process 0 writes the file
    if chief:
        print(f"loss {loss:.4f}, accuracy {accuracy:.3f}; saved to {save_to}")
    return accuracy


if __name__ == "__main__":
    main(save_to=sys.argv[1] if len(sys.argv) > 1 else "distributed_mlp.keras")
