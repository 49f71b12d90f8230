"""Callbacks: hooks into fit, evaluate and predict."""

from tripod.training.callbacks.callback import Callback
from tripod.training.callbacks.callback_list import CallbackList
from tripod.training.callbacks.history import History
from tripod.training.callbacks.progbar_logger import ProgbarLogger

__all__ = ["Callback", "CallbackList", "History", "ProgbarLogger"]
