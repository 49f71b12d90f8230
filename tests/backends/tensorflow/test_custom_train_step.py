"""Keras's "Customizing what happens in fit() with TensorFlow" patterns run on tripod's tensorflow
backend, inside the compiled (`tf.function`) step: `tf.GradientTape` over tripod variables,
`tape.gradient(loss, self.trainable_variables)`, random draws shaped by `tf.shape(x)`."""

import numpy as np
import pytest

import tripod as keras
from tests.backends.custom_steps import (
    GANBase,
    TrackerBase,
    assert_gan_trains,
    assert_learns,
    build,
    regression_data,
)
from tripod.backends import config

if config.backend() != "tensorflow":
    pytest.skip("tensorflow-specific train_step overrides", allow_module_level=True)

import tensorflow as tf


class GuideModel(keras.Model):
    """The guide's steps: the compiled loss and metrics, sample weights passed on."""

    def train_step(self, data):
        x, y, sample_weight = keras.utils.unpack_x_y_sample_weight(data)
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compute_loss(y=y, y_pred=y_pred, sample_weight=sample_weight)
        trainable_vars = self.trainable_variables
        self.optimizer.apply(tape.gradient(loss, trainable_vars), trainable_vars)
        return self._update_metrics(loss, y, y_pred, sample_weight)

    def test_step(self, data):
        x, y, sample_weight = keras.utils.unpack_x_y_sample_weight(data)
        y_pred = self(x, training=False)
        loss = self.compute_loss(y=y, y_pred=y_pred, sample_weight=sample_weight)
        return self._update_metrics(loss, y, y_pred, sample_weight)

    def _update_metrics(self, loss, y, y_pred, sample_weight):
        for metric in self.metrics:
            if metric.name == "loss":
                metric.update_state(loss)
            else:
                metric.update_state(y, y_pred, sample_weight=sample_weight)
        return {m.name: m.result() for m in self.metrics}


class TrackerModel(TrackerBase):
    """The guide's lower-level step: its own loss function and `Mean`/MAE trackers."""

    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.loss_fn(y, y_pred)
        gradients = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply(gradients, self.trainable_variables)
        return self._track(loss, y, y_pred)


class GAN(GANBase):
    """The guide's GAN: a batch size and label noise shaped by `tf.shape` inside the trace."""

    def _train_part(self, model, optimizer, loss_of):
        """Take `loss_of()`'s gradients for `model`'s weights with a tape and apply them."""
        with tf.GradientTape() as tape:
            loss = loss_of()
        optimizer.apply(tape.gradient(loss, model.trainable_weights), model.trainable_weights)
        return loss

    def train_step(self, real):
        real = real[0] if isinstance(real, tuple) else real
        batch = tf.shape(real)[0]
        latent = keras.random.normal(shape=(batch, self.latent_dim), seed=self.seed_generator)
        images = tf.concat([self.generator(latent), real], axis=0)
        labels = tf.concat([tf.ones((batch, 1)), tf.zeros((batch, 1))], axis=0)
        labels += 0.05 * keras.random.uniform(tf.shape(labels), seed=self.seed_generator)
        d_loss = self._train_part(
            self.discriminator,
            self.d_optimizer,
            lambda: self.loss_fn(labels, self.discriminator(images)),
        )
        latent = keras.random.normal(shape=(batch, self.latent_dim), seed=self.seed_generator)
        misleading = tf.zeros((batch, 1))
        g_loss = self._train_part(
            self.generator,
            self.g_optimizer,
            lambda: self.loss_fn(misleading, self.discriminator(self.generator(latent))),
        )
        self.d_loss_tracker.update_state(d_loss)
        self.g_loss_tracker.update_state(g_loss)
        return {"d_loss": self.d_loss_tracker.result(), "g_loss": self.g_loss_tracker.result()}


@pytest.mark.parametrize("jit_compile", ["auto", True])
def test_the_guide_step_fits_and_evaluates_with_sample_weights(jit_compile):
    x, y = regression_data()
    weights = np.linspace(0.5, 1.5, len(x)).astype("float32")
    model = build(GuideModel)
    optimizer = keras.optimizers.Adam(0.05)
    model.compile(optimizer=optimizer, loss="mse", metrics=["mae"], jit_compile=jit_compile)
    history = model.fit(x, y, sample_weight=weights, batch_size=32, epochs=2, verbose=0)
    assert_learns(history, ["loss", "mae"])
    logs = model.evaluate(x, y, sample_weight=weights, verbose=0, return_dict=True)
    error = np.abs(model.predict(x, verbose=0) - y)[:, 0]
    np.testing.assert_allclose(logs["mae"], np.sum(weights * error) / np.sum(weights), rtol=1e-4)


def test_the_lower_level_step_with_its_own_trackers():
    x, y = regression_data()
    model = build(TrackerModel)
    model.compile(optimizer=keras.optimizers.Adam(0.05))
    assert_learns(model.fit(x, y, batch_size=32, epochs=2, verbose=0), ["loss", "mae"])


def test_the_gan_step_trains_both_parts():
    assert_gan_trains(GAN)


def test_a_tape_differentiates_tripod_variables_as_tf_variables():
    v = keras.Variable(np.array([1.0, 2.0], "float32"))
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.convert_to_tensor(v) ** 2) + tf.reduce_sum(v * 3.0)
    np.testing.assert_allclose(tape.gradient(loss, v).numpy(), [5.0, 7.0])

    optimizer = keras.optimizers.SGD(0.25)
    optimizer.build([v])  # variables are made outside the trace

    @tf.function(autograph=False)
    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(v * v)
        optimizer.apply(tape.gradient(loss, [v]), [v])

    step()
    np.testing.assert_allclose(v.numpy(), [0.5, 1.0])


def test_random_ops_take_a_shape_tensor_inside_a_compiled_step():
    seed = keras.random.SeedGenerator(3)

    @tf.function(autograph=False, input_signature=[tf.TensorSpec([None, 3])])
    def draw(x):
        batch = tf.shape(x)[0]
        return (
            keras.random.uniform(tf.shape(x), seed=seed),
            keras.random.normal((batch, 2), seed=seed),
            keras.random.truncated_normal(keras.ops.shape(x), seed=seed),
            keras.random.randint(tf.shape(x), 0, 5, seed=seed),
        )

    shapes = [tuple(t.shape) for t in draw(tf.ones((4, 3)))]
    assert shapes == [(4, 3), (4, 2), (4, 3), (4, 3)]
