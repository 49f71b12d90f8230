"""Which backend's ops a public box function computes with: its inputs' framework's, else the
active one (so the functions work on `tf.Tensor`s inside a `tf.data` map whatever the backend)."""

import tripod.backends
from tripod.backends.common import frameworks


def ops_for(*values):
    """The backend ops for `values` (tensors, or dicts/lists of them)."""
    name = frameworks.framework_of_structure(list(values))
    active = tripod.backends.active()
    return active if name is None or name == active.name else tripod.backends.load(name)
