"""Hooks with one answer for every backend that does not define its own."""

import contextlib


def no_grad():
    """Nothing to switch off where gradients are functional (computed only when asked for)."""
    return contextlib.nullcontext()


def fuse_variables(variables, name):
    """Variables that cannot share storage fuse into nothing: optimizers update them one by one."""
    del variables, name
    return None


#: hook name -> default implementation
HOOKS = {"no_grad": no_grad, "fuse_variables": fuse_variables}
