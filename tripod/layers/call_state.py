"""The thread's `Layer`-call state (depth, outer `training`) and the losses added during a call."""

import threading


class _CallState:
    """The state of the outermost layer call in progress on one thread."""

    __slots__ = ("depth", "training")

    def __init__(self):
        self.depth = 0
        self.training = None


class _ThreadState(threading.local):
    """Each thread's `_CallState`. A layer call reads this thread-local once, then plain slots:
    each attribute of a `threading.local` subclass costs several times a slot's."""

    def __init__(self):
        self.call = _CallState()


thread_state = _ThreadState()
# Weak references to the layers holding losses added during the current top-level call; their
# losses are cleared when the next one starts. A plain set: its truth test costs no Python call.
loss_holders = set()


def clear_added_losses():
    """Drop the losses added during the last top-level call."""
    for ref in loss_holders:
        layer = ref()
        if layer is not None:
            layer._losses.clear()
    loss_holders.clear()
