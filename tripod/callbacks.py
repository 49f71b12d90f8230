"""`tripod.callbacks`: hooks into fit, evaluate and predict; the code lives in tripod/training/callbacks/."""

from tripod.training.callbacks.backup_and_restore import BackupAndRestore
from tripod.training.callbacks.callback import Callback
from tripod.training.callbacks.callback_list import CallbackList
from tripod.training.callbacks.csv_logger import CSVLogger
from tripod.training.callbacks.early_stopping import EarlyStopping
from tripod.training.callbacks.history import History
from tripod.training.callbacks.lambda_callback import LambdaCallback
from tripod.training.callbacks.learning_rate_scheduler import LearningRateScheduler
from tripod.training.callbacks.model_checkpoint import ModelCheckpoint
from tripod.training.callbacks.progbar_logger import ProgbarLogger
from tripod.training.callbacks.reduce_lr_on_plateau import ReduceLROnPlateau
from tripod.training.callbacks.remote_monitor import RemoteMonitor
from tripod.training.callbacks.swap_ema_weights import SwapEMAWeights
from tripod.training.callbacks.tensorboard import TensorBoard
from tripod.training.callbacks.terminate_on_nan import TerminateOnNaN

__all__ = [
    "BackupAndRestore",
    "CSVLogger",
    "Callback",
    "CallbackList",
    "EarlyStopping",
    "History",
    "LambdaCallback",
    "LearningRateScheduler",
    "ModelCheckpoint",
    "ProgbarLogger",
    "ReduceLROnPlateau",
    "RemoteMonitor",
    "SwapEMAWeights",
    "TensorBoard",
    "TerminateOnNaN",
]
