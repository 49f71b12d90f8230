# Written for tripod in the style of the Keras developer guide "Writing a training loop from
# scratch in TensorFlow" (https://keras.io/guides/writing_a_custom_training_loop_in_tensorflow/).
"""A training loop from scratch in TensorFlow: batches from a `tf.data.Dataset`, the forward
pass under `tf.GradientTape`, `tape.gradient` over `model.trainable_weights`,
`optimizer.apply`, Keras metrics updated and reset by hand, the step compiled with
`@tf.function`, and a layer's `add_loss` activity penalty added from `model.losses`.
TensorFlow only.

Synthetic data in place of MNIST: 10 Gaussian blobs in 32 dimensions.
"""

import keras
import numpy as np

BACKENDS = ("tensorflow",)


def make_blobs(n, seed=0):
    rng = np.random.default_rng(seed)
    centers = np.random.default_rng(42).normal(0, 1.0, (10, 32))
    labels = rng.integers(0, 10, n)
    return (centers[labels] + rng.normal(0, 0.8, (n, 32))).astype("float32"), labels.astype("int32")


class ActivityRegularizationLayer(keras.layers.Layer):
    def call(self, inputs):
        self.add_loss(
            1e-3
            * keras.ops.sum(keras.ops.abs(inputs))
            / keras.ops.cast(keras.ops.shape(inputs)[0], "float32")
        )
        return inputs


def get_model():
    inputs = keras.Input(shape=(32,), name="digits")
    x = keras.layers.Dense(64, activation="relu")(inputs)
    x = ActivityRegularizationLayer()(x)
    x = keras.layers.Dense(64, activation="relu")(x)
    outputs = keras.layers.Dense(10, name="predictions")(x)
    return keras.Model(inputs=inputs, outputs=outputs)


def main(epochs=3, batch_size=64):
    import tensorflow as tf

    keras.utils.set_random_seed(9)
    x_train, y_train = make_blobs(2048, 0)
    x_val, y_val = make_blobs(512, 1)
    train_dataset = tf.data.Dataset.from_tensor_slices((x_train, y_train))
    train_dataset = train_dataset.shuffle(buffer_size=1024, seed=0).batch(batch_size)
    val_dataset = tf.data.Dataset.from_tensor_slices((x_val, y_val)).batch(batch_size)

    model = get_model()
    optimizer = keras.optimizers.Adam(learning_rate=1e-3)
    loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    train_acc_metric = keras.metrics.SparseCategoricalAccuracy()
    val_acc_metric = keras.metrics.SparseCategoricalAccuracy()

    @tf.function
    def train_step(x, y):
        with tf.GradientTape() as tape:
            logits = model(x, training=True)
            loss_value = loss_fn(y, logits)
            loss_value += sum(model.losses)
        grads = tape.gradient(loss_value, model.trainable_weights)
        optimizer.apply(grads, model.trainable_weights)
        train_acc_metric.update_state(y, logits)
        return loss_value

    @tf.function
    def test_step(x, y):
        val_acc_metric.update_state(y, model(x, training=False))

    losses, train_accuracies = [], []
    for _ in range(epochs):
        for x_batch_train, y_batch_train in train_dataset:
            losses.append(float(train_step(x_batch_train, y_batch_train)))
        train_accuracies.append(float(train_acc_metric.result()))
        train_acc_metric.reset_state()
    for x_batch_val, y_batch_val in val_dataset:
        test_step(x_batch_val, y_batch_val)
    model(x_val[:4])
    return {
        "first_loss": float(np.mean(losses[:10])),
        "last_loss": float(np.mean(losses[-10:])),
        "train_accuracies": train_accuracies,
        "val_accuracy": float(val_acc_metric.result()),
        "n_losses": len(model.losses),
    }


def check(result):
    assert result["last_loss"] < 0.5 * result["first_loss"], result
    assert result["train_accuracies"][-1] > result["train_accuracies"][0], result
    assert result["val_accuracy"] > 0.8, result
    assert result["n_losses"] == 1, result


if __name__ == "__main__":
    outcome = main()
    print(outcome)
    check(outcome)
