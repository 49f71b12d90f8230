"""Shared pieces of the backend-specific custom `train_step` tests (the Keras guides' patterns)."""

import numpy as np

import tripod as keras

FEATURES = 8


def regression_data(samples=256, seed=0):
    """(x, y) of a noiseless linear regression that a Dense(1) model learns in a few epochs."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(samples, FEATURES)).astype("float32")
    w = rng.normal(size=(FEATURES, 1)).astype("float32")
    return x, (x @ w + 0.5).astype("float32")


def build(cls, units=1):
    """A functional model of class `cls` (a `keras.Model` subclass): Dense(units) on FEATURES
    inputs."""
    inputs = keras.Input(shape=(FEATURES,))
    return cls(inputs, keras.layers.Dense(units)(inputs))


def assert_learns(history, names):
    """The history holds exactly `names` per epoch, and the loss went down."""
    assert sorted(history.history) == sorted(names)
    losses = history.history["loss"]
    assert np.all(np.isfinite(losses))
    assert losses[-1] < 0.8 * losses[0], losses


def gan_parts(latent_dim=4, features=FEATURES):
    """A small generator and discriminator for the GAN-style steps."""
    return _mlp(latent_dim, features), _mlp(features, 1)


def _mlp(inputs, outputs):
    """Dense(16, relu) then Dense(outputs), on `inputs` features."""
    hidden = keras.layers.Dense(16, activation="relu")
    return keras.Sequential([keras.Input((inputs,)), hidden, keras.layers.Dense(outputs)])


class GANBase(keras.Model):
    """The guides' GAN without its step: two models, two optimizers, two loss trackers."""

    def __init__(self, discriminator, generator, latent_dim):
        super().__init__()
        self.discriminator = discriminator
        self.generator = generator
        self.latent_dim = latent_dim
        self.d_loss_tracker = keras.metrics.Mean(name="d_loss")
        self.g_loss_tracker = keras.metrics.Mean(name="g_loss")
        self.seed_generator = keras.random.SeedGenerator(1337)
        self.built = True

    @property
    def metrics(self):
        return [self.d_loss_tracker, self.g_loss_tracker]

    def compile(self, d_optimizer, g_optimizer, loss_fn):
        super().compile()
        self.d_optimizer, self.g_optimizer, self.loss_fn = d_optimizer, g_optimizer, loss_fn


def assert_gan_trains(gan_class):
    """A `GANBase` subclass fits 2 epochs: finite losses, the generator's weights changed."""
    generator, discriminator = gan_parts()
    gan = gan_class(discriminator, generator, latent_dim=4)
    loss_fn = keras.losses.BinaryCrossentropy(from_logits=True)
    gan.compile(keras.optimizers.Adam(1e-3), keras.optimizers.Adam(1e-3), loss_fn)
    before = [w.copy() for w in generator.get_weights()]
    real, _ = regression_data(samples=64)
    history = gan.fit(real, batch_size=32, epochs=2, verbose=0)
    assert sorted(history.history) == ["d_loss", "g_loss"]
    assert np.all(np.isfinite(history.history["d_loss"] + history.history["g_loss"]))
    assert all(np.any(a != b) for a, b in zip(before, generator.get_weights()))


class TrackerBase(keras.Model):
    """The guides' lower-level model: its own MSE loss function, `Mean` loss and MAE trackers."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.loss_tracker = keras.metrics.Mean(name="loss")
        self.mae_metric = keras.metrics.MeanAbsoluteError(name="mae")
        self.loss_fn = keras.losses.MeanSquaredError()

    def _track(self, loss, y, y_pred):
        self.loss_tracker.update_state(loss)
        self.mae_metric.update_state(y, y_pred)
        return {"loss": self.loss_tracker.result(), "mae": self.mae_metric.result()}

    @property
    def metrics(self):
        return [self.loss_tracker, self.mae_metric]
