"""`tripod.datasets.fashion_mnist`: the fashion_mnist dataset; the code lives in tripod/data/datasets/fashion_mnist.py."""

from tripod.data.datasets.fashion_mnist import load_data

__all__ = ["load_data"]
