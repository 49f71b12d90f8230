# Written for tripod in the style of the Keras developer guide "Writing a training loop from
# scratch in JAX" (https://keras.io/guides/writing_a_custom_training_loop_in_jax/).
"""A training loop from scratch in JAX: the model's variables are pulled out as state, the loss
is a pure function of them through `model.stateless_call`, `jax.value_and_grad` differentiates
it, `optimizer.stateless_apply` updates, metrics go through `stateless_update_state` /
`stateless_result`, the whole step is `jax.jit`-compiled, and the final state is assigned back
to the model. JAX only.

Synthetic data in place of MNIST: 10 Gaussian blobs in 32 dimensions.
"""

import keras
import numpy as np

BACKENDS = ("jax",)


def make_blobs(n, seed=0):
    rng = np.random.default_rng(seed)
    centers = np.random.default_rng(42).normal(0, 1.0, (10, 32))
    labels = rng.integers(0, 10, n)
    return (centers[labels] + rng.normal(0, 0.8, (n, 32))).astype("float32"), labels.astype("int32")


def get_model():
    inputs = keras.Input(shape=(32,), name="digits")
    x1 = keras.layers.Dense(64, activation="relu")(inputs)
    x2 = keras.layers.Dense(64, activation="relu")(x1)
    outputs = keras.layers.Dense(10, name="predictions")(x2)
    return keras.Model(inputs=inputs, outputs=outputs)


def main(epochs=3, batch_size=64):
    import jax

    keras.utils.set_random_seed(7)
    x_train, y_train = make_blobs(2048, 0)
    x_val, y_val = make_blobs(512, 1)
    model = get_model()
    loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    optimizer = keras.optimizers.Adam(learning_rate=1e-3)
    train_acc_metric = keras.metrics.SparseCategoricalAccuracy()
    val_acc_metric = keras.metrics.SparseCategoricalAccuracy()

    def compute_loss_and_updates(trainable_variables, non_trainable_variables, x, y):
        y_pred, non_trainable_variables = model.stateless_call(
            trainable_variables, non_trainable_variables, x, training=True
        )
        loss = loss_fn(y, y_pred)
        return loss, (y_pred, non_trainable_variables)

    grad_fn = jax.value_and_grad(compute_loss_and_updates, has_aux=True)

    @jax.jit
    def train_step(state, data):
        trainable_variables, non_trainable_variables, optimizer_variables, metric_variables = state
        x, y = data
        (loss, (y_pred, non_trainable_variables)), grads = grad_fn(
            trainable_variables, non_trainable_variables, x, y
        )
        trainable_variables, optimizer_variables = optimizer.stateless_apply(
            optimizer_variables, grads, trainable_variables
        )
        metric_variables = train_acc_metric.stateless_update_state(metric_variables, y, y_pred)
        return loss, (
            trainable_variables,
            non_trainable_variables,
            optimizer_variables,
            metric_variables,
        )

    @jax.jit
    def eval_step(state, data):
        trainable_variables, non_trainable_variables, metric_variables = state
        x, y = data
        y_pred, non_trainable_variables = model.stateless_call(
            trainable_variables, non_trainable_variables, x
        )
        loss = loss_fn(y, y_pred)
        metric_variables = val_acc_metric.stateless_update_state(metric_variables, y, y_pred)
        return loss, (trainable_variables, non_trainable_variables, metric_variables)

    optimizer.build(model.trainable_variables)
    state = (
        [v.value for v in model.trainable_variables],
        [v.value for v in model.non_trainable_variables],
        [v.value for v in optimizer.variables],
        [v.value for v in train_acc_metric.variables],
    )
    losses, train_accuracies = [], []
    for _ in range(epochs):
        for start in range(0, len(x_train), batch_size):
            batch = (x_train[start : start + batch_size], y_train[start : start + batch_size])
            loss, state = train_step(state, batch)
            losses.append(float(loss))
        train_accuracies.append(float(train_acc_metric.stateless_result(state[3])))
        state = state[:3] + ([v.value for v in train_acc_metric.variables],)  # reset

    trainable_variables, non_trainable_variables, _, _ = state
    val_state = (
        trainable_variables,
        non_trainable_variables,
        [v.value for v in val_acc_metric.variables],
    )
    for start in range(0, len(x_val), batch_size):
        _, val_state = eval_step(
            val_state, (x_val[start : start + batch_size], y_val[start : start + batch_size])
        )
    val_accuracy = float(val_acc_metric.stateless_result(val_state[2]))

    for variable, value in zip(model.trainable_variables, trainable_variables):
        variable.assign(value)
    for variable, value in zip(model.non_trainable_variables, non_trainable_variables):
        variable.assign(value)
    assigned = model.predict(x_val, verbose=0)
    assigned_accuracy = float(np.mean(np.argmax(assigned, axis=-1) == y_val))
    return {
        "first_loss": float(np.mean(losses[:10])),
        "last_loss": float(np.mean(losses[-10:])),
        "train_accuracies": train_accuracies,
        "val_accuracy": val_accuracy,
        "assigned_accuracy": assigned_accuracy,
    }


def check(result):
    assert result["last_loss"] < 0.5 * result["first_loss"], result
    assert result["train_accuracies"][-1] > result["train_accuracies"][0], result
    assert result["val_accuracy"] > 0.8, result
    assert abs(result["assigned_accuracy"] - result["val_accuracy"]) < 1e-6, result


if __name__ == "__main__":
    outcome = main()
    print(outcome)
    check(outcome)
