"""Layers, initializers, optimizers, schedules and utilities take Keras 3's parameters, in its
order and with its defaults (also where a class inherits its `__init__`, as Adamax, Lamb and
Nadam do), so a ported script's keyword and positional arguments mean the same."""

import inspect

import pytest

import tripod
from tests.api import keras_api

pytestmark = pytest.mark.skipif(
    not keras_api.available(), reason="../shared/keras3_api.txt not found"
)

MODULES = {
    "keras.layers": tripod.layers,
    "keras.initializers": tripod.initializers,
    "keras.utils": tripod.utils,
    "keras.utils.bounding_boxes": tripod.utils.bounding_boxes,
    "keras.optimizers": tripod.optimizers,
    "keras.optimizers.schedules": tripod.optimizers.schedules,
    "keras.distribution": tripod.distribution,
    "keras.export": tripod.export,
}
#: deliberate differences, with why
DIFFERENT = {
    # one shared serializer for every kind of object: its argument is named for all of them
    "keras.layers.serialize",
    "keras.initializers.serialize",
    # a trailing `format` ("tf" or "tripod"), as the image and text builders have in Keras
    "keras.utils.audio_dataset_from_directory",
}


def _provided():
    """(namespace, name, Keras's parameter text) for each Keras name tripod provides."""
    if not keras_api.available():
        return []
    return [
        (namespace, name, text)
        for namespace, module in MODULES.items()
        for name, text in keras_api.section(namespace).items()
        if hasattr(module, name) and f"{namespace}.{name}" not in DIFFERENT
    ]


PROVIDED = _provided()


@pytest.mark.parametrize(
    "namespace, name, text", PROVIDED, ids=[f"{n}.{m}" for n, m, _ in PROVIDED]
)
def test_signature_is_keras(namespace, name, text):
    assert str(inspect.signature(getattr(MODULES[namespace], name))) == f"({text})"
