"""Keras's "Writing a training loop from scratch in PyTorch" first loop on tripod's torch backend:
a tripod model trained by a native `torch.optim` optimizer over `model.parameters()`, with a
`torch.nn` loss, `model.zero_grad()` and `loss.backward()`; and the clear error elsewhere."""

import numpy as np
import pytest

import tripod as keras
from tripod.backends import config

BACKEND = config.backend()
torch = pytest.importorskip("torch") if BACKEND == "torch" else None
on_torch = pytest.mark.skipif(BACKEND != "torch", reason="torch modules' parameters")
CLASSES = 3


def _data(samples=256, seed=0):
    """Features and one-hot labels of a linearly separable 3-class problem."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(samples, 8)).astype("float32")
    labels = np.argmax(x @ rng.normal(size=(8, CLASSES)), axis=1)
    return x, np.eye(CLASSES, dtype="float32")[labels]


def _model():
    inputs = keras.Input((8,), name="digits")
    hidden = keras.layers.Dense(16, activation="relu", name="hidden")(inputs)
    return keras.Model(inputs, keras.layers.Dense(CLASSES, name="predictions")(hidden))


def _forward(weights, x):
    """The model's logits in NumPy from its weights [hidden kernel, bias, output kernel, bias]."""
    hidden = np.maximum(x @ weights[0] + weights[1], 0.0)
    return hidden @ weights[2] + weights[3]


def _train_like_the_guide(model, x, y, epochs=3):
    """The guide's loop; returns each epoch's mean batch loss."""
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    loss_fn = torch.nn.CrossEntropyLoss()
    dataset = torch.utils.data.TensorDataset(torch.from_numpy(x), torch.from_numpy(y))
    loader = torch.utils.data.DataLoader(dataset, batch_size=32, shuffle=True)
    means = []
    for _ in range(epochs):
        losses = []
        for inputs, targets in loader:
            loss = loss_fn(model(inputs), targets)
            model.zero_grad()
            loss.backward()
            optimizer.step()
            losses.append(loss.detach().item())
        means.append(np.mean(losses))
    return means


@on_torch
def test_a_torch_optimizer_trains_the_model_and_predict_sees_its_updates(tmp_path):
    x, y = _data()
    model = _model()
    initial = model.get_weights()
    losses = _train_like_the_guide(model, x, y)
    assert losses[-1] < 0.8 * losses[0], losses
    trained = model.get_weights()
    assert not np.allclose(trained[2], initial[2])
    predictions = model.predict(x, verbose=0)
    np.testing.assert_allclose(predictions, _forward(trained, x), rtol=1e-4, atol=1e-5)
    model.save(tmp_path / "model.keras")
    reloaded = keras.saving.load_model(tmp_path / "model.keras")
    np.testing.assert_allclose(reloaded.predict(x, verbose=0), predictions, rtol=1e-6, atol=1e-6)


@on_torch
def test_parameters_are_the_tensors_the_forward_pass_reads():
    model = _model()
    params = list(model.parameters())
    assert len(params) == 4 and all(isinstance(p, torch.nn.Parameter) for p in params)
    assert all(p is v.value for p, v in zip(params, model.variables))
    with torch.no_grad():
        params[3].add_(1.0)  # the output bias, changed in place as torch.optim does
    np.testing.assert_allclose(model.layers[-1].bias.numpy(), np.ones(CLASSES))


@on_torch
def test_named_parameters_are_named_by_variable_path():
    model = _model()
    names = ["hidden/kernel", "hidden/bias", "predictions/kernel", "predictions/bias"]
    assert [name for name, _ in model.named_parameters()] == names
    assert [name for name, _ in model.named_parameters(prefix="net")] == [f"net.{n}" for n in names]
    # Without recursion only the layer's own variables: a functional model has none.
    assert list(model.named_parameters(recurse=False)) == []
    dense = model.get_layer("hidden")
    assert [p for _, p in dense.named_parameters(recurse=False)] == [
        dense.kernel.value,
        dense.bias.value,
    ]


@on_torch
def test_non_trainable_variables_are_parameters_without_gradients():
    layer = keras.layers.BatchNormalization()
    layer.build((None, 4))
    requires = {name: p.requires_grad for name, p in layer.named_parameters()}
    assert requires == {
        f"{layer.name}/gamma": True,
        f"{layer.name}/beta": True,
        f"{layer.name}/moving_mean": False,
        f"{layer.name}/moving_variance": False,
    }


@pytest.mark.skipif(BACKEND == "torch", reason="torch has parameters")
def test_parameters_elsewhere_is_a_clear_error_naming_the_alternative():
    model = _model()
    with pytest.raises(
        NotImplementedError, match=r"only the torch backend.*tripod\.value_and_grad"
    ):
        model.parameters()
    with pytest.raises(NotImplementedError, match=r"model\.optimizer\.apply"):
        model.named_parameters()


@on_torch
def test_a_frozen_layer_is_left_alone_by_a_native_optimizer():
    # As in Keras on torch: freezing a layer turns off requires_grad on its parameters.
    model = _model()
    model.get_layer("hidden").trainable = False
    frozen = [w.numpy().copy() for w in model.get_layer("hidden").weights]
    x, y = _data(64)
    _train_like_the_guide(model, x, y, epochs=1)
    for before, after in zip(frozen, model.get_layer("hidden").weights):
        np.testing.assert_array_equal(after.numpy(), before)
    model.get_layer("hidden").trainable = True  # thawed: trains again
    _train_like_the_guide(model, x, y, epochs=1)
    assert not np.array_equal(model.get_layer("hidden").weights[0].numpy(), frozen[0])
