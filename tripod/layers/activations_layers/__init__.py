"""Activation layers: ReLU, LeakyReLU, PReLU, ELU, Softmax."""

from tripod.layers.activations_layers.elu import ELU
from tripod.layers.activations_layers.leaky_relu import LeakyReLU
from tripod.layers.activations_layers.prelu import PReLU
from tripod.layers.activations_layers.relu import ReLU
from tripod.layers.activations_layers.softmax import Softmax

__all__ = ["ELU", "LeakyReLU", "PReLU", "ReLU", "Softmax"]
