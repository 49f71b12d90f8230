"""`TorchModuleWrapper`: a torch module's parameters and buffers as tripod variables sharing
their storage, trained by tripod's optimizers, saved in tripod's files; refused off torch."""

import numpy as np
import pytest

import tripod
from tripod import layers
from tripod.backends import config
from tripod.layers.interop.torch_module_wrapper import TorchModuleWrapper

torch = pytest.importorskip("torch")

on_torch = pytest.mark.skipif(config.backend() != "torch", reason="needs the torch backend")


def _rows(batch=16, features=4, seed=0):
    return np.random.default_rng(seed).normal(size=(batch, features)).astype("float32")


def _normalized_mlp(seed=0):
    torch.manual_seed(seed)
    return torch.nn.Sequential(
        torch.nn.Linear(4, 8), torch.nn.BatchNorm1d(8), torch.nn.ReLU(), torch.nn.Linear(8, 2)
    )


def _model(module):
    inputs = tripod.Input((4,))
    return tripod.Model(inputs, layers.Dense(1)(TorchModuleWrapper(module)(inputs)))


@tripod.saving.register_keras_serializable(package="tests_torch_wrapper")
class TorchBlock(layers.Layer):
    """A registered layer building its torch module in `__init__`: what loads from a file."""

    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.inner = TorchModuleWrapper(torch.nn.Linear(4, units))

    def call(self, x):
        return self.inner(x)

    def get_config(self):
        return {**super().get_config(), "units": self.units}


@on_torch
def test_variables_share_the_module_state_in_named_order():
    module = _normalized_mlp()
    wrapper = TorchModuleWrapper(module)
    params = dict(module.named_parameters())
    assert [v.name for v in wrapper.trainable_weights] == list(params)
    assert [v.name for v in wrapper.non_trainable_weights] == [
        "1.running_mean",
        "1.running_var",
        "1.num_batches_tracked",
    ]
    kernel = wrapper.trainable_weights[0]
    assert kernel.value is params["0.weight"]
    kernel.assign(np.ones((8, 4), "float32"))  # tripod -> module
    assert float(module[0].weight.detach().sum()) == 32.0
    with torch.no_grad():
        module[1].running_mean.fill_(3.0)  # module -> tripod
    np.testing.assert_array_equal(wrapper.non_trainable_weights[0].numpy(), np.full(8, 3.0))


@on_torch
def test_output_is_the_module_output_in_the_mode_training_asks_for():
    module = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.Dropout(0.5))
    wrapper = TorchModuleWrapper(module)
    x = _rows()
    inference = wrapper(torch.from_numpy(x), training=False)
    assert not module.training
    direct = module(torch.from_numpy(x)).detach().numpy()
    np.testing.assert_allclose(inference.detach().numpy(), direct)
    dropped = wrapper(torch.from_numpy(x), training=True)
    assert module.training and bool((dropped == 0).any())


@on_torch
def test_fit_trains_the_module_and_updates_its_statistics():
    module = _normalized_mlp()
    model = _model(module)
    model.compile(optimizer="adam", loss="mse")
    x = _rows(64)
    y = x.sum(axis=1, keepdims=True)
    weight = module[0].weight.detach().clone()
    history = model.fit(x, y, epochs=4, batch_size=16, verbose=0)
    losses = history.history["loss"]
    assert losses[-1] < losses[0]
    assert not torch.equal(module[0].weight.detach(), weight)
    assert int(module[1].num_batches_tracked) == 16
    module.eval()
    with torch.no_grad():
        direct = model.layers[-1](module(torch.from_numpy(x)))
    np.testing.assert_allclose(model.predict(x, verbose=0), direct.numpy(), atol=1e-6)


@on_torch
def test_symbolic_calls_infer_shapes_without_touching_running_statistics():
    module = _normalized_mlp()
    out = TorchModuleWrapper(module)(tripod.Input((4,)))
    assert out.shape == (None, 2)
    assert int(module[1].num_batches_tracked) == 0 and module.training
    declared = TorchModuleWrapper(torch.nn.Linear(4, 3), output_shape=(None, 3))
    assert declared(tripod.Input((4,))).shape == (None, 3)
    assert declared.compute_output_shape((None, 4)) == (None, 3)


@on_torch
def test_weights_round_trip_through_save_weights(tmp_path):
    model = _model(_normalized_mlp(seed=0))
    model.compile(optimizer="sgd", loss="mse")
    x = _rows()
    model.fit(x, x[:, :1], epochs=1, verbose=0)
    model.save_weights(tmp_path / "m.weights.h5")
    other = _model(_normalized_mlp(seed=1))
    other.load_weights(tmp_path / "m.weights.h5")
    np.testing.assert_array_equal(other.predict(x, verbose=0), model.predict(x, verbose=0))


@on_torch
def test_a_wrapper_saved_in_a_model_file_does_not_load_from_config(tmp_path):
    model = _model(torch.nn.Linear(4, 2))
    model.save(tmp_path / "m.keras")
    with pytest.raises(ValueError, match="Rebuild the model in code and call model.load_weights"):
        tripod.saving.load_model(tmp_path / "m.keras")


@on_torch
def test_a_registered_layer_building_its_module_saves_and_loads(tmp_path):
    inputs = tripod.Input((4,))
    model = tripod.Model(inputs, TorchBlock(3)(inputs))
    x = _rows()
    model.save(tmp_path / "m.keras")
    loaded = tripod.saving.load_model(tmp_path / "m.keras")
    np.testing.assert_array_equal(loaded.predict(x, verbose=0), model.predict(x, verbose=0))
    assert isinstance(loaded.layers[-1], TorchBlock)


@on_torch
def test_bad_modules_are_refused():
    with pytest.raises(TypeError, match="wraps a torch.nn.Module; received function"):
        TorchModuleWrapper(lambda x: x)
    with pytest.raises(ValueError, match="call the module once"):
        TorchModuleWrapper(torch.nn.LazyLinear(3))


@pytest.mark.skipif(config.backend() == "torch", reason="the error off the torch backend")
def test_other_backends_refuse_the_wrapper_by_name():
    with pytest.raises(TypeError, match="TorchModuleWrapper 'wrapped' needs the torch backend"):
        TorchModuleWrapper(torch.nn.Linear(4, 2), name="wrapped")
