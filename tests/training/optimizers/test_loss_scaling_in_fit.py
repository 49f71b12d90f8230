"""Loss scaling inside the compiled train step: the gradients are taken of the scaled loss and
unscaled by the optimizer, so a step with a `loss_scale_factor` or a `LossScaleOptimizer`
equals the plain step; `mixed_float16` models get a `LossScaleOptimizer` from `compile`."""

from typing import ClassVar

import numpy as np
import pytest

import tripod as keras
from tests import accelerator
from tripod import layers, ops, optimizers, saving
from tripod.backends import config

pytestmark = pytest.mark.skipif(
    config.backend() == "numpy", reason="the numpy backend is inference-only"
)

rng = np.random.default_rng(0)
X = rng.normal(size=(8, 3)).astype("float32")
Y = rng.normal(size=(8, 2)).astype("float32")


def _model(optimizer, policy=None, **compile_kwargs):
    """A compiled Dense(2) model with fixed initial weights (built under `policy`)."""
    keras.utils.set_random_seed(1)
    previous = keras.mixed_precision.global_policy()
    keras.mixed_precision.set_global_policy(policy or previous)
    try:
        model = keras.Sequential([keras.Input((3,)), layers.Dense(2)])
    finally:
        keras.mixed_precision.set_global_policy(previous)
    model.compile(optimizer, "mse", **compile_kwargs)
    return model


def _one_step(model, y=Y):
    """(the logged loss, the change of every weight) after one train_on_batch."""
    before = model.get_weights()
    loss = model.train_on_batch(X, y)
    return loss, [after - start for start, after in zip(before, model.get_weights())]


@pytest.mark.parametrize(
    "make",
    [
        lambda: optimizers.SGD(0.1, loss_scale_factor=128.0),
        lambda: optimizers.LossScaleOptimizer(optimizers.SGD(0.1)),
        lambda: optimizers.LossScaleOptimizer(optimizers.SGD(0.1), initial_scale=3.0),
    ],
    ids=["loss_scale_factor", "LossScaleOptimizer", "LossScaleOptimizer-non-power-of-2"],
)
def test_scaled_step_equals_the_plain_step(make):
    plain_loss, plain_update = _one_step(_model(optimizers.SGD(0.1)))
    loss, update = _one_step(_model(make()))
    assert loss == pytest.approx(plain_loss, rel=1e-6)  # the tracked loss is unscaled
    assert np.abs(plain_update[0]).max() > 1e-3  # the step moves the weights
    for got, want in zip(update, plain_update):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-7)


def test_dynamic_scale_grows_inside_the_compiled_step():
    model = _model(
        optimizers.LossScaleOptimizer(
            optimizers.SGD(0.1), initial_scale=4.0, dynamic_growth_steps=2
        )
    )
    scales = []
    for _ in range(5):
        model.train_on_batch(X, Y)
        scales.append(float(model.optimizer.dynamic_scale.numpy()))
    assert scales == [4.0, 8.0, 8.0, 16.0, 16.0]
    assert int(model.optimizer.iterations.numpy()) == 5


def test_non_finite_step_is_skipped_and_the_scale_halved():
    """A scale so large that the scaled loss overflows float32: every gradient is inf or nan,
    so the step leaves the weights and the inner optimizer alone and halves the scale."""
    model = _model(optimizers.LossScaleOptimizer(optimizers.SGD(0.1), initial_scale=2.0**127))
    _, update = _one_step(model, Y * 1e3)
    for change in update:
        np.testing.assert_array_equal(change, 0.0)
    assert float(model.optimizer.dynamic_scale.numpy()) == 2.0**126
    assert int(model.optimizer.iterations.numpy()) == 0
    assert int(model.optimizer.step_counter.numpy()) == 0


def test_fit_with_loss_scale_optimizer_matches_plain_fit():
    plain = _model(optimizers.SGD(0.05))
    scaled = _model(optimizers.LossScaleOptimizer(optimizers.SGD(0.05), dynamic_growth_steps=2))
    plain_history = plain.fit(X, Y, batch_size=4, epochs=3, shuffle=False, verbose=0).history
    scaled_history = scaled.fit(X, Y, batch_size=4, epochs=3, shuffle=False, verbose=0).history
    np.testing.assert_allclose(scaled_history["loss"], plain_history["loss"], rtol=1e-5)
    for got, want in zip(scaled.get_weights(), plain.get_weights()):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


