"""Keras's "Writing a training loop from scratch in JAX" shape on tripod's jax backend: the
model's and optimizer's variables go into a `jax.jit` step as they are (each enters as its
current value), and the loop writes the final state back into them."""

import numpy as np
import pytest

import tripod as keras
from tripod.backends import config

if config.backend() != "jax":
    pytest.skip("variables passed into jax.jit", allow_module_level=True)

import jax


def test_variables_go_into_a_jitted_step_and_the_loop_trains():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(64, 3)).astype("float32")
    y = x @ np.array([[1.0], [-2.0], [0.5]], "float32")
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
    optimizer = keras.optimizers.SGD(0.1)
    optimizer.build(model.trainable_variables)
    loss_fn = keras.losses.MeanSquaredError()

    def loss_and_updates(trainable, non_trainable, x, y):
        y_pred, non_trainable = model.stateless_call(trainable, non_trainable, x, training=True)
        return loss_fn(y, y_pred), non_trainable

    grad_fn = jax.value_and_grad(loss_and_updates, has_aux=True)

    @jax.jit
    def train_step(state, x, y):
        trainable, non_trainable, optimizer_variables = state
        (loss, non_trainable), grads = grad_fn(trainable, non_trainable, x, y)
        trainable, optimizer_variables = optimizer.stateless_apply(
            optimizer_variables, grads, trainable
        )
        return loss, (trainable, non_trainable, optimizer_variables)

    state = (model.trainable_variables, model.non_trainable_variables, optimizer.variables)
    losses = []
    for _ in range(30):
        loss, state = train_step(state, x, y)
        losses.append(float(loss))
    trainable, _, optimizer_variables = state
    for variable, value in zip(model.trainable_variables, trainable):
        variable.assign(value)
    for variable, value in zip(optimizer.variables, optimizer_variables):
        variable.assign(value)

    assert losses[-1] < 0.01 * losses[0]
    assert int(optimizer.iterations.numpy()) == 30
    assert float(loss_fn(y, model(x))) <= losses[-1]  # the trained weights came back
