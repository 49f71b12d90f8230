"""`tripod.optimizers.legacy`: Keras 3's stand-ins for the Keras 2 optimizers; the code lives in tripod/training/optimizers/legacy.py."""

from tripod.training.optimizers.legacy import SGD, Adagrad, Adam, Ftrl, Optimizer, RMSprop

__all__ = ["SGD", "Adagrad", "Adam", "Ftrl", "Optimizer", "RMSprop"]
