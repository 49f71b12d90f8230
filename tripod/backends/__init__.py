"""The ops abstraction: the contract, backend selection and one package per framework.

`tripod.backends.active()` is the assembled backend chosen at import (see `config`);
`tripod.backends.load(name)` assembles any installed backend, so several can be compared in
one process.
"""

from tripod.backends import config
from tripod.backends.common.assemble import Backend, load


def active():
    """The assembled backend tripod runs on."""
    return load(config.backend())


__all__ = ["Backend", "active", "config", "load"]
