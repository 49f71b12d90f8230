"""Atomic writes: build the new file or folder under a temporary name beside the target, then
rename it into place, so an interrupted save leaves the previous checkpoint intact.

In a distributed run every process saves (reading sharded values gathers them, which every
process must join) but only process 0 keeps what it wrote (`kept_by_process_zero`).
"""

import contextlib
import os
import shutil
import tempfile

from tripod.backends import active

ops = active()


def _check_overwrite(path, overwrite):
    if not overwrite and os.path.exists(path):
        raise FileExistsError(f"{path} already exists; pass overwrite=True to replace it.")


def _parent(path):
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        raise FileNotFoundError(f"Cannot save to {path}: the folder {parent} does not exist.")
    return parent


@contextlib.contextmanager
def atomic_file(path, overwrite=True):
    """Yield a temporary path in `path`'s folder; on success it replaces `path` in one rename."""
    path = os.fspath(path)
    _check_overwrite(path, overwrite)
    fd, tmp = tempfile.mkstemp(
        dir=_parent(path), prefix=f".{os.path.basename(path)}.", suffix=".tmp"
    )
    os.close(fd)
    try:
        yield tmp
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


@contextlib.contextmanager
def atomic_dir(path, overwrite=True):
    """Yield a temporary folder beside `path`; on success it takes `path`'s place.

    An existing folder is first renamed aside and removed only once the new one is in place.
    """
    path = os.fspath(path)
    _check_overwrite(path, overwrite)
    if os.path.exists(path) and not os.path.isdir(path):
        raise FileExistsError(f"{path} exists and is not a folder; cannot save a folder there.")
    parent = _parent(path)
    tmp = tempfile.mkdtemp(dir=parent, prefix=f".{os.path.basename(path)}.", suffix=".tmp")
    try:
        yield tmp
        old = None
        if os.path.exists(path):
            old = tempfile.mkdtemp(dir=parent, prefix=f".{os.path.basename(path)}.", suffix=".old")
            os.rmdir(old)
            os.replace(path, old)
        os.replace(tmp, path)
        if old is not None:
            shutil.rmtree(old)
    finally:
        if os.path.exists(tmp):
            shutil.rmtree(tmp)


@contextlib.contextmanager
def kept_by_process_zero(path):
    """`path` itself in process 0 of a run (or a one-process run); in the others the same file
    name in a private temporary folder, removed afterwards, so only process 0's file remains."""
    if ops.process_index() == 0:
        yield path
        return
    with tempfile.TemporaryDirectory(prefix="tripod-not-kept-") as folder:
        yield os.path.join(folder, os.path.basename(path))
