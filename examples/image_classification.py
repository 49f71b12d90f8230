"""Image classification from a folder of image files, in the style of the keras.io example
"Image classification from scratch": files on disk -> `image_dataset_from_directory` ->
augmentation layers in the `tf.data` pipeline -> a small convnet.

The folder is generated here: 32x32 RGB PNG files of two classes, "horizontal" and "vertical"
stripes of random colour, width and phase under noise (a left-right flip or a small rotation
keeps the class, so the augmentation is honest). The augmentation runs in the `tf.data` map with
TensorFlow ops whatever the backend — the model trains on jax, torch or tensorflow. The held-out
accuracy is printed (close to 1.0).

Run: python examples/image_classification.py   (pick the backend with TRIPOD_BACKEND=...)
"""

import os
import tempfile

import numpy as np
from tensorflow import data as tf_data

import tripod as keras
from tripod import layers

SIZE = 32
CLASSES = ("horizontal", "vertical")


def draw(kind, rng):
    """One SIZE x SIZE x 3 uint8 image: stripes of a random colour, width and phase, horizontal
    or vertical, under noise."""
    period, phase = rng.integers(4, 9), rng.uniform(0, 2 * np.pi)
    coordinate = np.arange(SIZE)[:, None] if kind == "horizontal" else np.arange(SIZE)[None, :]
    stripes = 0.5 + 0.5 * np.sin(2 * np.pi * coordinate / period + phase)
    colour = rng.uniform(80, 255, 3)
    image = stripes[..., None] * colour + rng.normal(0, 20, (SIZE, SIZE, 3))
    return np.clip(image, 0, 255).astype("uint8")


def make_image_folder(root, per_class, seed=0):
    """root/<class>/<i>.png for both classes."""
    rng = np.random.default_rng(seed)
    for kind in CLASSES:
        os.makedirs(os.path.join(root, kind), exist_ok=True)
        for i in range(per_class):
            keras.utils.save_img(os.path.join(root, kind, f"{i}.png"), draw(kind, rng))


data_augmentation_layers = [layers.RandomFlip("horizontal"), layers.RandomRotation(0.1)]


def data_augmentation(images):
    for layer in data_augmentation_layers:
        images = layer(images)
    return images


def make_model():
    inputs = keras.Input((SIZE, SIZE, 3))
    x = layers.Rescaling(1.0 / 255)(inputs)
    x = layers.Conv2D(16, 3, activation="relu")(x)
    x = layers.MaxPooling2D()(x)
    x = layers.Conv2D(32, 3, activation="relu")(x)
    x = layers.GlobalAveragePooling2D()(x)
    outputs = layers.Dense(1, activation="sigmoid")(x)
    return keras.Model(inputs, outputs)


def main(epochs=12, per_class=150):
    print(f"tripod {keras.__version__} on the {keras.config.backend()} backend")
    keras.utils.set_random_seed(0)
    with tempfile.TemporaryDirectory() as root:
        make_image_folder(root, per_class)
        train_ds, val_ds = keras.utils.image_dataset_from_directory(
            root,
            validation_split=0.2,
            subset="both",
            seed=1337,
            image_size=(SIZE, SIZE),
            batch_size=32,
        )
        print("classes:", train_ds.class_names)
        train_ds = train_ds.map(
            lambda img, label: (data_augmentation(img), label), num_parallel_calls=tf_data.AUTOTUNE
        )
        train_ds, val_ds = train_ds.prefetch(tf_data.AUTOTUNE), val_ds.prefetch(tf_data.AUTOTUNE)
        model = make_model()
        model.compile(keras.optimizers.Adam(3e-3), "binary_crossentropy", metrics=["accuracy"])
        model.fit(train_ds, epochs=epochs, validation_data=val_ds, verbose=2)
        _, accuracy = model.evaluate(val_ds, verbose=0)
    print(f"held-out accuracy: {accuracy:.3f}")
    return accuracy


if __name__ == "__main__":
    main()
