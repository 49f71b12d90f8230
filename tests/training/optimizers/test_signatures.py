"""Optimizers and schedules take Keras 3's parameters, in its order and with its defaults (also
where a class inherits its `__init__`, as Adamax, Lamb and Nadam do)."""

import inspect

import pytest

from tests.api import keras_api
from tripod import optimizers

pytestmark = pytest.mark.skipif(
    not keras_api.available(), reason="../shared/keras3_api.txt not found"
)

MODULES = {"keras.optimizers": optimizers, "keras.optimizers.schedules": optimizers.schedules}


def _provided():
    """(namespace, name, Keras's parameter text) for each Keras name that tripod provides."""
    if not keras_api.available():
        return []
    return [
        (namespace, name, text)
        for namespace, module in MODULES.items()
        for name, text in keras_api.section(namespace).items()
        if hasattr(module, name)
    ]


PROVIDED = _provided()


@pytest.mark.parametrize(
    "namespace, name, text",
    PROVIDED,
    ids=[f"{namespace}.{name}" for namespace, name, _ in PROVIDED],
)
def test_signature_is_keras(namespace, name, text):
    ours = str(inspect.signature(getattr(MODULES[namespace], name)))
    assert ours == f"({text})"
