"""Transfer learning with a frozen base: pre-train a small convolutional base on one task, freeze
it, train a new head on a second task, then fine-tune the whole model at a low learning rate with
the base kept in inference mode (so its BatchNormalization statistics stay put).

Run: TRIPOD_BACKEND=jax python examples/guides/transfer_learning.py
"""

import numpy as np

import tripod as keras
from tripod import layers


def make_images(n, seed):
    """16x16 images with a bright square in one of four quadrants; labels are the quadrant."""
    rng = np.random.default_rng(seed)
    images = rng.normal(0.0, 0.3, (n, 16, 16, 1)).astype("float32")
    quadrant = rng.integers(0, 4, n)
    for i, q in enumerate(quadrant):
        row, col = 8 * (q // 2), 8 * (q % 2)
        images[i, row + 2 : row + 6, col + 2 : col + 6] += 1.0
    return images, quadrant


def build_base():
    """A convolutional feature extractor with a BatchNormalization layer."""
    return keras.Sequential(
        [keras.Input((16, 16, 1)), layers.Conv2D(8, 3, activation="relu"), layers.BatchNormalization(),
         layers.MaxPooling2D(2), layers.Conv2D(8, 3, activation="relu")],
        name="base",
    )  # fmt: skip


def pretrain(base, x, quadrant, epochs):
    """Task A: which quadrant holds the square."""
    model = keras.Sequential([base, layers.GlobalAveragePooling2D(), layers.Dense(4)])
    model.compile(
        optimizer=keras.optimizers.Adam(0.01),
        loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
    )
    model.fit(x, quadrant, batch_size=32, epochs=epochs, verbose=0)


def transfer_model(base):
    """Task B on top of the frozen base: is the square in the top half?"""
    inputs = keras.Input((16, 16, 1))
    features = base(inputs, training=False)
    outputs = layers.Dense(1)(layers.GlobalAveragePooling2D()(features))
    return keras.Model(inputs, outputs)


def main(epochs=5):
    """Return (base unchanged while frozen?, head accuracy, BN statistics kept while fine-tuning?, accuracy after)."""
    keras.utils.set_random_seed(0)
    x, quadrant = make_images(512, seed=0)
    top = (quadrant < 2).astype("float32")[:, None]
    base = build_base()
    pretrain(base, x, quadrant, epochs)
    base.trainable = False
    model = transfer_model(base)
    model.compile(
        optimizer=keras.optimizers.Adam(0.01),
        loss=keras.losses.BinaryCrossentropy(from_logits=True),
        metrics=[keras.metrics.BinaryAccuracy(threshold=0.0)],
    )
    before = [w.copy() for w in base.get_weights()]
    model.fit(x, top, batch_size=32, epochs=epochs, verbose=0)
    frozen_kept = all(np.array_equal(a, b) for a, b in zip(before, base.get_weights()))
    head_accuracy = model.evaluate(x, top, verbose=0, return_dict=True)["binary_accuracy"]
    base.trainable = True
    model.compile(
        optimizer=keras.optimizers.Adam(1e-4),
        loss=keras.losses.BinaryCrossentropy(from_logits=True),
        metrics=[keras.metrics.BinaryAccuracy(threshold=0.0)],
    )
    moving_mean = base.layers[1].moving_mean.numpy().copy()
    model.fit(x, top, batch_size=32, epochs=1, verbose=0)
    statistics_kept = np.array_equal(moving_mean, base.layers[1].moving_mean.numpy())
    tuned_accuracy = model.evaluate(x, top, verbose=0, return_dict=True)["binary_accuracy"]
    print(f"{keras.config.backend()}: frozen base unchanged {frozen_kept}, head accuracy {head_accuracy:.3f}, "
          f"BN statistics kept while fine-tuning {statistics_kept}, accuracy after {tuned_accuracy:.3f}")  # fmt: skip
    return frozen_kept, head_accuracy, statistics_kept, tuned_accuracy


if __name__ == "__main__":
    main()
