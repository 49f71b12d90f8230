"""Keras's "Customizing what happens in fit() with PyTorch" patterns run on tripod's torch
backend: `zero_grad`, `loss.backward()`, the variables' `.grad`, and `optimizer.apply` under
`torch.no_grad()`."""

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

if config.backend() != "torch":
    pytest.skip("torch-specific train_step overrides", allow_module_level=True)

import torch


def _backward_grads(variables):
    """The gradients `loss.backward()` left on each variable (the guide's `v.value.grad`)."""
    return [v.value.grad for v in variables]


class GuideModel(keras.Model):
    """The guide's first step: the compiled loss and metrics, gradients from `backward()`."""

    def train_step(self, data):
        x, y = data
        self.zero_grad()
        y_pred = self(x, training=True)
        loss = self.compute_loss(y=y, y_pred=y_pred)
        loss.backward()
        trainable_weights = list(self.trainable_weights)
        with torch.no_grad():
            self.optimizer.apply(_backward_grads(trainable_weights), trainable_weights)
        for metric in self.metrics:
            if metric.name == "loss":
                metric.update_state(loss)
            else:
                metric.update_state(y, y_pred)
        return {m.name: m.result() for m in self.metrics}


class TrackerModel(TrackerBase):
    """The guide's lower-level step: its own loss function and `Mean`/MAE trackers, and its own
    `test_step`."""

    def train_step(self, data):
        x, y = data
        self.zero_grad()
        y_pred = self(x, training=True)
        loss = self.loss_fn(y, y_pred)
        loss.backward()
        with torch.no_grad():
            self.optimizer.apply(_backward_grads(self.trainable_weights), self.trainable_weights)
        return self._track(loss, y, y_pred)

    def test_step(self, data):
        x, y = data
        y_pred = self(x, training=False)
        return self._track(self.loss_fn(y, y_pred), y, y_pred)


class GAN(GANBase):
    """The guide's GAN: two optimizers, each step clearing and taking gradients twice."""

    def _train_part(self, model, optimizer, loss_of):
        """Clear, take `loss_of()`'s gradients for `model`'s weights by `backward()`, apply them."""
        self.zero_grad()
        loss = loss_of()
        loss.backward()
        with torch.no_grad():
            optimizer.apply(_backward_grads(model.trainable_weights), model.trainable_weights)
        return loss

    def train_step(self, real):
        real = real[0] if isinstance(real, tuple) else real
        batch = real.shape[0]
        latent = keras.random.normal((batch, self.latent_dim), seed=self.seed_generator)
        fake = self.generator(latent)
        images = torch.concat([fake, real], axis=0)
        labels = torch.concat([torch.ones((batch, 1)), torch.zeros((batch, 1))], axis=0)
        noise = keras.random.uniform(labels.shape, seed=self.seed_generator)
        labels = labels.to(images.device) + 0.05 * noise
        d_loss = self._train_part(
            self.discriminator,
            self.d_optimizer,
            lambda: self.loss_fn(labels, self.discriminator(images)),
        )
        latent = keras.random.normal((batch, self.latent_dim), seed=self.seed_generator)
        misleading = torch.zeros((batch, 1), device=images.device)
        g_loss = self._train_part(
            self.generator,
            self.g_optimizer,
            lambda: self.loss_fn(misleading, self.discriminator(self.generator(latent))),
        )
        self.d_loss_tracker.update_state(d_loss)
        self.g_loss_tracker.update_state(g_loss)
        return {"d_loss": self.d_loss_tracker.result(), "g_loss": self.g_loss_tracker.result()}


def test_the_guide_step_fits_and_evaluates_with_the_compiled_loss_and_metrics():
    x, y = regression_data()
    model = build(GuideModel)
    model.compile(optimizer=keras.optimizers.Adam(0.05), loss="mse", metrics=["mae"])
    assert_learns(model.fit(x, y, batch_size=32, epochs=2, verbose=0), ["loss", "mae"])
    logs = model.evaluate(x, y, verbose=0, return_dict=True)
    assert sorted(logs) == ["loss", "mae"] and np.isfinite(logs["loss"])


def test_the_lower_level_step_with_its_own_trackers_and_test_step():
    x, y = regression_data()
    model = build(TrackerModel)
    model.compile(optimizer=keras.optimizers.Adam(0.05))
    assert_learns(model.fit(x, y, batch_size=32, epochs=2, verbose=0), ["loss", "mae"])
    loss, mae = model.evaluate(x, y, verbose=0)
    expected = np.mean((model.predict(x, verbose=0) - y) ** 2)
    np.testing.assert_allclose(loss, expected, rtol=1e-4)
    assert mae > 0


def test_the_gan_step_trains_both_parts():
    assert_gan_trains(GAN)


def test_zero_grad_clears_what_backward_accumulated():
    model = build(keras.Model)
    x, _ = regression_data(samples=4)
    weights = model.trainable_weights
    torch.sum(model(x)).backward()
    first = [g.clone() for g in _backward_grads(weights)]
    torch.sum(model(x)).backward()  # accumulates: twice the first gradients
    for twice, once in zip(_backward_grads(weights), first):
        np.testing.assert_allclose(twice.cpu().numpy(), 2 * once.cpu().numpy(), rtol=1e-6)
    model.zero_grad(set_to_none=False)
    assert all(not torch.any(g) for g in _backward_grads(weights))
    model.zero_grad()
    assert _backward_grads(weights) == [None, None]
