# Written for tripod in the style of keras.io's "Variational AutoEncoder" example
# (https://keras.io/examples/generative/vae/).
"""A convolutional variational autoencoder: a `Sampling` layer drawing from
`keras.random.normal` with its own `SeedGenerator`, a Conv2D encoder giving `z_mean` and
`z_log_var`, a Conv2DTranspose decoder, and a `keras.Model` subclass with its own `train_step`
and `Mean` trackers for the total, reconstruction and KL losses.

A Keras 3 `train_step` is written per framework, as the keras.io guides "Customizing what
happens in fit()" with JAX, PyTorch and TensorFlow do: `GradientTape` on TensorFlow, `backward()`
on PyTorch, and on JAX a pure step over `stateless_call`, `optimizer.stateless_apply` and
`metric.stateless_update_state`. This script carries all three.

Synthetic data in place of MNIST: 16x16 images of a bright bar at a random place and angle.

Run: KERAS_BACKEND=torch python examples/keras_io/vae.py   (real Keras)
"""

import keras
import numpy as np
from keras import layers, ops

LATENT_DIM = 2


class Sampling(layers.Layer):
    """Uses (z_mean, z_log_var) to sample z, the vector encoding an image."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.seed_generator = keras.random.SeedGenerator(1337)

    def call(self, inputs):
        z_mean, z_log_var = inputs
        epsilon = keras.random.normal(shape=ops.shape(z_mean), seed=self.seed_generator)
        return z_mean + ops.exp(0.5 * z_log_var) * epsilon


def build_encoder():
    encoder_inputs = keras.Input(shape=(16, 16, 1))
    x = layers.Conv2D(16, 3, activation="relu", strides=2, padding="same")(encoder_inputs)
    x = layers.Conv2D(32, 3, activation="relu", strides=2, padding="same")(x)
    x = layers.Flatten()(x)
    x = layers.Dense(16, activation="relu")(x)
    z_mean = layers.Dense(LATENT_DIM, name="z_mean")(x)
    z_log_var = layers.Dense(LATENT_DIM, name="z_log_var")(x)
    z = Sampling()([z_mean, z_log_var])
    return keras.Model(encoder_inputs, [z_mean, z_log_var, z], name="encoder")


def build_decoder():
    latent_inputs = keras.Input(shape=(LATENT_DIM,))
    x = layers.Dense(4 * 4 * 32, activation="relu")(latent_inputs)
    x = layers.Reshape((4, 4, 32))(x)
    x = layers.Conv2DTranspose(32, 3, activation="relu", strides=2, padding="same")(x)
    x = layers.Conv2DTranspose(16, 3, activation="relu", strides=2, padding="same")(x)
    decoder_outputs = layers.Conv2DTranspose(1, 3, activation="sigmoid", padding="same")(x)
    return keras.Model(latent_inputs, decoder_outputs, name="decoder")


class VAE(keras.Model):
    def __init__(self, encoder, decoder, **kwargs):
        super().__init__(**kwargs)
        self.encoder = encoder
        self.decoder = decoder
        self.total_loss_tracker = keras.metrics.Mean(name="total_loss")
        self.reconstruction_loss_tracker = keras.metrics.Mean(name="reconstruction_loss")
        self.kl_loss_tracker = keras.metrics.Mean(name="kl_loss")

    @property
    def metrics(self):
        return [self.total_loss_tracker, self.reconstruction_loss_tracker, self.kl_loss_tracker]

    def call(self, data, training=None):
        z_mean, z_log_var, z = self.encoder(data, training=training)
        return z_mean, z_log_var, self.decoder(z, training=training)

    def losses_of(self, data, z_mean, z_log_var, reconstruction):
        reconstruction_loss = ops.mean(
            ops.sum(keras.losses.binary_crossentropy(data, reconstruction), axis=(1, 2))
        )
        kl_loss = -0.5 * (1 + z_log_var - ops.square(z_mean) - ops.exp(z_log_var))
        kl_loss = ops.mean(ops.sum(kl_loss, axis=1))
        return reconstruction_loss + kl_loss, reconstruction_loss, kl_loss

    def record(self, total, reconstruction, kl):
        self.total_loss_tracker.update_state(total)
        self.reconstruction_loss_tracker.update_state(reconstruction)
        self.kl_loss_tracker.update_state(kl)
        return {m.name: m.result() for m in self.metrics}

    if keras.backend.backend() == "tensorflow":

        def train_step(self, data):
            import tensorflow as tf

            with tf.GradientTape() as tape:
                losses = self.losses_of(data, *self(data, training=True))
            grads = tape.gradient(losses[0], self.trainable_weights)
            self.optimizer.apply(grads, self.trainable_weights)
            return self.record(*losses)

    elif keras.backend.backend() == "torch":

        def train_step(self, data):
            import torch

            self.zero_grad()
            losses = self.losses_of(data, *self(data, training=True))
            losses[0].backward()
            trainable_weights = [v for v in self.trainable_weights]
            gradients = [v.value.grad for v in trainable_weights]
            with torch.no_grad():
                self.optimizer.apply(gradients, trainable_weights)
            return self.record(*losses)

    elif keras.backend.backend() == "jax":

        def compute_loss_and_updates(self, trainable_variables, non_trainable_variables, data):
            outputs, non_trainable_variables = self.stateless_call(
                trainable_variables, non_trainable_variables, data, training=True
            )
            losses = self.losses_of(data, *outputs)
            return losses[0], (losses, non_trainable_variables)

        def train_step(self, state, data):
            import jax

            trainable_variables, non_trainable_variables, optimizer_variables, metrics_variables = (
                state
            )
            grad_fn = jax.value_and_grad(self.compute_loss_and_updates, has_aux=True)
            (_, (losses, non_trainable_variables)), grads = grad_fn(
                trainable_variables, non_trainable_variables, data
            )
            trainable_variables, optimizer_variables = self.optimizer.stateless_apply(
                optimizer_variables, grads, trainable_variables
            )
            logs, new_metrics_vars = {}, []
            for metric, value in zip(self.metrics, losses):
                start = len(new_metrics_vars)
                this_metric_vars = metrics_variables[start : start + len(metric.variables)]
                this_metric_vars = metric.stateless_update_state(this_metric_vars, value)
                logs[metric.name] = metric.stateless_result(this_metric_vars)
                new_metrics_vars += this_metric_vars
            state = (
                trainable_variables,
                non_trainable_variables,
                optimizer_variables,
                new_metrics_vars,
            )
            return logs, state


def make_images(n, seed=0):
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:16, 0:16].astype("float32")
    angle = rng.uniform(0, np.pi, (n, 1, 1))
    offset = rng.uniform(-4, 4, (n, 1, 1))
    distance = np.abs((xx - 7.5) * np.cos(angle) + (yy - 7.5) * np.sin(angle) - offset)
    return np.clip(1.5 - distance, 0, 1)[..., None].astype("float32")


def main(epochs=8, n=1024):
    keras.utils.set_random_seed(4)
    images = make_images(n)
    vae = VAE(build_encoder(), build_decoder())
    vae.compile(optimizer=keras.optimizers.Adam(learning_rate=3e-3))
    history = vae.fit(images, epochs=epochs, batch_size=64, verbose=0)
    z_mean, _, _ = vae.encoder.predict(images[:8], verbose=0)
    generated = vae.decoder.predict(np.zeros((3, LATENT_DIM), "float32"), verbose=0)
    return {
        "history_keys": sorted(history.history),
        "first_loss": history.history["total_loss"][0],
        "last_loss": history.history["total_loss"][-1],
        "last_kl": history.history["kl_loss"][-1],
        "z_mean_shape": tuple(np.shape(z_mean)),
        "generated_shape": tuple(np.shape(generated)),
        "generated_range": (float(np.min(generated)), float(np.max(generated))),
    }


def check(result):
    assert result["history_keys"] == ["kl_loss", "reconstruction_loss", "total_loss"], result
    assert result["last_loss"] < 0.8 * result["first_loss"], result
    assert result["last_kl"] > 0, result
    assert result["z_mean_shape"] == (8, LATENT_DIM), result
    assert result["generated_shape"] == (3, 16, 16, 1), result
    assert 0 <= result["generated_range"][0] <= result["generated_range"][1] <= 1, result


if __name__ == "__main__":
    outcome = main()
    print(outcome)
    check(outcome)
