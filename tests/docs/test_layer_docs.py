"""Every public layer's docstring teaches its constructor: an `Args:` entry for each named
parameter and an `Examples:` section, which `test_doctests.py` runs on every backend."""

import inspect
import re

import pytest

import tripod


def _public_layers():
    """The public layer classes of `tripod.layers`, each once (aliases share a class)."""
    found = {}
    for name in sorted(dir(tripod.layers)):
        value = getattr(tripod.layers, name)
        public = not name.startswith("_") and isinstance(value, type)
        if public and issubclass(value, tripod.layers.Layer):
            found.setdefault(value, name)
    return sorted(found.items(), key=lambda item: item[1])


_LAYERS = _public_layers()


def _section(doc, title):
    """The lines of the docstring's `title:` section (up to the next unindented title)."""
    lines = inspect.cleandoc(doc).splitlines()
    if f"{title}:" not in lines:
        return None
    start = lines.index(f"{title}:") + 1
    end = next((i for i in range(start, len(lines)) if re.match(r"\S", lines[i])), len(lines))
    return lines[start:end]


def _documented_args(doc):
    """The parameter names the `Args:` section describes (its entries `name: ...`)."""
    section = _section(doc, "Args") or []
    return {m.group(1) for line in section if (m := re.match(r" {4}\**(\w+)( \(.*\))?:", line))}


def _named_parameters(cls):
    """The constructor's parameters a caller names (not `self`, `*args` or `**kwargs`)."""
    parameters = inspect.signature(cls.__init__).parameters.values()
    variadic = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
    return [p.name for p in parameters if p.name != "self" and p.kind not in variadic]


@pytest.mark.parametrize("cls", [cls for cls, _ in _LAYERS], ids=[name for _, name in _LAYERS])
def test_layer_documents_its_constructor(cls):
    """The class's own docstring (not one inherited) names every constructor argument under
    `Args:` and shows an example."""
    doc = cls.__dict__.get("__doc__") or ""
    missing = [name for name in _named_parameters(cls) if name not in _documented_args(doc)]
    assert not missing, f"{cls.__name__}: no `Args:` entry for {missing}"
    examples = _section(doc, "Examples") or []
    assert any(line.lstrip().startswith(">>>") for line in examples), (
        f"{cls.__name__}: no `Examples:` section with a `>>>` example"
    )


def test_the_rule_catches_a_missing_entry():
    """A docstring that leaves out a parameter, or has no example, is caught."""

    class Scaled(tripod.layers.Layer):
        """Multiply by a factor.

        Args:
            factor: float.
        """

        def __init__(self, factor, offset=0.0, **kwargs):
            super().__init__(**kwargs)

    assert _documented_args(Scaled.__doc__) == {"factor"}
    assert _named_parameters(Scaled) == ["factor", "offset"]
    assert _section(Scaled.__doc__, "Examples") is None