class TestMixedFloat16:
    """`compile(auto_scale_loss=True)` (the default) wraps the optimizer for float16 models."""

    # A loss so small that its float16 gradients underflow to zero unless scaled (the tests
    # use a learning rate of 1e6 to make the resulting step visible).
    SETTINGS: ClassVar[dict] = {"loss_weights": 1e-8}

    def test_compile_wraps_only_mixed_float16(self):
        assert (
            type(_model(optimizers.SGD(), "mixed_float16").optimizer)
            is optimizers.LossScaleOptimizer
        )
        assert type(_model(optimizers.SGD(), "mixed_bfloat16").optimizer) is optimizers.SGD
        assert type(_model(optimizers.SGD()).optimizer) is optimizers.SGD
        unscaled = _model(optimizers.SGD(), "mixed_float16", auto_scale_loss=False)
        assert type(unscaled.optimizer) is optimizers.SGD
        already = optimizers.LossScaleOptimizer(optimizers.SGD())
        assert _model(already, "mixed_float16").optimizer is already

    def test_saved_model_reloads_its_loss_scale_state(self, tmp_path):
        """The compile config records the LossScaleOptimizer trained with, so loading restores
        its state (the scale, the counter and the inner slots)."""
        model = _model(optimizers.Adam(0.01), "mixed_float16")
        model.fit(X, Y, batch_size=4, epochs=1, verbose=0)
        assert model.get_compile_config()["optimizer"]["class_name"] == "LossScaleOptimizer"
        model.save(tmp_path / "m.keras")
        loaded = saving.load_model(tmp_path / "m.keras")
        assert type(loaded.optimizer) is optimizers.LossScaleOptimizer
        assert type(loaded.optimizer.inner_optimizer) is optimizers.Adam
        assert len(loaded.optimizer.variables) == len(model.optimizer.variables) == 10
        for a, b in zip(loaded.optimizer.variables, model.optimizer.variables):
            np.testing.assert_array_equal(a.numpy(), b.numpy(), err_msg=a.path)

    def test_scaled_float16_step_matches_float32(self):
        _, want = _one_step(_model(optimizers.SGD(1e6), **self.SETTINGS))
        _, underflowed = _one_step(
            _model(optimizers.SGD(1e6), "mixed_float16", auto_scale_loss=False, **self.SETTINGS)
        )
        _, got = _one_step(_model(optimizers.SGD(1e6), "mixed_float16", **self.SETTINGS))
        if not accelerator.ON_ACCELERATOR:  # XLA there may keep float16 values in float32
            assert all(np.all(change == 0) for change in underflowed)  # why scaling is needed
        for g, w in zip(got, want):
            np.testing.assert_allclose(g, w, rtol=2e-2, atol=1e-5)


class ScaledCustomStep(keras.Model):
    """A custom `train_step` written with `tripod.value_and_grad`: it scales its loss itself
    (`optimizer.scale_loss`), as custom steps do in Keras."""

    def __init__(self):
        super().__init__()
        self.dense = layers.Dense(2)

    def call(self, x):
        return self.dense(x)

    def train_step(self, data):
        x, y = data

        def scaled_loss():
            loss = ops.mean(ops.square(ops.subtract(self(x), y)))
            return self.optimizer.scale_loss(loss), loss

        (_, loss), grads = keras.value_and_grad(
            scaled_loss, self.trainable_variables, has_aux=True
        )()
        self.optimizer.apply(grads, self.trainable_variables)
        return {"loss": loss}


def test_custom_value_and_grad_step_scales_its_own_loss():
    def trained(optimizer):
        keras.utils.set_random_seed(1)
        model = ScaledCustomStep()
        model.compile(optimizer)
        model.train_on_batch(X, Y)
        return model.get_weights()

    plain = trained(optimizers.SGD(0.1))
    for got, want in zip(trained(optimizers.LossScaleOptimizer(optimizers.SGD(0.1))), plain):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-7)
