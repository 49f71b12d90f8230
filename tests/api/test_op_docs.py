"""Every public op shows the contract, not its backend function: `help(tripod.ops.add)` gives the
contract's name, docstring and Keras 3's signature, on whichever backend the suite runs."""

import inspect
import pydoc

import pytest

import tripod
from tests.api import keras_api
from tripod.backends import active, contract
from tripod.layers import activations

#: public namespace -> (its module, the contract kinds it holds, the module its ops name as home)
OP_NAMESPACES = {
    "tripod.ops": (tripod.ops, ("core", "numpy", "nn", "math", "linalg"), "tripod.ops"),
    "tripod.ops.core": (tripod.ops.core, ("core",), "tripod.ops"),
    "tripod.ops.numpy": (tripod.ops.numpy, ("numpy",), "tripod.ops"),
    "tripod.ops.nn": (tripod.ops.nn, ("nn",), "tripod.ops"),
    "tripod.ops.math": (tripod.ops.math, ("math",), "tripod.ops"),
    "tripod.ops.linalg": (tripod.ops.linalg, ("linalg",), "tripod.ops"),
    "tripod.ops.image": (tripod.ops.image, ("image",), "tripod.ops.image"),
    "tripod.random": (tripod.random, ("random",), "tripod.random"),
}

#: the Keras 3 section listing each namespace's signatures; Keras has no `keras.ops.core` or
#: `keras.ops.math`, and lists some ops (`rearrange`) only at the top of `keras.ops`
KERAS_SECTIONS = {
    "tripod.ops": ("keras.ops",),
    "tripod.ops.core": ("keras.ops",),
    "tripod.ops.numpy": ("keras.ops.numpy", "keras.ops"),
    "tripod.ops.nn": ("keras.ops.nn",),
    "tripod.ops.math": ("keras.ops",),
    "tripod.ops.linalg": ("keras.ops.linalg",),
    "tripod.ops.image": ("keras.ops.image",),
    "tripod.random": ("keras.random",),
    "tripod.activations": ("keras.activations",),
}

ACTIVATIONS = {
    **activations.ALL,
    "get": activations.get,
    "serialize": activations.serialize,
    "deserialize": activations.deserialize,
}


def _specs(kinds):
    """{op name: contract stub} of the contract kinds `kinds`."""
    return {name: spec for kind in kinds for name, spec in contract.OPS_BY_KIND[kind].items()}


def _public(namespace):
    """{name: public function} of `namespace`, for the checks below."""
    if namespace == "tripod.activations":
        return ACTIVATIONS
    module, kinds, _ = OP_NAMESPACES[namespace]
    return {name: getattr(module, name) for name in _specs(kinds)}


def _metadata_problems(fn, name, doc, signature, home):
    """What of `fn`'s name, qualname, docstring, signature, module and `help()` text is not as
    given, as short strings (empty when everything is)."""
    problems = []
    if (fn.__name__, fn.__qualname__) != (name, name):
        problems.append(f"named {fn.__name__!r} / {fn.__qualname__!r}")
    if not doc or fn.__doc__ != doc:
        problems.append(f"docstring {fn.__doc__!r}, contract {doc!r}")
    if inspect.signature(fn) != signature:
        problems.append(f"signature {inspect.signature(fn)}, contract {signature}")
    if fn.__module__ != home:
        problems.append(f"module {fn.__module__!r}")
    shown = pydoc.plain(pydoc.render_doc(fn))
    # help() shows the docstring cleaned and indented, its blank lines as four spaces
    indented = "\n".join(f"    {line}" for line in inspect.cleandoc(doc or "").splitlines())
    if f"{name}{signature}" not in shown or (doc and indented not in shown):
        problems.append(f"help() shows {shown!r}")
    return problems


@pytest.mark.parametrize("namespace", sorted(OP_NAMESPACES))
def test_each_namespace_holds_exactly_the_contract_ops(namespace):
    module, kinds, _ = OP_NAMESPACES[namespace]
    public = {
        name
        for name, value in vars(module).items()
        if inspect.isfunction(value) and not name.startswith("_")
    }
    assert public == set(_specs(kinds))


@pytest.mark.parametrize("namespace", sorted(OP_NAMESPACES))
def test_every_op_carries_the_contract_name_docstring_signature_and_module(namespace):
    _, kinds, home = OP_NAMESPACES[namespace]
    specs, public = _specs(kinds), _public(namespace)
    wrong = {
        name: problems
        for name, spec in specs.items()
        if (
            problems := _metadata_problems(
                public[name], name, spec.__doc__, inspect.signature(spec), home
            )
        )
    }
    assert not wrong, "\n".join(f"{namespace}.{name}: {p}" for name, p in wrong.items())


def test_every_activation_is_named_documented_and_at_home_in_tripod_activations():
    wrong = {
        name: problems
        for name, fn in ACTIVATIONS.items()
        if (
            problems := _metadata_problems(
                fn, name, fn.__doc__, inspect.signature(fn), "tripod.activations"
            )
        )
    }
    assert not wrong, wrong
    assert tripod.activations.relu is activations.relu


@pytest.mark.skipif(not keras_api.available(), reason="../shared/keras3_api.txt not found")
@pytest.mark.parametrize("namespace", sorted(KERAS_SECTIONS))
def test_every_signature_reads_as_keras(namespace):
    sections = [keras_api.section(title) for title in KERAS_SECTIONS[namespace]]
    wrong = []
    for name, fn in _public(namespace).items():
        keras = next((section[name] for section in sections if name in section), None)
        if keras is None or str(inspect.signature(fn)) != f"({keras})":
            wrong.append(f"{name}{inspect.signature(fn)} vs Keras {name}({keras})")
    assert not wrong, "\n".join(wrong)


def test_a_random_op_is_a_copy_that_computes_as_the_backend_function():
    backend = active()
    ours, theirs = tripod.random.uniform, backend.uniform
    assert ours is not theirs and ours.__code__ is theirs.__code__
    a = tripod.ops.convert_to_numpy(ours((3,), seed=tripod.random.SeedGenerator(7)))
    b = tripod.ops.convert_to_numpy(theirs((3,), seed=tripod.random.SeedGenerator(7)))
    assert a.tolist() == b.tolist() and len(set(a.tolist())) == 3
