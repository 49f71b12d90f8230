# Written for tripod in the style of the Keras developer guide "Writing a training loop from
# scratch in PyTorch" (https://keras.io/guides/writing_a_custom_training_loop_in_torch/).
"""A training loop from scratch in PyTorch, both ways the guide shows: a Keras model trained by
a native `torch.optim.Adam` over `model.parameters()` with a `torch.nn.CrossEntropyLoss`, then a
Keras model trained by a Keras optimizer: `model.zero_grad()`, `loss.backward()`, the gradients
read from `v.value.grad`, `optimizer.apply()` under `torch.no_grad()`, Keras metrics updated and
reset by hand. Data comes from a `torch.utils.data.DataLoader`. PyTorch only.

Synthetic data in place of MNIST: 10 Gaussian blobs in 32 dimensions.
"""

import keras
import numpy as np

BACKENDS = ("torch",)


def make_blobs(n, seed=0):
    rng = np.random.default_rng(seed)
    centers = np.random.default_rng(42).normal(0, 1.0, (10, 32))
    labels = rng.integers(0, 10, n)
    return (centers[labels] + rng.normal(0, 0.8, (n, 32))).astype("float32"), labels.astype("int64")


def get_model():
    return keras.Sequential(
        [
            keras.layers.Input(shape=(32,)),
            keras.layers.Dense(64, activation="relu"),
            keras.layers.Dense(64, activation="relu"),
            keras.layers.Dense(10),
        ]
    )


def main(epochs=3, batch_size=64):
    import torch

    keras.utils.set_random_seed(8)
    x_train, y_train = make_blobs(2048, 0)
    x_val, y_val = make_blobs(512, 1)
    train_dataloader = torch.utils.data.DataLoader(
        torch.utils.data.TensorDataset(torch.from_numpy(x_train), torch.from_numpy(y_train)),
        batch_size=batch_size,
        shuffle=True,
    )
    val_dataloader = torch.utils.data.DataLoader(
        torch.utils.data.TensorDataset(torch.from_numpy(x_val), torch.from_numpy(y_val)),
        batch_size=batch_size,
        shuffle=False,
    )

    # 1. native optimizer and loss
    model = get_model()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    loss_fn = torch.nn.CrossEntropyLoss()
    native_losses = []
    for _ in range(epochs):
        for inputs, targets in train_dataloader:
            logits = model(inputs)
            loss = loss_fn(logits, targets)
            model.zero_grad()
            loss.backward()
            optimizer.step()
            native_losses.append(float(loss.detach()))

    # 2. Keras optimizer, loss and metrics
    model = get_model()
    optimizer = keras.optimizers.Adam(learning_rate=1e-3)
    loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    train_acc_metric = keras.metrics.SparseCategoricalAccuracy()
    val_acc_metric = keras.metrics.SparseCategoricalAccuracy()
    keras_losses, train_accuracies = [], []
    for _ in range(epochs):
        for inputs, targets in train_dataloader:
            logits = model(inputs, training=True)
            loss = loss_fn(targets, logits)
            model.zero_grad()
            loss.backward()
            trainable_weights = [v for v in model.trainable_weights]
            gradients = [v.value.grad for v in trainable_weights]
            with torch.no_grad():
                optimizer.apply(gradients, trainable_weights)
            train_acc_metric.update_state(targets, logits)
            keras_losses.append(float(loss.detach()))
        train_accuracies.append(float(train_acc_metric.result()))
        train_acc_metric.reset_state()
    for inputs, targets in val_dataloader:
        val_acc_metric.update_state(targets, model(inputs, training=False))
    return {
        "native_first_loss": float(np.mean(native_losses[:10])),
        "native_last_loss": float(np.mean(native_losses[-10:])),
        "keras_first_loss": float(np.mean(keras_losses[:10])),
        "keras_last_loss": float(np.mean(keras_losses[-10:])),
        "train_accuracies": train_accuracies,
        "val_accuracy": float(val_acc_metric.result()),
    }


def check(result):
    assert result["native_last_loss"] < 0.5 * result["native_first_loss"], result
    assert result["keras_last_loss"] < 0.5 * result["keras_first_loss"], result
    assert result["train_accuracies"][-1] > result["train_accuracies"][0], result
    assert result["val_accuracy"] > 0.8, result


if __name__ == "__main__":
    outcome = main()
    print(outcome)
    check(outcome)
