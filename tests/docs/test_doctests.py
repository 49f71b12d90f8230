"""The `Examples:` of the public docstrings run as doctests, so what the API reference shows works.

`DOCUMENTED_MODULES` lists the modules whose examples run, beside every module of
`tripod.layers` (each public layer's constructor has an example: `test_layer_docs.py`); add a
module there when its docstrings gain examples. Each example sees `np` (NumPy) and `tripod` already imported, as the
API reference says, and starts from a cleared session with random seed 0. On the numpy backend,
which is inference-only, the examples that train or take gradients are skipped. The examples of
the layers bound to one backend (`_BACKEND_BOUND`: TorchModuleWrapper, JaxLayer, FlaxLayer,
TFSMLayer) run on that backend only, and are skipped when the package they import is missing.

They run with the rest of the suite on every backend (scripts/test_matrix.sh); alone, on one:
`TRIPOD_BACKEND=torch python -m pytest -q -p no:cacheprovider -n 0 tests/docs`.
"""

import doctest
import importlib
import os
import pkgutil

import numpy as np
import pytest

import tripod
from tripod.backends import config

DOCUMENTED_MODULES = (
    "tripod.training.model",
    "tripod.training.trainer",
    "tripod.training.compiling",
    "tripod.training.sequential",
    "tripod.saving.model_saving",
    "tripod.saving.model_io",
    "tripod.layers.layer",
    "tripod.layers.tracking",
    "tripod.layers.input_layer",
    "tripod.layers.core.dense",
    "tripod.layers.core.embedding",
    "tripod.layers.convolution.conv",
    "tripod.layers.regularization.dropout",
    "tripod.layers.reshaping.flatten",
    "tripod.layers.rnn.lstm",
    "tripod.wrappers.sklearn",
    "tripod.layers.normalization.batch_normalization",
    "tripod.layers.normalization.layer_normalization",
    "tripod.layers.attention.multi_head_attention",
    "tripod.training.optimizers.base",
    "tripod.training.optimizers.adam",
    "tripod.training.optimizers.sgd",
    "tripod.training.optimizers.rmsprop",
    "tripod.training.losses.loss",
    "tripod.training.losses.regression",
    "tripod.training.losses.probabilistic",
    "tripod.training.metrics.metric",
    "tripod.training.metrics.reduction_metrics",
    "tripod.training.metrics.accuracy_metrics",
    "tripod.training.metrics.regression_metrics",
    "tripod.training.callbacks.early_stopping",
    "tripod.training.callbacks.model_checkpoint",
    "tripod.training.callbacks.history",
    "tripod.backends.contract.numpy_ops.arrays",
    "tripod.backends.contract.numpy_ops.products",
    "tripod.backends.contract.nn.activations",
    "tripod.backends.contract.nn.conv",
    "tripod.backends.contract.nn.losses",
    "tripod.backends.contract.nn.normalization",
    "tripod.backends.contract.core",
    "tripod.backends.contract.math",
    "tripod.backends.contract.linalg",
    "tripod.backends.contract.random",
    "tripod.backends.contract.hooks",
    "tripod.backends.contract.numpy_ops.elementwise",
    "tripod.backends.contract.numpy_ops.comparison",
    "tripod.backends.contract.numpy_ops.reductions",
    "tripod.backends.contract.numpy_ops.creation",
    "tripod.testing.parity",
    "tripod.training.distillation.losses",
    "tripod.training.distillation.distiller",
    "tripod.backends.common.symbolic_scope",
    "tripod.data.visualization.boxes",
    "tripod.data.visualization.masks",
)

#: every module of the layers package, whose public layers all carry examples
_LAYER_MODULES = tuple(
    info.name
    for info in pkgutil.walk_packages(tripod.layers.__path__, "tripod.layers.")
    if info.name not in DOCUMENTED_MODULES
)

#: docstrings whose examples run on one backend only -> (that backend, the package they import)
_BACKEND_BOUND = {
    "tripod.layers.interop.torch_module_wrapper.TorchModuleWrapper": ("torch", "torch"),
    "tripod.layers.interop.jax_layer.JaxLayer": ("jax", "jax"),
    "tripod.layers.interop.jax_layer.FlaxLayer": ("jax", "flax"),
    "tripod.layers.interop.tfsm_layer.TFSMLayer": ("tensorflow", "tensorflow"),
}

#: calls the numpy backend refuses (it computes no gradients): examples making them train
_TRAINING_CALLS = (".fit(", "train_on_batch(", "value_and_grad(")


def _examples():
    """The `DocTest` of every documented module's docstrings that hold examples, by name."""
    finder = doctest.DocTestFinder(exclude_empty=True)
    found = []
    for module_name in DOCUMENTED_MODULES + _LAYER_MODULES:
        module = importlib.import_module(module_name)
        for test in finder.find(module, module_name, globs={}):
            if test.examples and test.name.startswith(module_name):
                found.append(test)
    return sorted(found, key=lambda test: test.name)


_EXAMPLES = _examples()

#: the folder holding the `tripod` package under test
_ROOT = os.path.dirname(os.path.dirname(tripod.__file__))


def _trains(test):
    """Whether the example trains a model or takes gradients."""
    return any(call in example.source for example in test.examples for call in _TRAINING_CALLS)


def test_every_documented_module_has_examples():
    """A module in the list without a single example is a stale entry."""
    named = {
        name
        for name in DOCUMENTED_MODULES
        for test in _EXAMPLES
        if test.name.startswith(f"{name}.")
    }
    assert named == set(DOCUMENTED_MODULES)


@pytest.mark.parametrize("test", _EXAMPLES, ids=[test.name for test in _EXAMPLES])
def test_docstring_example(test, tmp_path, monkeypatch):
    """The example runs and prints exactly what its docstring shows."""
    if config.backend() == "numpy" and _trains(test):
        pytest.skip("the numpy backend is inference-only and this example trains")
    if test.name in _BACKEND_BOUND:
        backend, package = _BACKEND_BOUND[test.name]
        if config.backend() != backend:
            pytest.skip(f"this layer runs on the {backend} backend only")
        pytest.importorskip(package)
    monkeypatch.chdir(tmp_path)  # examples that save write their files here
    # ...and the subprocesses they start (the parity check) import this checkout's tripod.
    monkeypatch.setenv(
        "PYTHONPATH", os.pathsep.join(filter(None, (_ROOT, os.environ.get("PYTHONPATH"))))
    )
    tripod.utils.clear_session()
    tripod.utils.set_random_seed(0)
    test.globs.update(np=np, tripod=tripod)
    report = []
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    result = runner.run(test, out=report.append)
    assert result.failed == 0, "".join(report)
