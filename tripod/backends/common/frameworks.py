"""Which framework a tensor belongs to, read from its type: no framework is imported to ask."""

from tripod.backends.common import tree

#: framework -> the module prefixes of its tensor types
_PREFIXES = {"tensorflow": ("tensorflow.",), "torch": ("torch",), "jax": ("jax.", "jaxlib.")}


def framework_of(x):
    """ "tensorflow", "torch" or "jax" for a tensor of that framework, else None (NumPy, Python)."""
    module = type(x).__module__
    for name, prefixes in _PREFIXES.items():
        if module.startswith(prefixes):
            return name
    return None


def framework_of_structure(structure):
    """The framework of the first framework tensor among `structure`'s leaves, else None."""
    for leaf in tree.flatten(structure):
        name = framework_of(leaf)
        if name is not None:
            return name
    return None
