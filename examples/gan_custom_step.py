"""A GAN-style custom training step, written once, running on jax, torch and tensorflow.

Two models, two optimizers, one `train_step`: gradients come from `tripod.value_and_grad`, which
works the same on every backend, so no backend-specific code is needed. The generator learns to
map noise to samples of a 1-D Gaussian (mean 3, std 0.5).

Run: TRIPOD_BACKEND=torch python examples/gan_custom_step.py
"""

import numpy as np

import tripod as keras
from tripod import layers, ops

LATENT = 4


class GAN(keras.Model):
    """A generator and a discriminator trained against each other."""

    def __init__(self):
        super().__init__()
        self.generator = keras.Sequential(
            [keras.Input((LATENT,)), layers.Dense(16, activation="relu"), layers.Dense(1)],
            name="generator",
        )
        self.discriminator = keras.Sequential(
            [keras.Input((1,)), layers.Dense(16, activation="relu"), layers.Dense(1)],
            name="discriminator",
        )
        self.seed_generator = keras.random.SeedGenerator(0)
        self.bce = keras.losses.BinaryCrossentropy(from_logits=True)

    def compile(self, generator_optimizer, discriminator_optimizer):
        super().compile()
        self.g_opt, self.d_opt = generator_optimizer, discriminator_optimizer
        self.g_opt.build(self.generator.trainable_variables)
        self.d_opt.build(self.discriminator.trainable_variables)

    def call(self, noise):
        return self.generator(noise)

    def train_step(self, data):
        real = data[0] if isinstance(data, tuple) else data
        batch = ops.shape(real)[0]
        noise = keras.random.normal((batch, LATENT), seed=self.seed_generator)

        def discriminator_loss():
            fake = self.generator(noise)
            real_logits = self.discriminator(real)
            fake_logits = self.discriminator(fake)
            return ops.add(self.bce(ops.ones_like(real_logits), real_logits),
                           self.bce(ops.zeros_like(fake_logits), fake_logits))  # fmt: skip

        d_loss, d_grads = keras.value_and_grad(
            discriminator_loss, self.discriminator.trainable_variables
        )()
        self.d_opt.apply(d_grads, self.discriminator.trainable_variables)

        def generator_loss():
            fake_logits = self.discriminator(self.generator(noise))
            return self.bce(ops.ones_like(fake_logits), fake_logits)

        g_loss, g_grads = keras.value_and_grad(generator_loss, self.generator.trainable_variables)()
        self.g_opt.apply(g_grads, self.generator.trainable_variables)
        return {"d_loss": d_loss, "g_loss": g_loss}


def main(epochs=60):
    keras.utils.set_random_seed(0)
    real = np.random.default_rng(0).normal(3.0, 0.5, (1024, 1)).astype("float32")
    gan = GAN()
    gan.compile(keras.optimizers.Adam(0.01), keras.optimizers.Adam(0.01))
    history = gan.fit(real, batch_size=128, epochs=epochs, verbose=0)
    samples = gan.predict(
        np.random.default_rng(1).standard_normal((2000, LATENT)).astype("float32"), verbose=0
    )
    print(f"{keras.config.backend()}: d_loss {history.history['d_loss'][-1]:.3f}, "
          f"g_loss {history.history['g_loss'][-1]:.3f}; generated mean {samples.mean():.2f} "
          f"(target 3.00), std {samples.std():.2f} (target 0.50)")  # fmt: skip
    return samples


if __name__ == "__main__":
    main()
