"""`tripod.ops` covers `keras.ops`: every Keras 3.15 op name, with the same parameters."""

import inspect

import pytest

import tripod
from tests.api import keras_api

pytestmark = pytest.mark.skipif(
    not keras_api.available(), reason="../shared/keras3_api.txt not found"
)

NAMESPACES = {
    "keras.ops": tripod.ops,
    "keras.ops.nn": tripod.ops.nn,
    "keras.ops.numpy": tripod.ops.numpy,
    "keras.ops.linalg": tripod.ops.linalg,
    "keras.ops.image": tripod.ops.image,
    "keras.random": tripod.random,
}


def _ours(fn):
    params = []
    for p in inspect.signature(fn).parameters.values():
        name = {p.VAR_POSITIONAL: f"*{p.name}", p.VAR_KEYWORD: f"**{p.name}"}.get(p.kind, p.name)
        params.append((name, None if p.default is p.empty else repr(p.default)))
    return params


@pytest.mark.parametrize("namespace", sorted(NAMESPACES))
def test_every_keras_name_exists_with_its_parameters(namespace):
    module = NAMESPACES[namespace]
    missing, different = [], []
    for name, text in keras_api.section(namespace).items():
        if not hasattr(module, name):
            missing.append(name)
            continue
        if name == "SeedGenerator":
            continue
        theirs = keras_api.parameters(text)
        ours = _ours(getattr(module, name))
        if [p[0] for p in ours] != [p[0] for p in theirs] or any(
            t[1] is not None and o[1] != t[1] for o, t in zip(ours, theirs)
        ):
            different.append(f"{name}: ours {ours} vs keras {theirs}")
    assert not missing, f"{namespace} lacks {missing}"
    assert not different, "\n".join(different)
