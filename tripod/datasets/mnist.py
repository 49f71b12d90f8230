"""`tripod.datasets.mnist`: the mnist dataset; the code lives in tripod/data/datasets/mnist.py."""

from tripod.data.datasets.mnist import load_data

__all__ = ["load_data"]
