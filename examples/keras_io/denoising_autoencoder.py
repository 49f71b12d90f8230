# Written for tripod in the style of keras.io's "Convolutional autoencoder for image denoising"
# example (https://keras.io/examples/vision/autoencoder/).
"""A convolutional autoencoder: Conv2D + MaxPooling2D down, Conv2DTranspose(strides=2) up, a
sigmoid Conv2D out. It is first fitted to reproduce clean images, then fitted again to map
noisy images to clean ones, and it must denoise better than leaving the noise in place.

Synthetic data in place of MNIST: 16x16 images of one or two filled rectangles, with Gaussian
noise (factor 0.4) clipped to [0, 1].

Run: python examples/keras_io/denoising_autoencoder.py   (real Keras)
"""

import keras
import numpy as np
from keras import layers


def make_images(n, seed=0):
    rng = np.random.default_rng(seed)
    images = np.zeros((n, 16, 16, 1), "float32")
    for image in images:
        for _ in range(rng.integers(1, 3)):
            top, left = rng.integers(0, 10, 2)
            height, width = rng.integers(3, 7, 2)
            image[top : top + height, left : left + width] = rng.uniform(0.6, 1.0)
    return images


def noise(array, seed=1):
    """Adds random noise to each image in the supplied array."""
    noisy = array + 0.4 * np.random.default_rng(seed).normal(0.0, 1.0, array.shape)
    return np.clip(noisy, 0.0, 1.0).astype("float32")


def main(epochs=6, n_train=1024, n_test=128):
    keras.utils.set_random_seed(5)
    train_data, test_data = make_images(n_train, 0), make_images(n_test, 1)
    noisy_train_data, noisy_test_data = noise(train_data, 2), noise(test_data, 3)

    input = layers.Input(shape=(16, 16, 1))
    x = layers.Conv2D(32, (3, 3), activation="relu", padding="same")(input)
    x = layers.MaxPooling2D((2, 2), padding="same")(x)
    x = layers.Conv2D(32, (3, 3), activation="relu", padding="same")(x)
    x = layers.MaxPooling2D((2, 2), padding="same")(x)
    x = layers.Conv2DTranspose(32, (3, 3), strides=2, activation="relu", padding="same")(x)
    x = layers.Conv2DTranspose(32, (3, 3), strides=2, activation="relu", padding="same")(x)
    x = layers.Conv2D(1, (3, 3), activation="sigmoid", padding="same")(x)
    autoencoder = keras.Model(input, x)
    autoencoder.compile(optimizer="adam", loss="binary_crossentropy")

    clean = autoencoder.fit(
        x=train_data,
        y=train_data,
        epochs=epochs,
        batch_size=64,
        shuffle=True,
        validation_data=(test_data, test_data),
        verbose=0,
    )
    denoising = autoencoder.fit(
        x=noisy_train_data,
        y=train_data,
        epochs=epochs,
        batch_size=64,
        shuffle=True,
        validation_data=(noisy_test_data, test_data),
        verbose=0,
    )
    predictions = autoencoder.predict(noisy_test_data, verbose=0)
    return {
        "output_shape": tuple(autoencoder.output_shape),
        "clean_first_loss": clean.history["loss"][0],
        "clean_last_loss": clean.history["loss"][-1],
        "denoising_last_val_loss": denoising.history["val_loss"][-1],
        "noisy_mse": float(np.mean((noisy_test_data - test_data) ** 2)),
        "denoised_mse": float(np.mean((predictions - test_data) ** 2)),
    }


def check(result):
    assert result["output_shape"] == (None, 16, 16, 1), result
    assert result["clean_last_loss"] < 0.8 * result["clean_first_loss"], result
    assert result["denoised_mse"] < 0.5 * result["noisy_mse"], result


if __name__ == "__main__":
    outcome = main()
    print(outcome)
    check(outcome)
